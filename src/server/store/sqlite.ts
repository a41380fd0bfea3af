// The embedded store: better-sqlite3 in WAL mode, one connection. Each repository call outside a
// transaction is one statement; transaction(fn) is BEGIN IMMEDIATE … COMMIT with other callers
// queued meanwhile (sqlite/gate.ts). The WAL checkpointer is the store's background worker; other
// processes' commits are noticed by their data_version (sqlite/signals.ts).
import Database from 'better-sqlite3';
import type { Store } from './repositories.js';
import { ping, repositories } from './sql/repositories.js';
import { DEFAULT_CHECKPOINTS, walCheckpointer, type CheckpointPolicy, type WalCheckpointer } from './sqlite/checkpointer.js';
import { sqliteExecutor } from './sqlite/exec.js';
import { Gate } from './sqlite/gate.js';
import { migrate } from './sqlite/migrate.js';
import { sqliteSignals } from './sqlite/signals.js';

export interface SqliteOptions {
  /** `NORMAL` (default) survives a process crash; `FULL` also survives power loss, at a cost per commit. */
  synchronous?: 'NORMAL' | 'FULL';
  /** When the store is served (workers() started), how the WAL is kept bounded. */
  checkpoints?: Partial<CheckpointPolicy>;
}

/**
 * Switches a database to WAL. SQLite answers SQLITE_BUSY to this pragma without consulting the
 * busy handler while another connection holds a lock on the file (a second process creating the
 * same fresh database, or one closing it and removing its WAL), so the wait is done here.
 */
function enterWal(db: Database.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY') !== true || Date.now() >= deadline) throw err;
      Atomics.wait(pause, 0, 0, 10 + Math.floor(Math.random() * 20));
    }
  }
}

export function openSqliteStore(file: string, options: SqliteOptions = {}): Store {
  const db = new Database(file);
  // Before anything that locks: a second process opening the same fresh file waits instead of failing.
  db.pragma('busy_timeout = 5000');
  enterWal(db, 5000);
  db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  const policy = { ...DEFAULT_CHECKPOINTS, ...options.checkpoints };
  // A WAL reset by a writer is cut back to this size (a TRUNCATE checkpoint cuts it to zero).
  db.pragma(`journal_size_limit = ${policy.truncateAboveBytes}`);
  migrate(db);

  const checkpointer: WalCheckpointer | undefined = file === ':memory:' ? undefined : walCheckpointer(file, db, () => gate.exclusive(), policy);
  const gate: Gate = new Gate(checkpointer ? () => checkpointer.watch() : undefined);
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const steps = {
    begin: () => begin.run(),
    commit: () => commit.run(),
    rollback: () => {
      if (db.inTransaction) rollback.run();
    },
  };
  const workers = checkpointer ? [checkpointer] : [];
  // Another process's commits (a file only: nothing else opens a database in memory).
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const signals = file === ':memory:' ? undefined : sqliteSignals(() => gate.run(() => (db.open ? (dataVersion.get() as number) : undefined)));
  const exec = sqliteExecutor(db, (fn) => gate.transaction(steps, fn));

  return {
    ...repositories(exec(gate.run, false)),
    ...(signals ? { signals } : {}),
    transaction: (fn) => gate.transaction(steps, (run) => fn(repositories(exec(run, true)))),
    ping: () => ping(exec(gate.run, false)),
    // One connection: busy while a statement or transaction holds the gate; the rest wait their turn there.
    connections: () => ({ max: 1, open: db.open ? 1 : 0, idle: db.open && !gate.busy ? 1 : 0, waiting: gate.queued }),
    workers: () => workers,
    async close() {
      // Waits for a transaction in progress; the app stops the workers before it closes the store.
      signals?.close();
      await gate.run(() => db.close());
    },
  };
}
