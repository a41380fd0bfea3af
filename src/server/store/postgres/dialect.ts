// PostgreSQL's side of the seam (sql/dialect.ts): `$n` placeholders, native booleans and JSON,
// the partner's free text as UTF-8 BYTEA (text cannot hold U+0000: postgres-migrations.ts), row
// locks, SKIP LOCKED, advisory locks.
import type { Dialect, LockName } from '../sql/dialect.js';
import { raw, sql, Utf8, type Sql } from '../sql/statement.js';

/**
 * The advisory locks' keys, kept as earlier versions took them (instances of two versions on one
 * database during an upgrade must take the same locks): 'bobe' per account, 'bobw' per schema, and
 * one 64-bit key per account and Idempotency-Key; 'bobs' per account (its sessions).
 */
const LOCKS: Record<LockName, (...keys: unknown[]) => Sql> = {
  endpoints: (accountId) => sql`SELECT pg_advisory_xact_lock(1651466853, hashtext(${accountId}))`,
  'webhook-claim': () => sql`SELECT pg_advisory_xact_lock(1651466871, hashtext(current_schema()))`,
  sessions: (accountId) => sql`SELECT pg_advisory_xact_lock(1651466867, hashtext(${accountId}))`,
  idempotency: (accountId, key) => sql`SELECT pg_advisory_xact_lock(hashtextextended('bobina-idempotency' || chr(10) || ${accountId} || chr(10) || ${key}, 0))`,
};

export const POSTGRES: Dialect = {
  statementText: (s) => s.text,
  bind: (v) => (v instanceof Utf8 ? (v.value === null ? null : Buffer.from(v.value, 'utf8')) : v),
  json: (v) => v as never,
  flag: (v) => v === true,
  text: (v) => (v === null ? null : (v as Buffer).toString('utf8')),
  forUpdate: raw(' FOR UPDATE'),
  skipLocked: raw(' FOR UPDATE SKIP LOCKED'),
  byKey: raw(''),
  insertOrder: raw('seq'),
  bytewise: raw(' COLLATE "C"'),
  emailKey: raw('lower(email)'),
  jsonType: raw('JSONB'),
  freeText: raw('BYTEA'),
  textKey: (text) => sql`sha256(${text})`,
  jsonTexts: (column, alias) => sql`jsonb_array_elements_text(${column}) AS ${raw(alias)}(value)`,
  lock: (name, ...keys) => LOCKS[name](...keys),
};
