// Runs the repositories' statements (sql/exec.ts) on a Db (postgres/db.ts): the pool, or one
// transaction's client. A batch is one statement of CTEs: one round trip, atomic without a transaction.
import type { Exec } from '../sql/exec.js';
import { join, raw, render, sql, type Sql } from '../sql/statement.js';
import type { Db } from './db.js';
import { POSTGRES } from './dialect.js';

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
