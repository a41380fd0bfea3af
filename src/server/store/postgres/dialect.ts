// PostgreSQL's side of the seam (sql/dialect.ts): `$n` placeholders, native booleans and JSON,
// the partner's free text as UTF-8 BYTEA (text cannot hold U+0000: postgres-migrations.ts), row
// locks, SKIP LOCKED, advisory locks, and an Exec over a Db (postgres/db.ts) whose batch is one
// statement of CTEs: one round trip, atomic without a transaction.
import type { Dialect, Exec, LockName } from '../sql/dialect.js';
import { join, raw, render, sql, Utf8, type Sql } from '../sql/statement.js';
import type { Db } from './db.js';

/**
 * The advisory locks' keys, kept as earlier versions took them (instances of two versions on one
 * database during an upgrade must take the same locks): 'bobe' per account, 'bobw' per schema, and
 * one 64-bit key per account and Idempotency-Key.
 */
const LOCKS: Record<LockName, (...keys: unknown[]) => Sql> = {
  endpoints: (accountId) => sql`SELECT pg_advisory_xact_lock(1651466853, hashtext(${accountId}))`,
  'webhook-claim': () => sql`SELECT pg_advisory_xact_lock(1651466871, hashtext(current_schema()))`,
  idempotency: (accountId, key) => sql`SELECT pg_advisory_xact_lock(hashtextextended('bobina-idempotency' || chr(10) || ${accountId} || chr(10) || ${key}, 0))`,
};

export const POSTGRES: Dialect = {
  placeholder: (n) => `$${n}`,
  bind: (v) => (v instanceof Utf8 ? (v.value === null ? null : Buffer.from(v.value, 'utf8')) : v),
  json: (v) => v as never,
  flag: (v) => v === true,
  text: (v) => (v === null ? null : (v as Buffer).toString('utf8')),
  forUpdate: raw(' FOR UPDATE'),
  skipLocked: raw(' FOR UPDATE SKIP LOCKED'),
  insertOrder: raw('seq'),
  bytewise: raw(' COLLATE "C"'),
  emailKey: raw('lower(email)'),
  freeText: raw('BYTEA'),
  jsonTexts: (column, alias) => sql`jsonb_array_elements_text(${column}) AS ${raw(alias)}(value)`,
  lock: (name, ...keys) => LOCKS[name](...keys),
};

/** `WITH w0 AS (… RETURNING 1), w1 AS (…) SELECT count of each`: independent writes as one statement. */
function batched(statements: readonly Sql[]): Sql {
  const name = (i: number) => raw(`w${i}`);
  const ctes = statements.map((s, i) => sql`${name(i)} AS (${s} RETURNING 1)`);
  const counts = statements.map((_, i) => sql`(SELECT count(*) FROM ${name(i)}) AS ${name(i)}`);
  return sql`WITH ${join(ctes)} SELECT ${join(counts)}`;
}

export function postgresExec(db: Db): Exec {
  const query = <R>(statement: Sql) => {
    const { text, values } = render(statement, POSTGRES);
    return db.query<R>(text, values);
  };
  return {
    dialect: POSTGRES,
    inTransaction: db.inTransaction,
    all: async <R>(statement: Sql) => (await query<R>(statement)).rows,
    run: async (statement) => (await query(statement)).rowCount,
    write(statement) {
      const { text, values } = render(statement, POSTGRES);
      return db.write(text, values);
    },
    async batch(statements) {
      const { rows } = await query<Record<string, number>>(batched(statements));
      return statements.map((_, i) => Number(rows[0]![`w${i}`]));
    },
    atomic: (fn) => db.atomic((inner) => fn(postgresExec(inner))),
  };
}
