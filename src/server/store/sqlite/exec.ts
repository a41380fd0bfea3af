// Runs the repositories' statements (sql/exec.ts) on better-sqlite3's one synchronous connection.
// Each statement runs through a Runner (the gate outside a transaction, the transaction's own
// inside one); statements are prepared once per text.
import type Database from 'better-sqlite3';
import type { Exec } from '../sql/exec.js';
import { render, type Sql } from '../sql/statement.js';
import { SQLITE } from './dialect.js';
import type { Runner } from './gate.js';

/** Opens a transaction around fn on the gate (BEGIN IMMEDIATE … COMMIT), fn's statements run by `run`. */
export type Transact = <T>(fn: (run: Runner) => Promise<T>) => Promise<T>;

export function sqliteExecutor(db: Database.Database, transact: Transact): (run: Runner, inTransaction: boolean) => Exec {
  // Statement texts depend on the number of values in a list or the fields of a patch: a few dozen in all.
  const cache = new Map<string, Database.Statement>();
  const prepared = (text: string) => {
    let st = cache.get(text);
    if (!st) cache.set(text, (st = db.prepare(text)));
    return st;
  };
  const changes = (statement: Sql) => {
    const { text, values } = render(statement, SQLITE);
    return prepared(text).run(...values).changes;
  };
  const exec = (run: Runner, inTransaction: boolean): Exec => {
    const x: Exec = {
      dialect: SQLITE,
      inTransaction,
      all<R>(statement: Sql) {
        const { text, values } = render(statement, SQLITE);
        return run(() => {
          const st = prepared(text);
          if (st.reader) return st.all(...values) as R[];
          st.run(...values);
          return [];
        });
      },
      run: (statement) => run(() => changes(statement)),
      write: (statement) => run(() => void changes(statement)),
      // One synchronous call: nothing else runs on the connection meanwhile; a savepoint inside a transaction.
      batch: (statements) => run(() => db.transaction(() => statements.map(changes)).immediate()),
      atomic: (fn) => (inTransaction ? fn(x) : transact((inner) => fn(exec(inner, true)))),
    };
    return x;
  };
  return exec;
}
