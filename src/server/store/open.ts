// Opens the storage backend chosen by environment.ts's storeChoice (flags, then DATABASE_URL, then
// BOBINA_DB), with the settings read there. Each backend is imported only when chosen, so
// SQLite-only users never load pg, nor the reverse.
import { postgresSettings, sqliteSync, storeChoice, type StoreChoice } from '../environment.js';
import type { Store } from './repositories.js';
import { redactUrl } from './postgres/url.js';

export interface OpenOptions {
  db?: string;
  databaseUrl?: string;
  /** PostgreSQL only: told when an idle pooled connection fails (the pool drops it and carries on). */
  onIdleError?: (err: Error) => void;
}

/** The choice as a log line may show it: never a password. */
export function describeStore(choice: StoreChoice): string {
  return choice.kind === 'sqlite' ? `SQLite ${choice.file}` : `PostgreSQL ${redactUrl(choice.url)}`;
}

export async function openStore(options: OpenOptions = {}, choice: StoreChoice = storeChoice(options)): Promise<Store> {
  if (choice.kind === 'postgres') {
    const { openPostgresStore } = await import('./postgres.js');
    return openPostgresStore(choice.url, { ...postgresSettings(), ...(options.onIdleError ? { onIdleError: options.onIdleError } : {}) });
  }
  const { openSqliteStore } = await import('./sqlite.js');
  return openSqliteStore(choice.file, { synchronous: sqliteSync() });
}
