// The environment variables the service and the CLI read, in one table (`bobina serve --help`
// lists from it), and the one place that reads them (the only `process.env` under src/): each
// function takes the environment, the process's by default (tests pass their own object), and
// gives settings back.
import type { AddressPolicy } from './webhooks/address-policy.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** The process's environment, as the functions here read it by default. */
export const processEnvironment = (): Environment => process.env;

/** The commands whose help lists variables: each lists those it reads (variablesOf). */
export type Reader = 'serve' | 'agent' | 'webhooks' | 'terminals';

/** Every variable, what it sets, the command it is for, and any other command that reads it too (`also`). */
export const VARIABLES = {
  PORT: { command: 'serve', says: 'port to listen on (--port; default 8080)' },
  HOST: { command: 'serve', says: 'address to listen on (--host; default 127.0.0.1)' },
  BOBINA_DB: { command: 'serve', says: 'SQLite file (--db; default ./bobina.sqlite)' },
  DATABASE_URL: { command: 'serve', says: 'PostgreSQL URL (--database-url); wins over BOBINA_DB' },
  BOBINA_SQLITE_SYNC: { command: 'serve', says: 'FULL: SQLite syncs every commit (default NORMAL)' },
  BOBINA_PG_POOL_SIZE: { command: 'serve', says: 'PostgreSQL connections in the pool' },
  BOBINA_PG_STATEMENT_TIMEOUT_MS: { command: 'serve', says: 'longest one PostgreSQL statement may run' },
  BOBINA_PG_CONNECT_TIMEOUT_MS: { command: 'serve', says: 'longest a PostgreSQL connection may take' },
  BOBINA_TRUST_PROXY: { command: 'serve', says: 'proxies trusted for the client address (--trust-proxy)' },
  LOG_LEVEL: { command: 'serve', says: 'pino log level (default info)' },
  BOBINA_WEBHOOKS_ALLOW_PRIVATE: { command: 'serve', also: ['webhooks'], says: '1: webhooks may go to private, loopback and link-local addresses' },
  BOBINA_WEBHOOKS_HTTP_HOSTS: { command: 'serve', also: ['webhooks'], says: 'hosts webhooks may reach over plain http, comma-separated' },
  BOBINA_WEBHOOKS_TIMEOUT_MS: { command: 'serve', says: 'longest one webhook attempt may take (default 10000)' },
  BOBINA_WEBHOOKS_MAX_ENDPOINTS: { command: 'serve', also: ['webhooks'], says: 'webhook endpoints one account may register (default 20)' },
  BOBINA_WEBHOOKS_KEEP_DAYS: { command: 'serve', says: 'days delivered and dead webhook messages are kept, with their attempts (default 30)' },
  BOBINA_METRICS_TOKEN: { command: 'serve', says: 'serve GET /metrics on the service port to `Authorization: Bearer` this token (--metrics-token; at least 16 characters)' },
  BOBINA_METRICS_PORT: { command: 'serve', says: 'serve GET /metrics, without a token, on this port of 127.0.0.1 (--metrics-port)' },
  BOBINA_HEARTBEAT: { command: 'serve', also: ['terminals'], says: 'how often terminals\' clients say they are there (--heartbeat; default 15s); `bobina terminals status` reads it too' },
  BOBINA_OFFLINE_GRACE: { command: 'serve', also: ['terminals'], says: 'added to two missed heartbeats before a terminal is offline (--offline-grace; default 5s); `bobina terminals status` reads it too' },
  BOBINA_TERMINAL_KEY: { command: 'agent', says: "the terminal's key (--key), kept out of `ps`" },
} as const satisfies Record<string, { command: Reader; also?: readonly Reader[]; says: string }>;

export type Variable = keyof typeof VARIABLES;

/** The variables a command reads, by name, for its help line. */
export const variablesOf = (command: Reader): Variable[] => (Object.keys(VARIABLES) as Variable[]).filter((v) => {
  const entry: { command: Reader; also?: readonly Reader[] } = VARIABLES[v];
  return entry.command === command || (entry.also?.includes(command) ?? false);
});

/** One variable's value, as set. */
export const read = (env: Environment, name: Variable): string | undefined => env[name];

/** A positive whole number, or undefined when unset; anything else is refused by name (a mistake, not a default). */
function positive(env: Environment, name: Variable): number | undefined {
  const raw = read(env, name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^[1-9]\d{0,8}$/.test(raw.trim())) throw new Error(`${name}="${raw}" is not a positive whole number`);
  return Number(raw);
}

/** Where `bobina serve` and the account commands keep their data when neither a flag nor the environment says. */
export const DEFAULT_DB = './bobina.sqlite';

