// The built CLI on PostgreSQL: accounts and keys managed with `--database-url`, `bobina serve
// --database-url` logging in and answering over HTTP with the store it uses named (never its
// password), and `--db` with `--database-url` refused as a usage error.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/net.js';
import { dropSchema, freshSchemaUrl, havePostgres } from '../support/postgres.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const suite = havePostgres ? describe : describe.skip;

suite('the CLI on PostgreSQL', () => {
  let url: string;
  let dir: string;
  let child: ChildProcess | undefined;

  beforeAll(() => {
    url = freshSchemaUrl();
    dir = mkdtempSync(join(tmpdir(), 'bobina-cli-pg-'));
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(url);
  }, 30_000);

  // Neither a DATABASE_URL nor a BOBINA_DB of the caller's may decide which store the test uses.
  const env = { ...process.env, DATABASE_URL: '', BOBINA_DB: '' };
  const bobina = (args: string[], input?: string) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, input, timeout: 30_000 });

  it('adds a user, refuses a duplicate e-mail, lists users and creates a key with --database-url', () => {
    const add = bobina(['users', 'add', '--email', 'Ana@Example.com', '--name', 'Ana', '--password-stdin', '--database-url', url], 'ana-pw\n');
    expect(add.stderr).toBe('');
    expect(add.status).toBe(0);
    const again = bobina(['users', 'add', '--email', 'ana@example.com', '--name', 'Ana', '--password', 'x', '--database-url', url]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    const list = bobina(['users', 'list', '--json', '--database-url', url]);
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ email: 'ana@example.com', name: 'Ana' })]);
    const key = bobina(['keys', 'create', '--email', 'ana@example.com', '--name', 'pos', '--database-url', url]);
    expect(key.status).toBe(0);
    expect(key.stdout).toMatch(/^bob_\S+\n$/);
    expect(bobina(['terminals', 'add', '--email', 'ana@example.com', '--terminal', 'CAIXA-01', '--printer', '1', '--database-url', url]).status).toBe(0);
  }, 60_000);

  it('refuses --db together with --database-url as a usage error (exit 2)', () => {
    for (const command of [['users', 'list'], ['keys', 'list', '--email', 'ana@example.com'], ['webhooks', 'list', '--email', 'ana@example.com']]) {
      const r = bobina([...command, '--db', join(dir, 'x.sqlite'), '--database-url', url]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--db and --database-url/);
    }
    const serve = bobina(['serve', '--port', '1', '--db', join(dir, 'x.sqlite'), '--database-url', url]);
    expect(serve.status).toBe(2);
  }, 60_000);

  it('serves from PostgreSQL with --database-url, naming the store without its password', async () => {
    const port = await freePort();
    const withPassword = url.replace('postgres@', 'postgres:pw-not-shown@');
    child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--database-url', withPassword, '--state-dir', join(dir, 'delivery')], {
      env: { ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    const proc = child;
    let err = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start in time: ${err}`)), 30_000);
      proc.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('listening on')) { clearTimeout(timer); resolve(); }
      });
      proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited with ${code}: ${err}`)); });
    });
    try {
      expect(err).toMatch(/store PostgreSQL postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:5432\/test\?schema=bobina_t_/);
      expect(err).not.toContain('pw-not-shown');
      const base = `http://127.0.0.1:${port}`;
      const login = await fetch(`${base}/auth/reconciliation/token`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ana@example.com', password: 'ana-pw', grant_type: 'password' }),
      });
      expect(login.status).toBe(200);
      const { access_token } = await login.json() as { access_token: string };
      const insert = await fetch(`${base}/IntencaoImpressao/Insert`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
        body: JSON.stringify({ referencia: 'pg-e2e', terminalId: 'CAIXA-01', conteudo: 'Olá <paperCutFull>' }),
      });
      expect(insert.status).toBe(200);
      const created = ((await insert.json()) as { intencaoImpressao: { id: number } }).intencaoImpressao;
      expect(created.id).toEqual(expect.any(Number));
      const read = await fetch(`${base}/IntencaoImpressao/GetById?intencaoImpressaoId=${created.id}`, { headers: { authorization: `Bearer ${access_token}` } });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { intencaoImpressao: { referencia: string } }).intencaoImpressao.referencia).toBe('pg-e2e');
    } finally {
      await new Promise((resolve) => {
        proc.on('exit', resolve);
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 15_000).unref();
      });
    }
  }, 60_000);
});
