// Applies the numbered migrations under one write lock (BEGIN IMMEDIATE): a second process
// starting on the same fresh database waits, then finds them applied and does nothing.
import type Database from 'better-sqlite3';
import { SQLITE_MIGRATIONS, type Migration } from '../sqlite-migrations.js';

export function migrate(db: Database.Database, migrations: readonly Migration[] = SQLITE_MIGRATIONS): void {
  const applied = () => {
    const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    return new Set(exists ? (db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]) : []);
  };
  // Read without a lock first: an up-to-date database (every start but the first) takes no write lock.
  if (migrations.every((m) => applied().has(m.version))) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    // Read again under the lock: another process may have applied some while this one waited.
    const done = applied();
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    }
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
