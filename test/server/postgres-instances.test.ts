// Two `bobina serve` processes on one PostgreSQL schema, as behind a load balancer: both start
// together on a schema that does not exist yet, jobs inserted through either are handed to the
// terminal's concurrent polls on both exactly once, and failed logins counted by one instance
// count on the other. Real processes on 127.0.0.1, killed by pid afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/net.js';
import { dropSchema, freshSchemaUrl, havePostgres } from '../support/postgres.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const env = { ...process.env, DATABASE_URL: '', BOBINA_DB: '', LOG_LEVEL: 'warn' };
const suite = havePostgres ? describe : describe.skip;

suite('two service instances on one PostgreSQL schema', () => {
  let url: string;
  let dir: string;
  const children: ChildProcess[] = [];
  const bases: string[] = [];
  let apiKey: string;
  let terminalKey: string;

  async function serve(name: string): Promise<string> {
    const port = await freePort();
    const proc = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--database-url', url, '--state-dir', join(dir, name)], {
      env, stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(proc);
    let err = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start in time: ${err}`)), 40_000);
      proc.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('listening on')) { clearTimeout(timer); resolve(); }
      });
      proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited with ${code}: ${err}`)); });
    });
    return `http://127.0.0.1:${port}`;
  }

  const cli = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args, '--database-url', url], { encoding: 'utf8', env, timeout: 30_000 });
    if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.status} ${r.stderr}`);
    return r.stdout;
  };

  beforeAll(async () => {
    url = freshSchemaUrl();
    dir = mkdtempSync(join(tmpdir(), 'bobina-pg-instances-'));
    // Both migrate the fresh schema at once.
    bases.push(...await Promise.all([serve('a'), serve('b')]));
    cli(['users', 'add', '--email', 'ana@example.com', '--name', 'Ana', '--password', 'ana-secret-pw']);
    terminalKey = cli(['terminals', 'add', '--email', 'ana@example.com', '--terminal', 'CAIXA-01', '--printer', '1', '--print-key']).trim().split('\n').at(-1)!;
    apiKey = cli(['keys', 'create', '--email', 'ana@example.com']).trim();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(children.map((proc) => new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      const kill = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      proc.on('exit', () => { clearTimeout(kill); resolve(); });
      proc.kill('SIGTERM');
    })));
    rmSync(dir, { recursive: true, force: true });
    if (url) await dropSchema(url);
  }, 60_000);

  it('hands each of 30 jobs, inserted through either instance, to exactly one of 6 polls spread over both', async () => {
    const inserted: number[] = [];
    for (let n = 0; n < 30; n++) {
      const res = await fetch(`${bases[n % 2]}/IntencaoImpressao/Insert`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ referencia: `r${n}`, terminalId: 'CAIXA-01', conteudo: `job ${n}<paperCutFull>` }),
      });
      expect(res.status).toBe(200);
      inserted.push(((await res.json()) as { intencaoImpressao: { id: number } }).intencaoImpressao.id);
    }
    const poll = async (base: string) => {
      const taken: number[] = [];
      for (;;) {
        const res = await fetch(`${base}/TerminalImpressao/ObterProxima?espera=0`, { method: 'POST', headers: { authorization: `Bearer ${terminalKey}` } });
        expect(res.status).toBe(200);
        const { trabalho } = (await res.json()) as { trabalho: { intencaoImpressaoId: number } | null };
        if (!trabalho) return taken;
        taken.push(trabalho.intencaoImpressaoId);
      }
    };
    const taken = (await Promise.all([0, 1, 2, 3, 4, 5].map((n) => poll(bases[n % 2]!)))).flat();
    expect(taken.sort((x, y) => x - y)).toEqual(inserted.sort((x, y) => x - y));
  }, 60_000);

  it('counts failed logins on one instance against the limit on the other', async () => {
    const attempt = (base: string, password: string) => fetch(`${base}/auth/reconciliation/token`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ana@example.com', password, grant_type: 'password' }),
    });
    // The per-account-and-address limit is 10 a window: five wrong passwords on each instance…
    for (let n = 0; n < 10; n++) expect((await attempt(bases[n % 2]!, 'wrong')).status).toBe(401);
    // …and the right one is refused on both, which each alone has seen only five failures.
    for (const base of bases) {
      const res = await attempt(base, 'ana-secret-pw');
      expect(res.status).toBe(429);
      expect(((await res.json()) as { code: string }).code).toBe('too-many-attempts');
    }
  }, 60_000);
});
