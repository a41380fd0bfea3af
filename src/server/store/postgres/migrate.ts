// Applies the numbered migrations in one transaction under an advisory lock keyed by the schema:
// a second instance starting on the same fresh schema waits, then finds them applied and does
// nothing; instances on other schemas (parallel test runs) do not wait for each other.
import { POSTGRES_MIGRATIONS } from '../postgres-migrations.js';
import type { Migration } from '../sqlite-migrations.js';
import type { Db } from './db.js';
import { quoteIdent } from './url.js';

/** The advisory lock's first key ('bobm'); the second is hashtext(schema). */
const MIGRATION_LOCK = 0x626f626d;

async function applied(db: Db): Promise<Set<number>> {
  const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(rows.map((r) => r.version));
}

export async function migrate(db: Db, schema: string | undefined, migrations: readonly Migration[] = POSTGRES_MIGRATIONS): Promise<void> {
  // Read without the lock first: an up-to-date schema (every start but the first) takes no lock.
  const exists = await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
  if (exists.rows[0]?.t) {
    const done = await applied(db);
    if (migrations.every((m) => done.has(m.version))) return;
  }
  await db.atomic(async (tx) => {
    // A migration (or the wait for another instance's) may take longer than a request's statement.
    await tx.query('SET LOCAL statement_timeout = 0');
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK, schema ?? '']);
    if (schema !== undefined) {
      // Created only when missing: CREATE SCHEMA checks the CREATE privilege even when it exists.
      const found = await tx.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      if (found.rowCount === 0) await tx.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await tx.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
    }
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
    // Read again under the lock: another instance may have applied some while this one waited.
    const done = await applied(tx);
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.query(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
    }
  });
}

