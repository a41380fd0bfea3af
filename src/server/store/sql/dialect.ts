// The seam between the repositories (written once, in this folder) and a backend: a Dialect says
// how a statement is written and read on it, an Exec runs statements on it. Only what truly
// differs is here: placeholders, types as the driver binds and returns them, row locks, SKIP
// LOCKED, advisory locks, collation, and how several writes become one (SQLite has no writing CTEs).
import type { Sql } from './statement.js';

/** The advisory locks of PostgreSQL; on SQLite every write transaction already holds the one write lock. */
export type LockName = 'endpoints' | 'webhook-claim' | 'idempotency';

export interface Dialect {
  /** The n-th (1-based) parameter's placeholder. */
  placeholder(n: number): string;
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
  /** The column that orders rows made in the same millisecond as they were inserted. */
  readonly insertOrder: Sql;
  /** Orders text byte-wise, whatever the database's collation. */
  readonly bytewise: Sql;
  /** The expression the unique e-mail index is on (e-mails are stored lower-cased). */
  readonly emailKey: Sql;
  /** The column type of a partner's free text (utf8() values): to CAST a parameter to what the column holds. */
  readonly freeText: Sql;
  /** The texts of a JSON array column, as a table `alias` with one column `value`. */
  jsonTexts(column: Sql, alias: string): Sql;
  /** The statement that takes an advisory lock until the transaction ends, or undefined when the dialect needs none. */
  lock(name: LockName, ...keys: unknown[]): Sql | undefined;
}

/** Runs statements on one backend: outside a transaction each its own, inside one on the transaction. */
export interface Exec {
  readonly dialect: Dialect;
  /** Inside transaction(fn) or atomic(fn). */
  readonly inTransaction: boolean;
  all<R>(statement: Sql): Promise<R[]>;
  /** Runs a statement that returns no rows: how many rows it changed. */
  run(statement: Sql): Promise<number>;
  /**
   * Runs a statement whose answer nobody waits for: inside a PostgreSQL transaction it is sent
   * with what follows it (pipelined), and if it fails the next statement or the commit does.
   */
  write(statement: Sql): Promise<void>;
  /**
   * Writes that do not depend on each other's effects, applied together or not at all (on
   * PostgreSQL as one statement of CTEs, which all see the same snapshot): the rows each changed.
   */
  batch(statements: readonly Sql[]): Promise<number[]>;
  /** Runs fn's statements as one transaction (or inside the one this Exec belongs to). */
  atomic<T>(fn: (x: Exec) => Promise<T>): Promise<T>;
}

/** The first row, if any. */
export async function one<R>(x: Exec, statement: Sql): Promise<R | undefined> {
  return (await x.all<R>(statement))[0];
}

/** Takes the dialect's advisory lock, if it has one. */
export async function lock(x: Exec, name: LockName, ...keys: unknown[]): Promise<void> {
  const statement = x.dialect.lock(name, ...keys);
  if (statement) await x.write(statement);
}
