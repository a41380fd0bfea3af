// The built CLI's PostgreSQL-only behaviour (the account commands and `serve` on PostgreSQL are
// covered by the whole service suite in the `postgres` project): `--db` with `--database-url` is a
// usage error, and `serve` names the store it uses without the URL's password.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { startServe, stop, type Served } from '../support/serve.js';
import { CHILD_ENV, freshDatabase, type TestDatabase } from '../support/store-target.js';

let database: TestDatabase;
let served: Served | undefined;
beforeAll(async () => {
  database = await freshDatabase('bobina-cli-pg-');
});
afterAll(async () => {
  if (served) await stop(served.proc, 'SIGKILL');
  await database?.drop();
}, 30_000);

const bobina = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...CHILD_ENV }, timeout: 30_000 });

describe('the CLI on PostgreSQL', () => {
  it('refuses --db together with --database-url as a usage error (exit 2)', () => {
    for (const command of [['users', 'list'], ['keys', 'list', '--email', 'ana@example.com'], ['webhooks', 'list', '--email', 'ana@example.com'], ['serve', '--port', '1']]) {
      const r = bobina([...command, '--db', join(database.dir, 'x.sqlite'), '--database-url', database.location]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--db and --database-url/);
    }
  }, 60_000);

  it('serves with --database-url, naming the store without its password', async () => {
    // Trust auth ignores the password; it must still never be shown.
    const withPassword = database.location.replace('postgres@', 'postgres:pw-not-shown@');
    served = await startServe({ flags: ['--database-url', withPassword, '--state-dir', join(database.dir, 'delivery')], timeoutMs: 30_000 });
    expect(served.stderr()).toMatch(/store PostgreSQL postgres:\/\/postgres:\*\*\*@[^\s]+\?schema=bobina_t_/);
    expect(served.stderr()).not.toContain('pw-not-shown');
    expect((await fetch(`${served.base}/openapi.json`)).status).toBe(200);
  }, 60_000);
});
