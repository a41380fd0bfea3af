// `bobina terminals add` and `rotate-key` (issue 11 §1, §2, §3): a terminal without a printer, one
// with a device, one taking template jobs; the terminal key printed once, alone on the last line,
// stored only hashed, replaced by rotate-key; `bobina agent` refusing bad arguments.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/server/auth/secrets.js';
import { bobina, STACK } from '../support/cli.js';

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bobina-terminals-'));
  db = join(dir, 'db.sqlite');
  expect(bobina(['users', 'add', '--email', 'ana@example.com', '--password', 'pw-ana-1', '--name', 'Ana', '--db', db]).code).toBe(0);
}, 15_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runIn = (env: Record<string, string>, ...args: string[]) => {
  const r = bobina([...args, '--db', db], undefined, env);
  return { ...r, out: r.stdout.toString('utf8') };
};
const run = (...args: string[]) => runIn({}, ...args);

const rows = <T>(sql: string, ...params: unknown[]): T[] => {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all(...params) as T[];
  } finally {
    conn.close();
  }
};

describe('bobina terminals', () => {
  it('registers a terminal without a printer, with a device, or taking template jobs', () => {
    expect(run('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'SEM').out).toMatch(/has no linked printer/);
    expect(run('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'LOJA', '--printer', 'MAKER5T20', '--device', 'tcp://127.0.0.1:9100').out).toMatch(/delivered by the service to tcp:\/\/127\.0\.0\.1:9100/);
    expect(run('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'BALCAO', '--template-jobs').out).toMatch(/takes the account's template jobs/);
    expect(rows('SELECT terminal_id, printer_id, device, template_jobs FROM terminals ORDER BY terminal_id')).toEqual([
      { terminal_id: 'BALCAO', printer_id: null, device: null, template_jobs: 1 },
      { terminal_id: 'LOJA', printer_id: 5, device: 'tcp://127.0.0.1:9100', template_jobs: 0 },
      { terminal_id: 'SEM', printer_id: null, device: null, template_jobs: 0 },
    ]);
    const bad = run('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'X', '--device', 'lpt1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(STACK);
    // An id GET /Terminal/GetById could not take (over 200 characters), or with a control character: refused, nothing stored.
    for (const [id, why] of [['T'.repeat(201), /at most 200 characters/], ['A\tB', /control character/]] as const) {
      const refused = run('terminals', 'add', '--email', 'ana@example.com', '--terminal', id);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(why);
    }
    expect(run('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'ç'.repeat(200)).code).toBe(0);
    expect(rows('SELECT terminal_id FROM terminals WHERE length(terminal_id) > 100')).toEqual([{ terminal_id: 'ç'.repeat(200) }]);
  }, 30_000);

  it('prints the key once, alone on the last line, stores only its hash, and rotate-key replaces it', () => {
    const added = run('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'PDV', '--printer', '1', '--print-key');
    expect(added.code).toBe(0);
    const lines = added.out.trimEnd().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(/^bobt_[A-Za-z0-9_-]{43}$/);
    expect(lines.slice(0, -1).join('\n')).not.toContain(key);
    const stored = rows<{ key_hash: string; terminal_id: string }>('SELECT key_hash, terminal_id FROM terminal_keys');
    expect(stored).toEqual([{ key_hash: sha256(key), terminal_id: 'PDV' }]);
    expect(readFileSync(db).includes(Buffer.from(key))).toBe(false);

    const rotated = run('terminals', 'rotate-key', '--email', 'ana@example.com', '--terminal', 'PDV');
    const newKey = rotated.out.trimEnd().split('\n').at(-1)!;
    expect(newKey).toMatch(/^bobt_/);
    expect(newKey).not.toBe(key);
    expect(rows('SELECT key_hash FROM terminal_keys')).toEqual([{ key_hash: sha256(newKey) }]);
    expect(run('terminals', 'rotate-key', '--email', 'ana@example.com', '--terminal', 'NOPE').code).toBe(1);
  }, 30_000);
});

describe('bobina terminals status', () => {
  it("shows each terminal's health from the database: never seen, then online with its printer's reasons and version", async () => {
    expect(run('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'SAUDE', '--printer', 'MAKER5T20').code).toBe(0);
    type Shown = { email: string; terminalId: string; online: boolean; ultimoContato: string | null; versaoAgente: string | null; impressora: { pronta: boolean | null; motivos: string[] } };
    const status = (...extra: string[]) => JSON.parse(run('terminals', 'status', '--user', 'ana@example.com', '--json', ...extra).out) as Shown[];
    expect(status().find((t) => t.terminalId === 'SAUDE')).toMatchObject({ email: 'ana@example.com', online: false, ultimoContato: null, impressora: { pronta: null, motivos: [] } });
    const { openSqliteStore } = await import('../../src/server/store/sqlite.js');
    const store = openSqliteStore(db);
    try {
      const ana = (await store.accounts.findByEmail('ana@example.com'))!;
      await store.terminals.recordContact({ accountId: ana.id, terminalId: 'SAUDE', at: new Date(), agentVersion: '0.1.0', printer: { ready: false, reasons: ['media-empty'] } });
    } finally {
      await store.close();
    }
    const seen = status().find((t) => t.terminalId === 'SAUDE')!;
    expect(seen).toMatchObject({ online: true, versaoAgente: '0.1.0', impressora: { pronta: false, motivos: ['media-empty'] } });
    expect(new Date(seen.ultimoContato!).getTime()).toBeGreaterThan(0);
    const table = run('terminals', 'status', '--user', 'ana@example.com').out;
    expect(table.split('\n')[0]).toMatch(/^USER\s+TERMINAL\s+ONLINE\s+LAST CONTACT\s+AGENT\s+PRINTER\s+QUEUE\s+OLDEST$/);
    expect(table).toMatch(/SAUDE\s+yes\s+\S+\s+0\.1\.0\s+not ready \(media-empty\)\s+0\s+-/);
    const unknown = run('terminals', 'status', '--user', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.toString()).toMatch(/no user with e-mail nobody@example.com/);
  }, 30_000);

  it("judges online by the service's rule: --heartbeat and --offline-grace, else BOBINA_HEARTBEAT and BOBINA_OFFLINE_GRACE", async () => {
    expect(run('terminals', 'add', '--email', 'ana@example.com', '--terminal', 'LENTO', '--printer', 'MAKER5T20').code).toBe(0);
    const { openSqliteStore } = await import('../../src/server/store/sqlite.js');
    const store = openSqliteStore(db);
    try {
      // Heard from an hour ago: offline by the default rule (2 × 15 s + 5 s), online by one with a
      // 1 h heartbeat (2 h 5 s) or a 2 h grace (2 h 30 s). Each CLI run judges it at its own now, so
      // the contact grows older as the test goes on (a loaded machine takes seconds per run): an
      // hour on either side of each rule, not seconds, so no run of this test can cross one.
      const ana = (await store.accounts.findByEmail('ana@example.com'))!;
      await store.terminals.recordContact({ accountId: ana.id, terminalId: 'LENTO', at: new Date(Date.now() - 3_600_000), agentVersion: '0.1.0' });
    } finally {
      await store.close();
    }
    const online = (env: Record<string, string>, ...extra: string[]) => {
      const r = runIn(env, 'terminals', 'status', '--user', 'ana@example.com', '--json', ...extra);
      expect(r.stderr).toBe('');
      return (JSON.parse(r.out) as Array<{ terminalId: string; online: boolean }>).find((t) => t.terminalId === 'LENTO')!.online;
    };
    expect(online({})).toBe(false);
    expect(online({}, '--heartbeat', '1h')).toBe(true);
    expect(online({}, '--offline-grace', '2h')).toBe(true);
    expect(online({ BOBINA_HEARTBEAT: '1h' })).toBe(true);
    // A bare number is seconds (read as milliseconds, the rule would be 37.2 s: offline).
    expect(online({ BOBINA_OFFLINE_GRACE: '7200' })).toBe(true);
    // A flag wins over the environment.
    expect(online({ BOBINA_HEARTBEAT: '1h' }, '--heartbeat', '15s')).toBe(false);
    const bad = runIn({ BOBINA_HEARTBEAT: 'often' }, 'terminals', 'status', '--user', 'ana@example.com');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid BOBINA_HEARTBEAT "often"/);
    expect(bad.stderr).not.toMatch(STACK);
  }, 30_000);

  it('sets when an account\'s jobs are stuck: users set --stuck-after', () => {
    expect(run('users', 'set', '--email', 'ana@example.com', '--stuck-after', '90').out).toMatch(/stuck after 90 s/);
    expect(rows('SELECT stuck_after_ms FROM users')).toEqual([{ stuck_after_ms: 90_000 }]);
    expect(run('users', 'set', '--email', 'ana@example.com', '--stuck-after', 'default').code).toBe(0);
    expect(rows('SELECT stuck_after_ms FROM users')).toEqual([{ stuck_after_ms: null }]);
    const bad = run('users', 'set', '--email', 'ana@example.com', '--stuck-after', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(STACK);
  }, 30_000);
});

describe('bobina agent', () => {
  it.each([
    [['--url', 'http://127.0.0.1:1', '--terminal', 'PDV', '--device', '-'], /--key/],
    [['--url', 'nope', '--key', 'k', '--terminal', 'PDV', '--device', '-'], /invalid --url/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--terminal', 'PDV', '--device', 'lpt1'], /unknown device address/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--terminal', 'PDV', '--device', '-', '--wait', '61'], /invalid --wait/],
    [['--url', 'http://127.0.0.1:1', '--key', 'k', '--terminal', 'PDV', '--device', '-', '--heartbeat', '0'], /invalid --heartbeat/],
  ])('refuses %j with a usage error', (args, message) => {
    const r = bobina(['agent', ...args], undefined);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK);
  }, 15_000);
});
