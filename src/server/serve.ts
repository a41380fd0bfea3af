// Starts the service: opens (and migrates) the store, builds the app and listens. Closing stops
// accepting requests, lets in-flight ones finish, stops the background workers, then closes the
// database.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.js';
import { workerCompiler } from './compiler.js';
import { storeChoice } from './environment.js';
import { metricsServer } from './metrics/endpoint.js';
import { describeStore, openStore } from './store/open.js';
import { fleetOutbox, webhookOutbox } from './webhooks/outbox.js';
import { webhookRetention } from './webhooks/retention.js';
import { webhookSender, type SenderOptions } from './webhooks/sender.js';
import { STRICT_POLICY } from './webhooks/address-policy.js';

export interface ServeOptions {
  port: number;
  host: string;
  db?: string;
  /** A PostgreSQL URL (else DATABASE_URL, else the SQLite file); not together with `db`. */
  databaseUrl?: string;
  logLevel?: string;
  trustProxy?: AppOptions['trustProxy'];
  /** Job time-to-live, lease and attempts (AppOptions.jobs). */
  jobs?: AppOptions['jobs'];
  /** Where direct delivery keeps its journals (default: `<db>.delivery` beside the SQLite file; `./bobina.delivery` on PostgreSQL). */
  stateDir?: string;
  /** Request deadline and connection limits (AppOptions.connections). */
  connections?: AppOptions['connections'];
  /** How long one compile may run on a worker thread before it is ended (default 10 s). */
  compileBudgetMs?: number;
  /**
   * The webhook sender's settings, and how long its log is kept (retention.ts; default 30 days)
   * (`bobina serve`: environment.ts's webhookSettings).
   */
  webhooks?: Partial<SenderOptions> & { keepMs?: number };
  /** The heartbeat interval clients keep and the grace before offline (AppOptions.fleet; --heartbeat, --offline-grace). */
  fleet?: AppOptions['fleet'];
  /**
   * Metrics (docs/operations.md): GET /metrics on the service's port for bearers of `token`, and/or
   * on `port` of 127.0.0.1 (0: any free port). Neither: nothing is measured, and prom-client is not loaded.
   */
  metrics?: { token?: string; port?: number };
}

/** Direct delivery's journals on PostgreSQL, with no --state-dir: there is no database file to sit beside. */
export const POSTGRES_STATE_DIR = './bobina.delivery';

/**
 * The address a server bound, as a URL: the unspecified ones as they are (`http://0.0.0.0:8080`,
 * `http://[::]:8080`), where fastify's own answer names one loopback address of them.
 */
export function boundUrl({ address, port }: AddressInfo): string {
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

export async function startServer(o: ServeOptions): Promise<{ app: FastifyInstance; url: string; store: string; metricsUrl?: string; close: () => Promise<void> }> {
  const where = { ...(o.db === undefined ? {} : { db: o.db }), ...(o.databaseUrl === undefined ? {} : { databaseUrl: o.databaseUrl }) };
  const choice = storeChoice(where);
  let app: FastifyInstance | undefined;
  // An idle pooled connection that dies is replaced by the pool; the operator still hears of it.
  const onIdleError = (err: Error) => app?.log.warn({ err: { name: err.name, message: err.message } }, 'database connection lost while idle; the pool reconnects');
  const store = await openStore({ ...where, onIdleError }, choice);
  const metrics = o.metrics && (o.metrics.token !== undefined || o.metrics.port !== undefined)
    ? (await import('./metrics/prometheus.js')).prometheusMetrics({ onReadError: (what, err) => app?.log.warn({ gauge: what, reason: err instanceof Error ? err.message : String(err) }, 'metrics: a gauge could not be read') })
    : undefined;
  const { keepMs, ...senderOptions } = o.webhooks ?? {};
  const webhooks: SenderOptions = { policy: STRICT_POLICY, ...senderOptions, ...(metrics ? { onAttempt: metrics.webhookAttempt } : {}) };
  const sender = webhookSender(store, webhooks);
  // A store left open would keep the process alive (a pg pool's sockets) after a failed start.
  app = await buildApp({
    store,
    jobEvents: webhookOutbox({ onEnqueued: sender.wake }),
    fleetEvents: fleetOutbox({ onEnqueued: sender.wake }),
    ...(o.fleet ? { fleet: o.fleet } : {}),
    webhookPolicy: webhooks.policy,
    wakeWebhooks: sender.wake,
    workers: [sender, webhookRetention(store, keepMs)],
    logLevel: o.logLevel ?? 'info',
    // Compiles run on worker threads: a worst-case job still takes seconds to parse (README: Limits).
    compiler: workerCompiler(o.compileBudgetMs === undefined ? {} : { budgetMs: o.compileBudgetMs }),
    ...(o.trustProxy === undefined ? {} : { trustProxy: o.trustProxy }),
    ...(o.jobs ? { jobs: o.jobs } : {}),
    ...(o.connections ? { connections: o.connections } : {}),
    ...(metrics ? { metrics, ...(o.metrics?.token === undefined ? {} : { metricsToken: o.metrics.token }) } : {}),
    directDelivery: { stateDir: o.stateDir ?? (choice.kind === 'sqlite' ? `${choice.file}.delivery` : POSTGRES_STATE_DIR) },
  }).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  // The workers stop in preClose, before any onClose hook: none outlives the database.
  // onClose hooks run last added first: this one before the app's own, so the fleet's batch of contacts is written here first.
  app.addHook('onClose', async () => {
    try {
      await app.fleet.close();
    } finally {
      await store.close();
    }
  });
  const started = app;
  // Its own port, bound to loopback, closed with the app (its hook added before the app listens).
  const exposed = metrics && o.metrics?.port !== undefined
    ? await metricsServer(metrics, o.metrics.port, started.log, o.connections?.requestTimeoutMs).catch(async (err: unknown) => {
      await started.close();
      throw err;
    })
    : undefined;
  if (exposed) started.addHook('onClose', async () => exposed.close());
  await started.listen({ port: o.port, host: o.host }).catch(async (err: unknown) => {
    await started.close();
    throw err;
  });
  const url = boundUrl(started.server.address() as AddressInfo);
  return { app: started, url, store: describeStore(choice), ...(exposed ? { metricsUrl: exposed.url } : {}), close: () => started.close() };
}
