// `bobina serve`: runs the partner printing service until SIGINT/SIGTERM. The server (fastify,
// SQLite or PostgreSQL) is imported only here, at run time, so other commands start without loading it.
import { statSync } from 'node:fs';
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';
import { untilSignal } from '../signals.js';
import { fleetVariables, metricsVariables, processEnvironment, read, variablesOf, webhookSettings, type Environment } from '../../server/environment.js';
import { chosenStore, storeFlags } from '../with-store.js';

export interface ServeSettings {
  port: number;
  host: string;
  db?: string;
  databaseUrl?: string;
  trustProxy?: boolean | number | string;
  jobs?: { ttlMs?: number; leaseMs?: number; maxAttempts?: number; idempotencyKeepMs?: number; keepMs?: number };
  stateDir?: string;
  compileBudgetMs?: number;
  connections?: { requestTimeoutMs?: number; maxConnections?: number; maxPerAddress?: number };
  logLevel?: string;
  webhooks?: ReturnType<typeof webhookSettings>;
  fleet?: { heartbeatMs?: number; offlineGraceMs?: number };
  metrics?: { token?: string; port?: number };
}

/** A metrics token shorter than this is refused: it is all that guards /metrics on the service's port. */
export const MIN_METRICS_TOKEN = 16;

/** `--state-dir`: a directory, or a path one can be made at (a file there would fail every journal, over and over, at run time). */
function stateDirOption(dir: string): string {
  if (dir === '') throw new UsageError('--state-dir needs a directory (it was empty)');
  let stat;
  try {
    stat = statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return dir; // made when the first journal is opened
    throw new UsageError(`--state-dir ${dir} cannot be used: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`--state-dir ${dir} is not a directory`);
  return dir;
}

/** The longest a Node timer waits (2^31 − 1 ms, 24.8 days): a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A duration: `90` (seconds), `500ms`, `30s`, `15m`, `24h`, `7d`. `timer`: it is waited for with a
 * timer (a lease, a timeout, a heartbeat), so at most MAX_TIMER_MS: a longer one would fire at once
 * (a --compile-timeout of 30d made every Insert time out).
 */
export function duration(name: string, value: string, o: { timer?: boolean } = {}): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m?.[2] ?? 's') as 'ms'];
  const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`invalid ${name} "${value}": a duration such as 90s, 15m, 24h (a bare number is seconds)`);
  if (o.timer && ms > MAX_TIMER_MS) throw new UsageError(`invalid ${name} "${value}": at most 24d (a timer waits no longer)`);
  return ms;
}

const OPTIONS = {
  port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' }, 'database-url': { type: 'string' }, 'trust-proxy': { type: 'string' },
  'job-ttl': { type: 'string' }, lease: { type: 'string' }, 'max-attempts': { type: 'string' }, 'state-dir': { type: 'string' },
  'compile-timeout': { type: 'string' }, 'request-timeout': { type: 'string' }, 'max-connections': { type: 'string' },
  'max-connections-per-address': { type: 'string' }, heartbeat: { type: 'string' }, 'offline-grace': { type: 'string' },
  'metrics-token': { type: 'string' }, 'metrics-port': { type: 'string' }, 'idempotency-keep': { type: 'string' }, 'job-keep': { type: 'string' },
} as const;

/** --metrics-token and --metrics-port, else BOBINA_METRICS_TOKEN and BOBINA_METRICS_PORT: a token long enough, a port (0: any free one). */
function metricsSettings(values: { 'metrics-token'?: string; 'metrics-port'?: string }, env: Environment): ServeSettings['metrics'] {
  const fromEnv = metricsVariables(env);
  const token = values['metrics-token'] ?? fromEnv.token;
  const rawPort = values['metrics-port'] ?? fromEnv.port;
  if (token !== undefined && (token.length < MIN_METRICS_TOKEN || /\s/.test(token))) {
    throw new UsageError(`the metrics token must be at least ${MIN_METRICS_TOKEN} characters, without spaces`);
  }
  if (rawPort !== undefined && (!/^\d{1,5}$/.test(rawPort.trim()) || Number(rawPort) > 65535)) throw new UsageError(`invalid metrics port "${rawPort}"`);
  if (token === undefined && rawPort === undefined) return undefined;
  return { ...(token === undefined ? {} : { token }), ...(rawPort === undefined ? {} : { port: Number(rawPort) }) };
}

/**
 * --heartbeat and --offline-grace, else BOBINA_HEARTBEAT and BOBINA_OFFLINE_GRACE: only those set.
 * `bobina serve` runs by them and `bobina terminals status` judges "online" by them, so one
 * environment gives both the same rule.
 */
export function fleetTiming(values: { heartbeat?: string; 'offline-grace'?: string }, env: Environment): NonNullable<ServeSettings['fleet']> {
  const fromEnv = fleetVariables(env);
  const heartbeat = values.heartbeat ?? fromEnv.heartbeat;
  const grace = values['offline-grace'] ?? fromEnv.offlineGrace;
  return {
    ...(heartbeat === undefined ? {} : { heartbeatMs: duration(values.heartbeat === undefined ? 'BOBINA_HEARTBEAT' : '--heartbeat', heartbeat, { timer: true }) }),
    ...(grace === undefined ? {} : { offlineGraceMs: duration(values['offline-grace'] === undefined ? 'BOBINA_OFFLINE_GRACE' : '--offline-grace', grace, { timer: true }) }),
  };
}

/** A count for a limit: a whole number, 0 for none. */
function count(name: string, value: string): number {
  if (!/^\d{1,7}$/.test(value.trim())) throw new UsageError(`invalid ${name} "${value}": a whole number (0 for no limit)`);
  return Number(value.trim());
}

/** `true`/`false`, a hop count, or comma-separated proxy addresses and CIDRs (fastify's trustProxy). */
function trustProxy(value: string): boolean | number | string {
  const v = value.trim();
  if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  if (v === '') throw new UsageError('--trust-proxy needs a value: true, a hop count, or proxy addresses (e.g. 127.0.0.1,10.0.0.0/8)');
  return v;
}

/** pino's levels, and `silent`: written here so that the CLI does not load pino to check one. */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** LOG_LEVEL, when set: one of LOG_LEVELS (pino stopped the start with its own message at another), empty for the default. */
function logLevel(env: Environment): string | undefined {
  const level = read(env, 'LOG_LEVEL');
  if (level === undefined || level === '') return undefined;
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new UsageError(`LOG_LEVEL="${level}" is not a log level: one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

/** The settings from flags, then the environment, then defaults: loopback only unless --host says otherwise. */
export function serveSettings(args: string[], env: Environment = processEnvironment()): ServeSettings {
  const { values } = parse(args, OPTIONS, 0);
  const store = storeFlags(values);
  // Refused here, as a usage error, rather than when startServer opens it (exit 1).
  chosenStore(store, env);
  const rawPort = values.port ?? read(env, 'PORT') ?? '8080';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) throw new UsageError(`invalid port "${rawPort}"`);
  const proxy = values['trust-proxy'] ?? read(env, 'BOBINA_TRUST_PROXY');
  const metrics = metricsSettings(values, env);
  const jobs: NonNullable<ServeSettings['jobs']> = {};
  if (values['job-ttl'] !== undefined) jobs.ttlMs = duration('--job-ttl', values['job-ttl']);
  if (values.lease !== undefined) jobs.leaseMs = duration('--lease', values.lease, { timer: true });
  if (values['idempotency-keep'] !== undefined) jobs.idempotencyKeepMs = duration('--idempotency-keep', values['idempotency-keep']);
  if (values['job-keep'] !== undefined) jobs.keepMs = duration('--job-keep', values['job-keep']);
  if (values['max-attempts'] !== undefined) {
    if (!/^[1-9]\d{0,3}$/.test(values['max-attempts'])) throw new UsageError(`invalid --max-attempts "${values['max-attempts']}": a whole number from 1`);
    jobs.maxAttempts = Number(values['max-attempts']);
  }
  const connections: NonNullable<ServeSettings['connections']> = {};
  if (values['request-timeout'] !== undefined) connections.requestTimeoutMs = duration('--request-timeout', values['request-timeout'], { timer: true });
  if (values['max-connections'] !== undefined) connections.maxConnections = count('--max-connections', values['max-connections']);
  if (values['max-connections-per-address'] !== undefined) connections.maxPerAddress = count('--max-connections-per-address', values['max-connections-per-address']);
  const fleet = fleetTiming(values, env);
  const level = logLevel(env);
  return {
    ...(Object.keys(jobs).length ? { jobs } : {}),
    ...(Object.keys(fleet).length ? { fleet } : {}),
    ...(Object.keys(connections).length ? { connections } : {}),
    ...(values['compile-timeout'] !== undefined ? { compileBudgetMs: duration('--compile-timeout', values['compile-timeout'], { timer: true }) } : {}),
    ...(values['state-dir'] === undefined ? {} : { stateDir: stateDirOption(values['state-dir']) }),
    port,
    host: values.host ?? read(env, 'HOST') ?? '127.0.0.1',
    ...store,
    ...(proxy === undefined ? {} : { trustProxy: trustProxy(proxy) }),
    ...(level === undefined ? {} : { logLevel: level }),
    webhooks: webhookSettings(env),
    ...(metrics ? { metrics } : {}),
  };
}

export const serveCommand: Command = {
  name: 'serve',
  usage: 'bobina serve [--port 8080] [--host 127.0.0.1] [--db ./bobina.sqlite | --database-url postgres://…] [--trust-proxy true|N|ADDRESSES] [--job-ttl 24h] [--lease 30s] [--max-attempts 5] [--idempotency-keep 24h] [--job-keep 30d] [--state-dir DIR] [--compile-timeout 10s] [--request-timeout 30s] [--max-connections 512] [--max-connections-per-address 64] [--heartbeat 15s] [--offline-grace 5s] [--metrics-token TOKEN] [--metrics-port PORT]',
  summary: `run the partner printing service (env ${variablesOf('serve').join(', ')})`,
  async run(args, io) {
    const settings = serveSettings(args);
    const { startServer } = await import('../../server/serve.js');
    const server = await startServer(settings);
    io.stderr.write(`bobina serve: listening on ${server.url}, store ${server.store}${server.metricsUrl ? `, metrics on ${server.metricsUrl}/metrics` : ''}\n`);
    // A closed stdout or stderr does not end the service: its logs are dropped (pino), it serves on.
    await untilSignal(() => server.close(), undefined, { outlastsOutput: true });
    return EXIT.ok;
  },
};
