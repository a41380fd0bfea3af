// Chooses and opens the storage backend: an explicit `db` (SQLite file) or `databaseUrl`
// (PostgreSQL) first, then DATABASE_URL (PostgreSQL), then BOBINA_DB or ./bobina.sqlite (SQLite).
// Each backend is imported only when chosen, so SQLite-only users never load pg, nor the reverse.
import type { Store } from './repositories.js';
import { redactUrl } from './postgres/url.js';

export const DEFAULT_DB = './bobina.sqlite';

export interface OpenOptions {
  db?: string;
  databaseUrl?: string;
  /** PostgreSQL only: told when an idle pooled connection fails (the pool drops it and carries on). */
  onIdleError?: (err: Error) => void;
}

export type StoreChoice = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** Which store the options and the environment name; both a file and a URL is a mistake, refused. */
export function chooseStore(options: OpenOptions = {}, env: NodeJS.ProcessEnv = process.env): StoreChoice {
  if (options.db && options.databaseUrl) throw new Error('give either a SQLite file (--db) or a PostgreSQL URL (--database-url), not both');
  if (options.databaseUrl) return { kind: 'postgres', url: options.databaseUrl };
  if (options.db) return { kind: 'sqlite', file: options.db };
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL };
  return { kind: 'sqlite', file: env.BOBINA_DB ?? DEFAULT_DB };
}

/** The choice as a log line may show it: never a password. */
export function describeStore(choice: StoreChoice): string {
  return choice.kind === 'sqlite' ? `SQLite ${choice.file}` : `PostgreSQL ${redactUrl(choice.url)}`;
}

/** A positive whole number from the environment, or undefined when unset; anything else is refused by name. */
function positiveInt(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^[1-9]\d{0,8}$/.test(raw.trim())) throw new Error(`${name}="${raw}" is not a positive whole number`);
  return Number(raw);
}

/** BOBINA_PG_POOL_SIZE, BOBINA_PG_STATEMENT_TIMEOUT_MS, BOBINA_PG_CONNECT_TIMEOUT_MS. */
export function postgresOptionsFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const poolSize = positiveInt(env, 'BOBINA_PG_POOL_SIZE');
  const statementTimeoutMs = positiveInt(env, 'BOBINA_PG_STATEMENT_TIMEOUT_MS');
  const connectTimeoutMs = positiveInt(env, 'BOBINA_PG_CONNECT_TIMEOUT_MS');
  return {
    ...(poolSize === undefined ? {} : { poolSize }),
    ...(statementTimeoutMs === undefined ? {} : { statementTimeoutMs }),
    ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
  };
}

export async function openStore(options: OpenOptions = {}, choice: StoreChoice = chooseStore(options)): Promise<Store> {
  if (choice.kind === 'postgres') {
    const { openPostgresStore } = await import('./postgres.js');
    return openPostgresStore(choice.url, { ...postgresOptionsFromEnv(), ...(options.onIdleError ? { onIdleError: options.onIdleError } : {}) });
  }
  const { openSqliteStore } = await import('./sqlite.js');
  const sync = process.env.BOBINA_SQLITE_SYNC?.toUpperCase() === 'FULL' ? 'FULL' : 'NORMAL';
  return openSqliteStore(choice.file, { synchronous: sync });
}
