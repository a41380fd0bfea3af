// The environment variables the service and the CLI read, in one table (`bobina serve --help`
// lists from it), and the one place that reads them: a command passes `process.env` (or a test's
// own object) in, and gets settings back.
import type { AddressPolicy } from './webhooks/address-policy.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** Every variable, what it sets, and which command reads it. */
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
  BOBINA_WEBHOOKS_ALLOW_PRIVATE: { command: 'serve', says: '1: webhooks may go to private, loopback and link-local addresses' },
  BOBINA_WEBHOOKS_HTTP_HOSTS: { command: 'serve', says: 'hosts webhooks may reach over plain http, comma-separated' },
  BOBINA_WEBHOOKS_TIMEOUT_MS: { command: 'serve', says: 'longest one webhook attempt may take (default 10000)' },
  BOBINA_WEBHOOKS_MAX_ENDPOINTS: { command: 'serve', says: 'webhook endpoints one account may register (default 20)' },
  BOBINA_METRICS_TOKEN: { command: 'serve', says: 'serve GET /metrics on the service port to `Authorization: Bearer` this token (--metrics-token; at least 16 characters)' },
  BOBINA_METRICS_PORT: { command: 'serve', says: 'serve GET /metrics, without a token, on this port of 127.0.0.1 (--metrics-port)' },
  BOBINA_TERMINAL_KEY: { command: 'agent', says: "the terminal's key (--key), kept out of `ps`" },
} as const satisfies Record<string, { command: 'serve' | 'agent'; says: string }>;

export type Variable = keyof typeof VARIABLES;

/** The variables a command reads, by name, for its help line. */
export const variablesOf = (command: 'serve' | 'agent'): Variable[] => (Object.keys(VARIABLES) as Variable[]).filter((v) => VARIABLES[v].command === command);

/** One variable's value, as set. */
export const read = (env: Environment, name: Variable): string | undefined => env[name];

/** A positive whole number, or undefined when unset or anything else. */
function positive(env: Environment, name: Variable): number | undefined {
  const n = Number(read(env, name));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** The webhook address policy the operator set (read by `bobina serve` and `bobina webhooks`). */
export function webhookPolicy(env: Environment): AddressPolicy {
  const max = positive(env, 'BOBINA_WEBHOOKS_MAX_ENDPOINTS');
  return {
    allowPrivate: env.BOBINA_WEBHOOKS_ALLOW_PRIVATE === '1',
    httpHosts: (env.BOBINA_WEBHOOKS_HTTP_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    ...(max === undefined ? {} : { maxEndpoints: max }),
  };
}

/** The webhook sender's settings from the environment: its address policy and attempt timeout. */
export function webhookSettings(env: Environment): { policy: AddressPolicy; timeoutMs?: number } {
  const timeoutMs = positive(env, 'BOBINA_WEBHOOKS_TIMEOUT_MS');
  return { policy: webhookPolicy(env), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
}

/** The metrics settings from the environment, as set (`bobina serve` checks them with its flags'). */
export function metricsVariables(env: Environment): { token?: string; port?: string } {
  const token = read(env, 'BOBINA_METRICS_TOKEN');
  const port = read(env, 'BOBINA_METRICS_PORT');
  return { ...(token ? { token } : {}), ...(port ? { port } : {}) };
}
