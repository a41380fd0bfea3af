// SQLite repositories are written synchronously (better-sqlite3 is); bind() gives one the async
// interface, every call going through a Runner: the gate outside a transaction, or the
// transaction's own runner inside one. Statements are prepared once per store, not per call.
import type { Runner } from './gate.js';

/** The synchronous twin of an async repository interface. */
export type Sync<R> = { [K in keyof R]: R[K] extends (...args: infer A) => Promise<infer T> ? (...args: A) => T : never };

export function bind<R extends object>(sync: Sync<R>, run: Runner): R {
  const bound: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(sync) as Array<[string, (...args: unknown[]) => unknown]>) {
    bound[name] = (...args: unknown[]) => run(() => fn(...args));
  }
  return bound as R;
}
