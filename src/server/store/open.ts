// Chooses the storage backend from the environment: SQLite file by default; DATABASE_URL is
// reserved for the PostgreSQL store, which is not implemented yet and fails loudly rather than
// silently falling back to a local file.
import { openSqliteStore } from './sqlite.js';
import type { Store } from './repositories.js';

export const DEFAULT_DB = './bobina.sqlite';

export interface OpenOptions {
  db?: string;
  databaseUrl?: string;
}

export async function openStore(options: OpenOptions = {}): Promise<Store> {
  const url = options.databaseUrl ?? process.env.DATABASE_URL;
  if (url) throw new Error('DATABASE_URL is set, but the PostgreSQL store is not implemented yet; unset it to use SQLite');
  const file = options.db ?? process.env.BOBINA_DB ?? DEFAULT_DB;
  const sync = process.env.BOBINA_SQLITE_SYNC?.toUpperCase() === 'FULL' ? 'FULL' : 'NORMAL';
  return openSqliteStore(file, { synchronous: sync });
}
