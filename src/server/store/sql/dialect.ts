// The seam between the repositories (written once, in this folder) and a backend: a Dialect says
// how a statement is written and read on it (an Exec, exec.ts, runs statements on it). Only what
// truly differs is here: placeholders, types as the driver binds and returns them, row locks, SKIP
// LOCKED, advisory locks, collation (how several writes become one is the Exec's: SQLite has no
// writing CTEs).
import type { Sql } from './statement.js';

/** The advisory locks of PostgreSQL; on SQLite every write transaction already holds the one write lock. */
export type LockName = 'endpoints' | 'webhook-claim' | 'idempotency' | 'sessions';

export interface Dialect {
  /** The statement's text with this dialect's placeholders (`?`, `$n`). */
  statementText(statement: Sql): string;
  /** A value (already encoded: times as milliseconds, JSON as text) as the driver binds it. */
  bind(value: unknown): unknown;
  /** A JSON column's value as read. */
  json<T>(value: unknown): T;
  /** A flag column's value as read. */
  flag(value: unknown): boolean;
  /** A partner's free-text column (utf8() when written) as read. */
  text(value: unknown): string | null;
  /** `SELECT … FOR UPDATE`: the row stays locked until the transaction ends (SQLite: nothing to add). */
  readonly forUpdate: Sql;
  /** …and rows another transaction holds are passed over, not waited for. */
  readonly skipLocked: Sql;
  /**
   * After a table's name: find its rows by primary key only. SQLite, which keeps no statistics,
   * would walk a whole `state` index for `state = 'pending' AND seq IN (…)`; PostgreSQL plans by its own.
   */
  readonly byKey: Sql;
  /** The column that orders rows made in the same millisecond as they were inserted. */
  readonly insertOrder: Sql;
  /** Orders text byte-wise, whatever the database's collation. */
  readonly bytewise: Sql;
  /** The expression the unique e-mail index is on (e-mails are stored lower-cased). */
  readonly emailKey: Sql;
  /** The column type of JSON columns (json() values): to CAST a parameter to what the column holds. */
  readonly jsonType: Sql;
  /** The column type of a partner's free text (utf8() values): to CAST a parameter to what the column holds. */
  readonly freeText: Sql;
  /**
   * What an index keeps of a partner's free text of any length (utf8() values), equal for equal
   * texts: the text itself on SQLite (a key of any length), its SHA-256 on PostgreSQL (a B-tree
   * entry holds at most ~2.7 kB). A lookup compares the texts too.
   */
  textKey(text: Sql): Sql;
  /** The texts of a JSON array column, as a table `alias` with one column `value`. */
  jsonTexts(column: Sql, alias: string): Sql;
  /** The statement that takes an advisory lock until the transaction ends, or undefined when the dialect needs none. */
  lock(name: LockName, ...keys: unknown[]): Sql | undefined;
}