export type StoreChoice = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/**
 * The store the flags name (a SQLite file or a PostgreSQL URL; both is a mistake, refused), else
 * DATABASE_URL (PostgreSQL), else BOBINA_DB or ./bobina.sqlite (SQLite). Each refusal is a
 * mistake of the caller's (the CLI makes it a usage error: with-store.ts chosenStore).
 */
export function storeChoice(flags: { db?: string; databaseUrl?: string }, env = processEnvironment()): StoreChoice {
  if (flags.db && flags.databaseUrl) throw new Error('give either a SQLite file (--db) or a PostgreSQL URL (--database-url), not both');
  if (flags.databaseUrl) return { kind: 'postgres', url: flags.databaseUrl };
  if (flags.db) return { kind: 'sqlite', file: flags.db };
  // An empty DATABASE_URL is taken as unset: it leaves the choice to BOBINA_DB, as --database-url
  // left out would (a test's child environment blanks it so). An empty BOBINA_DB is refused:
  // SQLite opens '' (and a blank name is no better) as a temporary database, deleted on close,
  // so everything written would be lost.
  const url = read(env, 'DATABASE_URL');
  if (url) return { kind: 'postgres', url };
  const file = read(env, 'BOBINA_DB');
  if (file !== undefined && file.trim() === '') throw new Error(`BOBINA_DB="${file}" names no file: set it to a SQLite file, or unset it for ${DEFAULT_DB}`);
  return { kind: 'sqlite', file: file ?? DEFAULT_DB };
}

/** BOBINA_PG_POOL_SIZE, BOBINA_PG_STATEMENT_TIMEOUT_MS, BOBINA_PG_CONNECT_TIMEOUT_MS: only those set. */
export function postgresSettings(env = processEnvironment()): { poolSize?: number; statementTimeoutMs?: number; connectTimeoutMs?: number } {
  const set = <K extends string>(key: K, value: number | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, number>));
  return {
    ...set('poolSize', positive(env, 'BOBINA_PG_POOL_SIZE')),
    ...set('statementTimeoutMs', positive(env, 'BOBINA_PG_STATEMENT_TIMEOUT_MS')),
    ...set('connectTimeoutMs', positive(env, 'BOBINA_PG_CONNECT_TIMEOUT_MS')),
  };
}

/** BOBINA_SQLITE_SYNC: FULL, or NORMAL for anything else. */
export const sqliteSync = (env = processEnvironment()): 'FULL' | 'NORMAL' => (read(env, 'BOBINA_SQLITE_SYNC')?.toUpperCase() === 'FULL' ? 'FULL' : 'NORMAL');

/** `bobina agent`'s terminal key when --key is not given. */
export const terminalKey = (env = processEnvironment()): string | undefined => read(env, 'BOBINA_TERMINAL_KEY');

/** The webhook address policy the operator set (read by `bobina serve` and `bobina webhooks`). */
export function webhookPolicy(env = processEnvironment()): AddressPolicy {
  const max = positive(env, 'BOBINA_WEBHOOKS_MAX_ENDPOINTS');
  return {
    allowPrivate: read(env, 'BOBINA_WEBHOOKS_ALLOW_PRIVATE') === '1',
    httpHosts: (read(env, 'BOBINA_WEBHOOKS_HTTP_HOSTS') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    ...(max === undefined ? {} : { maxEndpoints: max }),
  };
}

/** The webhook sender's settings from the environment: its address policy, attempt timeout and how long its log is kept. */
export function webhookSettings(env = processEnvironment()): { policy: AddressPolicy; timeoutMs?: number; keepMs?: number } {
  const timeoutMs = positive(env, 'BOBINA_WEBHOOKS_TIMEOUT_MS');
  const keepDays = positive(env, 'BOBINA_WEBHOOKS_KEEP_DAYS');
  return { policy: webhookPolicy(env), ...(timeoutMs === undefined ? {} : { timeoutMs }), ...(keepDays === undefined ? {} : { keepMs: keepDays * 24 * 3600_000 }) };
}

/** The fleet's timing from the environment, as set (`bobina serve` and `bobina terminals status` read the durations with their flags'). */
export function fleetVariables(env: Environment): { heartbeat?: string; offlineGrace?: string } {
  const heartbeat = read(env, 'BOBINA_HEARTBEAT');
  const offlineGrace = read(env, 'BOBINA_OFFLINE_GRACE');
  return { ...(heartbeat ? { heartbeat } : {}), ...(offlineGrace ? { offlineGrace } : {}) };
}

/** The metrics settings from the environment, as set (`bobina serve` checks them with its flags'). */
export function metricsVariables(env: Environment): { token?: string; port?: string } {
  const token = read(env, 'BOBINA_METRICS_TOKEN');
  const port = read(env, 'BOBINA_METRICS_PORT');
  return { ...(token ? { token } : {}), ...(port ? { port } : {}) };
}
