// PostgreSQL for the tests of vitest.config.ts's `postgres` project: the local server
// (127.0.0.1:5432, user postgres, trust auth, database `test`), one fresh schema per test run or
// suite, dropped afterwards, so parallel runs never meet. The config leaves the project out, with
// one line, when nothing answers on the server's port (unless BOBINA_CI=1); once it runs, a server
// that does not let the tests in (or is gone) fails them, saying why.
// BOBINA_TEST_PG_URL points the tests at another server (a URL without a query string).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_BASE_URL = process.env.BOBINA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the server answers (a connect and `SELECT 1` within a few seconds); the reason when not. */
export async function pgAvailable(url = PG_BASE_URL): Promise<{ ok: true } | { ok: false; why: string }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { ok: true };
  } catch (err) {
    return { ok: false, why: `no PostgreSQL at ${url} (${(err as Error).message || (err as { code?: string }).code})` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

const availability = await pgAvailable();
if (!availability.ok) throw new Error(`PostgreSQL tests cannot run: ${availability.why}`);

/** The test database's URL with a schema no other run uses (created by the store when it opens). */
export function freshSchemaUrl(): string {
  return `${PG_BASE_URL}?schema=bobina_t_${randomBytes(6).toString('hex')}`;
}

/** Drops the URL's schema and everything in it. */
export async function dropSchema(url: string): Promise<void> {
  const schema = new URL(url).searchParams.get('schema');
  if (!schema || !/^bobina_t_[0-9a-f]+$/.test(schema)) throw new Error(`dropSchema: ${schema} is not a test schema`);
  const client = new pg.Client({ connectionString: PG_BASE_URL, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
