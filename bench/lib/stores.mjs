// The store a benchmark's `bobina serve` runs on: a fresh SQLite file in the bench's temp dir, or a
// fresh schema of a PostgreSQL database (BOBINA_BENCH_DATABASE_URL, default the test database
// postgres://postgres@127.0.0.1:5432/test), created by the store when first opened and dropped by
// dropStores() when the benchmark ends or fails. A run interrupted with Ctrl-C (processes.mjs exits
// at once) leaves its schemas behind, named bobina_bench_* so they can be found and dropped.
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
  // Its connections are told apart from other clients' in pg_stat_activity (waitSampler below).
  url.searchParams.set('application_name', schema);
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

/**
 * Samples what the store's PostgreSQL backends wait on, every 100 ms, while they are busy (in a
 * statement or in a transaction): `ClientRead` inside a transaction is PostgreSQL waiting for
 * bobina, WAL* is commits being flushed, Lock is contention, `CPU` is working. stop() → shares.
 */
export async function waitSampler(store) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  const counts = new Map();
  let total = 0;
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const { rows } = await client.query(`SELECT COALESCE(wait_event, 'CPU') AS w FROM pg_stat_activity
        WHERE application_name = $1 AND state IN ('active', 'idle in transaction')`, [store.schema]);
      for (const r of rows) counts.set(r.w, (counts.get(r.w) ?? 0) + 1);
      total += rows.length;
    } catch {
      // A sample in flight when stop() ends the connection: not an error of the run.
    } finally {
      busy = false;
    }
  }, 100);
  return async () => {
    clearInterval(timer);
    await client.end();
    return [...counts].sort((a, b) => b[1] - a[1]).map(([w, n]) => ({ wait: w, share: n / Math.max(1, total) }));
  };
}
