// The operator's account commands (issue 10 item 10): passwords from stdin instead of the command
// line, listing users and keys (never a key itself), changing a password, revoking a key.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { bobina, CLI_TEST_TIMEOUT, STACK } from '../support/cli.js';
import { rawStatement } from '../support/raw-statement.js';
import { freshDatabase, type TestDatabase } from '../support/store-target.js';

vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT });

let database: TestDatabase;
beforeAll(async () => {
  database = await freshDatabase('bobina-accounts-');
});
afterAll(async () => {
  await database?.drop();
});

const run = (args: string[], input?: string) => {
  const r = bobina([...args, ...database.flags], input);
  return { ...r, out: r.stdout.toString('utf8') };
};

/** Logs in against the same database, in-process, as the service would. */
async function loginStatus(email: string, password: string): Promise<number> {
  const store = await database.open();
  const app = await buildApp({ store, logLevel: 'silent' });
  try {
    const res = await app.inject({ method: 'POST', url: '/auth/reconciliation/token', payload: { email, password, grant_type: 'password' } });
    return res.statusCode;
  } finally {
    await app.close();
    await store.close();
  }
}

async function keyStatus(key: string): Promise<number> {
  const store = await database.open();
  const app = await buildApp({ store, logLevel: 'silent' });
  try {
    return (await app.inject({ url: '/ImpressoraTemplate/GetTemplates', headers: { authorization: `Bearer ${key}` } })).statusCode;
  } finally {
    await app.close();
    await store.close();
  }
}

