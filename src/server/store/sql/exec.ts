// How the repositories (this folder) run their statements on a backend: an Exec, implemented by
// sqlite/exec.ts and postgres/exec.ts. Plumbing, like the backends' connections: how a statement
// is written for a backend is the Dialect's (dialect.ts).
import type { Dialect, LockName } from './dialect.js';
import type { Sql } from './statement.js';

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
