// The store a benchmark's `bobina serve` runs on: a fresh SQLite file in the bench's temp dir, or a
// fresh schema of a PostgreSQL database (BOBINA_BENCH_DATABASE_URL, default the test database
// postgres://postgres@127.0.0.1:5432/test), created by the store when first opened and dropped by
// dropStores() when the benchmark ends, fails or is interrupted (a leftover schema is named
// bobina_bench_* so it can be found).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export const PG_URL = process.env.BOBINA_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUN = randomBytes(4).toString('hex');
const schemas = new Set();
let count = 0;

/** A new, empty database: `{ kind, flags, label }`; `flags` select it on any bobina command. */
export function freshStore(kind, dir) {
  const n = ++count;
  if (kind === 'sqlite') return { kind, label: 'SQLite', flags: ['--db', join(dir, `store-${n}.sqlite`)] };
  if (kind !== 'postgres') throw new Error(`unknown store "${kind}": sqlite or postgres`);
  const schema = `bobina_bench_${RUN}_${n}`;
  schemas.add(schema);
  const url = new URL(PG_URL);
  url.searchParams.set('schema', schema);
  return { kind, label: 'PostgreSQL', flags: ['--database-url', url.toString()], schema };
}

/** Drops every schema freshStore() made in this process. */
export async function dropStores() {
  if (schemas.size === 0) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    schemas.clear();
  } finally {
    await client.end();
  }
}

/** PostgreSQL's version string, or why it cannot be reached (the bench then says so and stops). */
export async function postgresVersion() {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query('SHOW server_version')).rows[0].server_version;
  } finally {
    await client.end().catch(() => undefined);
  }
}