describe('bobina users', () => {
  it('takes the password from stdin with --password-stdin (one trailing newline dropped)', async () => {
    const add = run(['users', 'add', '--email', 'ana@example.com', '--name', 'Ana', '--password-stdin'], 'pw from stdin\n');
    expect(add.code).toBe(0);
    expect(await loginStatus('ana@example.com', 'pw from stdin')).toBe(200);
  });

  it('still takes --password on the command line', async () => {
    expect(run(['users', 'add', '--email', 'bia@example.com', '--name', 'Bia', '--password', 'bia-pw']).code).toBe(0);
    expect(await loginStatus('bia@example.com', 'bia-pw')).toBe(200);
  });

  it('refuses a password both on the command line and from stdin, an empty one, and none without a terminal', () => {
    for (const [args, input] of [
      [['--password', 'x', '--password-stdin'], 'y\n'],
      [['--password-stdin'], '\n'],
      [[], undefined],
    ] as const) {
      const r = run(['users', 'add', '--email', 'c@example.com', '--name', 'C', ...args], input);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/password/);
      expect(r.stderr).not.toMatch(STACK);
    }
  });

  /** `users add` with this e-mail exits 2 with `why` in one clear line, no stack. */
  const refusesEmail = (email: string, why: RegExp) => {
    const refused = run(['users', 'add', '--email', email, '--name', 'A', '--password', 'pw-a-1']);
    expect(refused.code, JSON.stringify(email)).toBe(2);
    expect(refused.stderr.toString()).toMatch(why);
    expect(refused.stderr.toString()).not.toMatch(STACK);
  };
  it('refuses an e-mail with a space or a control character, or of no e-mail shape, with a usage error, and stores nothing', async () => {
    // The probe: ' a@x.com' and 'a@x.com ' were accounts of their own beside a@x.com.
    expect(run(['users', 'add', '--email', 'a@x.com', '--name', 'A', '--password', 'pw-a-1']).code).toBe(0);
    for (const [email, why] of [
      [' a@x.com', /--email " a@x\.com" has a space or a line break at its start or end/],
      ['a@x.com ', /at its start or end/],
      ['a@x.com\n', /at its start or end/],
      ['\u00a0a@x.com', /at its start or end/],
      ['a\u0007@x.com', /--email "a\\u0007@x\.com" has a control character \(U\+0007\) at offset 1/],
      ['a\u0085@x.com', /control character \(U\+0085\)/],
      ['a b@x.com', /is not an e-mail address/],
      ['ax.com', /is not an e-mail address/],
      ['@x.com', /is not an e-mail address/],
      ['a@', /is not an e-mail address/],
      ['a@b@x.com', /is not an e-mail address/],
    ] as const) {
      refusesEmail(email, why);
    }
    // Whatever creates an account goes through the same rule: the store refuses it too.
    const store = await database.open();
    try {
      await expect(store.accounts.create({ email: 'a@x.com ', name: 'A', passwordHash: 'unused', metadata: [], roles: [] })).rejects.toThrow(/at its start or end/);
      expect((await store.accounts.list()).map((a) => a.email).filter((e) => e.includes('x.com'))).toEqual(['a@x.com']);
    } finally {
      await store.close();
    }
    expect(run(['users', 'add', '--email', 'A@X.com', '--name', 'A', '--password', 'pw-a-1']).code).toBe(1);
  });

  it('lists the accounts without their password hashes', () => {
    const list = run(['users', 'list']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/ana@example\.com/);
    expect(list.out).toMatch(/bia@example\.com/);
    expect(list.out).not.toMatch(/scrypt/);
    const json = JSON.parse(run(['users', 'list', '--json']).out) as Array<Record<string, unknown>>;
    expect(json.map((u) => u.email)).toEqual(['ana@example.com', 'bia@example.com', 'a@x.com']);
    expect(json[0]).toEqual({ id: expect.any(String), email: 'ana@example.com', name: 'Ana', roles: [], tags: 'all', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('changes a password: the new one works, the old one no longer does', async () => {
    const r = run(['users', 'passwd', '--email', 'BIA@example.com', '--password-stdin'], 'bia-new-pw\n');
    expect(r.code).toBe(0);
    expect(await loginStatus('bia@example.com', 'bia-new-pw')).toBe(200);
    expect(await loginStatus('bia@example.com', 'bia-pw')).toBe(401);
    expect(run(['users', 'passwd', '--email', 'nobody@example.com', '--password', 'x']).code).toBe(1);
  });

  it('refuses an e-mail with an invisible format character anywhere, naming it and its offset, and still logs in an account stored with one before', async () => {
    // The probe: each of these was an account of its own beside a@x.com, and `users list` showed it as a@x.com.
    for (const [email, why] of [
      ['a@x.com\u200b', /--email "a@x\.com\\u200b" has an invisible or text-reordering format character \(U\+200B\) at offset 7/],
      ['a\u00ad@x.com', /--email "a\\u00ad@x\.com" has an invisible or text-reordering format character \(U\+00AD\) at offset 1/],
      ['a@x.com\u2060', /format character \(U\+2060\) at offset 7/],
      ['a@x.com\u202e', /format character \(U\+202E\) at offset 7/],
      ['a@x.com\u180e', /format character \(U\+180E\) at offset 7/],
      ['a@x\ufeff.com', /format character \(U\+FEFF\) at offset 3/],
      ['a@x.com\u{e0041}', /format character \(U\+E0041\) at offset 7/],
    ] as const) {
      refusesEmail(email, why);
    }
    const store = await database.open();
    try {
      await expect(store.accounts.create({ email: 'zw@x.com\u200b', name: 'Z', passwordHash: 'unused', metadata: [], roles: [] })).rejects.toThrow(/format character \(U\+200B\) at offset 8/);
      expect((await store.accounts.list()).map((a) => a.email).filter((e) => /[\p{Cf}\u180e]/u.test(e))).toEqual([]);
    } finally {
      await store.close();
    }
    // An account an earlier version created with one keeps logging in, and lists with it escaped
    // (after the listing test above, which expects this file's other accounts only).
    expect(run(['users', 'add', '--email', 'old@x.com', '--name', 'Old', '--password', 'old-pw']).code).toBe(0);
    await rawStatement(database, 'UPDATE users SET email = ? WHERE email = ?', ['old@x.com\u200b', 'old@x.com']);
    expect(await loginStatus('old@x.com\u200b', 'old-pw')).toBe(200);
    expect(await loginStatus('old@x.com', 'old-pw')).toBe(401);
    expect(run(['users', 'list']).out).toContain('old@x.com\\u200b ');
    expect(run(['users', 'list', '--json']).out).toContain('"email": "old@x.com\\u200b"');
  });
});

describe('bobina keys', () => {
  it('lists keys by id, name, creation time and prefix, never the key, and revokes one by id', async () => {
    const created = run(['keys', 'create', '--email', 'ana@example.com', '--name', 'pos']);
    expect(created.code).toBe(0);
    const key = created.out.trim();
    expect(key).toMatch(/^bob_/);
    run(['keys', 'create', '--email', 'ana@example.com', '--name', 'backoffice']);

    const list = run(['keys', 'list', '--email', 'ana@example.com']);
    expect(list.code).toBe(0);
    expect(list.out).not.toContain(key);
    expect(list.out).not.toContain(key.slice(0, 16));
    const keys = JSON.parse(run(['keys', 'list', '--email', 'ana@example.com', '--json']).out) as Array<{ id: string; name: string; prefix: string; created: string }>;
    expect(keys.map((k) => k.name)).toEqual(['pos', 'backoffice']);
    const pos = keys[0]!;
    expect(key.startsWith(pos.prefix)).toBe(true);
    expect(pos.prefix.length).toBeLessThan(16);
    expect(list.out).toContain(pos.id);

    expect(await keyStatus(key)).toBe(200);
    expect(run(['keys', 'revoke', '--email', 'bia@example.com', '--id', pos.id]).code).toBe(1);
    expect(await keyStatus(key)).toBe(200);
    expect(run(['keys', 'revoke', '--email', 'ana@example.com', '--id', pos.id]).code).toBe(0);
    expect(await keyStatus(key)).toBe(401);
    expect(JSON.parse(run(['keys', 'list', '--email', 'ana@example.com', '--json']).out)).toHaveLength(1);
  });
});

describe('bobina terminals list', () => {
  it("lists an account's terminals with printer, state, template jobs and device, never a key", () => {
    expect(run(['terminals', 'add', '--email', 'ana@example.com', '--terminal', 'PDV-1', '--printer', 'MAKER5T20', '--print-key']).code).toBe(0);
    expect(run(['terminals', 'add', '--email', 'ana@example.com', '--terminal', 'PDV-2', '--device', 'tcp://127.0.0.1:9100', '--template-jobs', '--disabled']).code).toBe(0);
    const json = run(['terminals', 'list', '--email', 'ana@example.com', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual([
      { terminal: 'PDV-1', printer: 'MAKER5T20', enabled: true, device: null, templateJobs: false },
      { terminal: 'PDV-2', printer: null, enabled: false, device: 'tcp://127.0.0.1:9100', templateJobs: true },
    ]);
    const text = run(['terminals', 'list', '--email', 'ana@example.com']);
    expect(text.out.split('\n')[0]).toMatch(/^TERMINAL\s+PRINTER\s+ENABLED\s+TEMPLATE JOBS\s+DEVICE$/);
    expect(text.out).toMatch(/^PDV-2\s+\(none\)\s+no\s+yes\s+tcp:\/\/127\.0\.0\.1:9100$/m);
    expect(text.out).not.toMatch(/bobt_/);
    const nobody = run(['terminals', 'list', '--email', 'nobody@example.com']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).not.toMatch(STACK);
    expect(run(['terminals', 'list']).code).toBe(2);
  });
});

/** Inserts `conteudo` for the MAKER5T20 as `email`, in-process on the same database, and reads back the stored job. */
async function insertAs(email: string, password: string, conteudo: string) {
  const store = await database.open();
  const app = await buildApp({ store, logLevel: 'silent', storeWorkers: false });
  try {
    const token = (await app.inject({ method: 'POST', url: '/auth/reconciliation/token', payload: { email, password, grant_type: 'password' } })).json().access_token;
    const res = await app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${token}`, payload: { conteudo, codigoImpressora: 'MAKER5T20' } });
    expect(res.statusCode).toBe(200);
    const view = res.json().intencaoImpressao;
    const account = await store.accounts.findByEmail(email);
    const job = await store.intentions.get(account!.id, view.id);
    return { bytes: job!.bytes, codes: (view.diagnostics as { code: string }[]).map((d) => d.code) };
  } finally {
    await app.close();
    await store.close();
  }
}

const opensDrawer = (bytes: Uint8Array) => bytes.some((b, i) => b === 0x1b && bytes[i + 1] === 0x70);

describe('bobina users --tags', () => {
  const conteudo = '<textAlignLeft>Pão <cashDrawerOpen>\n';

  it("adds an account whose Inserts use only the partner's eight tags, and shows it in the list", async () => {
    expect(run(['users', 'add', '--email', 'tags@example.com', '--name', 'Tags', '--password', 'tags-pw', '--tags', 'partner']).code).toBe(0);
    const listed = JSON.parse(run(['users', 'list', '--json']).out) as { email: string; tags: string }[];
    expect(listed.find((u) => u.email === 'tags@example.com')!.tags).toBe('partner');
    const job = await insertAs('tags@example.com', 'tags-pw', conteudo);
    expect(opensDrawer(job.bytes)).toBe(false);
    expect(Buffer.from(job.bytes).toString('latin1')).toContain('<cashDrawerOpen>');
    expect(job.codes).toEqual(['parse/tag-disabled']);
  });

  it("defaults to all tags, and users set --tags changes an account's next Inserts", async () => {
    expect(run(['users', 'add', '--email', 'all@example.com', '--name', 'All', '--password', 'all-pw']).code).toBe(0);
    expect(JSON.parse(run(['users', 'list', '--json']).out).find((u: { email: string }) => u.email === 'all@example.com').tags).toBe('all');
    expect(opensDrawer((await insertAs('all@example.com', 'all-pw', conteudo)).bytes)).toBe(true);
    const set = run(['users', 'set', '--email', 'all@example.com', '--tags', 'partner']);
    expect(set.code).toBe(0);
    expect(set.out).toBe('tags for all@example.com: partner\n');
    expect(opensDrawer((await insertAs('all@example.com', 'all-pw', conteudo)).bytes)).toBe(false);
    expect(run(['users', 'set', '--email', 'all@example.com', '--tags', 'all']).code).toBe(0);
    expect(opensDrawer((await insertAs('all@example.com', 'all-pw', conteudo)).bytes)).toBe(true);
  });

  it('refuses a tag set other than all or partner, set without --tags, and an unknown account', () => {
    const bad = run(['users', 'add', '--email', 'bad@example.com', '--name', 'Bad', '--password', 'x', '--tags', 'some']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.toString()).toContain('--tags must be all or partner');
    expect(run(['users', 'set', '--email', 'all@example.com']).code).toBe(2);
    const nobody = run(['users', 'set', '--email', 'nobody@example.com', '--tags', 'partner']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr.toString()).not.toMatch(STACK);
  });
});
