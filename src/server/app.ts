// Builds the fastify app (fastify/demo shape): external plugins (swagger), then error handling,
// then one plugin per resource, and the background workers tied to its lifecycle. Tests call
// buildApp() and inject(); `bobina serve` listens.
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { authenticate } from './auth/authenticate.js';
import { LoginGuard, loginLimits, type LoginLimits } from './auth/login-limits.js';
import { sessionLimits } from './auth/tokens.js';
import { answerHeaders, SERVER_OPTIONS } from './http-policy.js';
import { DOCS_CSP } from './security-headers.js';
import { DEFAULT_CONNECTION_LIMITS, deadlineOptions, limitConnections, type ConnectionLimits } from './connection-limits.js';
import { inlineCompiler, type Compiler } from './compiler.js';
import { installErrorHandlers } from './errors.js';
import { loggerOptions } from './logger.js';
import { ignoreFleetEvents, type FleetEventSink } from './fleet/events.js';
import { Fleet } from './fleet/fleet.js';
import type { FleetSettings } from './fleet/settings.js';
import { ignoreJobEvents, type JobEventSink } from './jobs/events.js';
import { inProcessLink } from './jobs/in-process-link.js';
import { Jobs, type JobSettings } from './jobs/jobs.js';
import { Problem } from './errors.js';
import { intentionRoutes } from './routes/intentions.js';
import { terminalRoutes } from './routes/terminal.js';
import { terminalHealthRoutes } from './routes/terminals.js';
import { loginRoutes } from './routes/login.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoute } from './metrics/endpoint.js';
import type { ServiceMetrics } from './metrics/metrics.js';
import { countCommitted, timedCompiler, timeInserts } from './metrics/wiring.js';
import { playgroundRoutes } from './routes/playground.js';
import { consoleRoutes } from './routes/console.js';
import { templateRoutes } from './routes/templates.js';
import { webhookRoutes } from './routes/webhooks.js';
import { STRICT_POLICY, type AddressPolicy } from './webhooks/address-policy.js';
import { sharedLookups, type LookupGate } from './webhooks/dns-gate.js';
import type { Store } from './store/repositories.js';
import { runWorkers } from './workers/lifecycle.js';
import { directDelivery } from './workers/direct-delivery.js';
import { periodic, type BackgroundWorker } from './workers/worker.js';
import { errors } from './schemas/common.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job use cases (tests and the direct-delivery worker reach them here). */
    jobs: Jobs;
    /** The fleet's health and its sweeps (fleet/fleet.ts). */
    fleet: Fleet;
  }
}

export interface AppOptions {
  store: Store;
  logLevel?: string;
  /** Where logs go (default stdout); tests capture them to check nothing secret is written. */
  logStream?: NodeJS.WritableStream;
  accessTtl?: number;
  refreshTtl?: number;
  /** Live sessions (token families) one account keeps; the login past it revokes the one used least recently (default 100, auth/tokens.ts). */
  maxSessions?: number;
  /** Access tokens, and used refresh tokens, one session keeps (default 1,000: the newest; auth/tokens.ts). */
  tokensPerSession?: number;
  /** Failed logins allowed per account and address in a window; the account and address limits scale with it (×5, ×10). */
  maxLoginFailures?: number;
  loginFailureWindowMs?: number;
  /** Each failed-login limit on its own (auth/login-limits.ts); wins over maxLoginFailures. */
  loginLimits?: Partial<LoginLimits>;
  /**
   * Which proxies to believe about the client address (X-Forwarded-For), as fastify's trustProxy:
   * true (every hop), a hop count, or addresses/CIDRs. Off by default: a client cannot pick its address.
   */
  trustProxy?: boolean | number | string | string[];
  /**
   * How long a request may take to arrive, and how many connections are held open (in all, and
   * per client address): defaults 30 s, 512, 64. The per-address limit is off by default when
   * `trustProxy` is set: every connection then comes from the proxy, which limits per client.
   */
  connections?: Partial<ConnectionLimits>;
  /** Start the store's own maintenance workers (SQLite: the WAL checkpointer thread). Default true. */
  storeWorkers?: boolean;
  /** Workers besides the store's own and the credential sweeper (delivery, expiry, webhooks). */
  workers?: BackgroundWorker[];
  /**
   * Told of every job state change, inside the change's transaction (jobs/events.ts). Default:
   * ignored; `bobina serve` passes the webhook outbox (webhooks/outbox.ts).
   */
  jobEvents?: JobEventSink;
  /**
   * Told of the fleet's events (terminal.offline, terminal.online, printer.status, job.stuck), inside
   * the transaction that decided each (fleet/events.ts). Default: ignored; `bobina serve` passes the outbox.
   */
  fleetEvents?: FleetEventSink;
  /** The heartbeat interval clients keep, the grace before offline, the default stuck-job threshold (defaults: 15 s, 5 s, 5 min). */
  fleet?: Partial<FleetSettings>;
  /** Which webhook addresses (endpoints, urlCallback) are accepted; default https to public addresses only. */
  webhookPolicy?: AddressPolicy;
  /** Where those addresses' hosts are resolved: default the process's sharedLookups (webhooks/dns-gate.ts), the sender's too. */
  webhookLookups?: LookupGate;
  /** Wakes the webhook sender (after a replay); optional. */
  wakeWebhooks?: () => void;
  /** Where Insert compiles (default inline; `bobina serve` uses a worker pool). Closed with the app. */
  compiler?: Compiler;
  /** Lease length, attempts before failing, job time-to-live (defaults: 30 s, 5, 24 h). */
  jobs?: Partial<JobSettings>;
  /**
   * Deliver the jobs of terminals registered with a device address from this process (default
   * true when serving; `stateDir` holds their journals). Tests pass false unless they test it.
   */
  directDelivery?: false | { stateDir: string };
  /**
   * Count and time the service's work (metrics/): without, nothing is measured and /metrics is 404.
   * `bobina serve` passes prometheus.ts's when a metrics token or port is set.
   */
  metrics?: ServiceMetrics;
  /** Serve GET /metrics on this app's port to bearers of this token (constant-time compare); without it, not on this port. */
  metricsToken?: string;
}

/** Expired tokens and ended login-limit windows are deleted once a minute. */
const SWEEP_EVERY_MS = 60 * 1000;

export const BODY_LIMIT = 2 * 1024 * 1024;

/** Connections refused over a limit are logged at most this often, as one line with their counts. */
const REFUSALS_EVERY_MS = 10_000;

/** A hop count becomes proxy-addr's own rule (trust the first n hops), which fastify's types leave out. */
function trustedProxies(t: NonNullable<AppOptions['trustProxy']>) {
  return typeof t === 'number' ? (_address: string, hop: number) => hop < t : t;
}

export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  const connections: ConnectionLimits = {
    ...DEFAULT_CONNECTION_LIMITS,
    ...(o.trustProxy === undefined ? {} : { maxPerAddress: 0 }),
    ...Object.fromEntries(Object.entries(o.connections ?? {}).filter(([, v]) => v !== undefined)),
  };
  const app = Fastify({
    ...deadlineOptions(connections.requestTimeoutMs),
    logger: loggerOptions(o.logLevel ?? 'info', o.logStream),
    bodyLimit: BODY_LIMIT,
    // JSON bodies are taken as typed: with coercion a null impressoraId would become 0 (a real
    // template) and a null referencia "".
    ajv: { customOptions: { coerceTypes: false } },
    ...SERVER_OPTIONS,
    ...(o.trustProxy === undefined ? {} : { trustProxy: trustedProxies(o.trustProxy) }),
    // Unknown fields are ignored (schemas/common.ts), and these two as well: removed while parsing.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
  });
  answerHeaders(app);
  installErrorHandlers(app);
  // JSON is the only body type: without this parser, text/plain gets 415 like any other type.
  app.removeContentTypeParser('text/plain');
  const metrics = o.metrics;
  const compiler = metrics ? timedCompiler(o.compiler ?? inlineCompiler, metrics) : (o.compiler ?? inlineCompiler);
  app.addHook('onClose', async () => compiler.close());
  if (metrics) {
    metrics.attach({ store: o.store, compiler });
    timeInserts(app, metrics);
  }

  await app.register(swagger, {
    openapi: {
      info: { title: 'bobina partner printing service', version: '0.1.0' },
      components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'key' }, bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(healthRoutes, { store: o.store });
  if (metrics && o.metricsToken) await app.register(metricsRoute, { metrics, token: o.metricsToken });
  await app.register(playgroundRoutes);
  await app.register(consoleRoutes);

  const limits = loginLimits(o.maxLoginFailures, o.loginFailureWindowMs, o.loginLimits);
  await app.register(loginRoutes, {
    store: o.store,
    guard: new LoginGuard(o.store, limits),
    accessTtl: o.accessTtl ?? 3600,
    refreshTtl: o.refreshTtl ?? 30 * 24 * 3600,
    sessions: sessionLimits(o.maxSessions, o.tokensPerSession),
  });
  // With metrics, each state change is counted once its transaction commits.
  const counted = metrics ? countCommitted(o.store, o.jobEvents ?? ignoreJobEvents, metrics) : { store: o.store, sink: o.jobEvents ?? ignoreJobEvents };
  const jobs = new Jobs(counted.store, counted.sink, o.jobs);
  app.decorate('jobs', jobs);
  const fleet = new Fleet(o.store, o.fleetEvents ?? ignoreFleetEvents, o.fleet);
  app.decorate('fleet', fleet);
  // The fleet gauges (terminals online/offline, printers by reason) by the same offline rule as GetAll.
  metrics?.setFleetCounts((now) => fleet.counts(now));
  // The contacts still in the fleet's batch are written before the store closes (serve.ts closes it in an onClose hook of its own: it calls this too).
  app.addHook('onClose', async () => fleet.close());
  // Long-polls end (empty) as soon as the app starts closing, so closing never waits a minute for them.
  app.addHook('preClose', async () => jobs.close());
  await app.register(async (printing) => {
    printing.addHook('onRoute', (route) => documentAnswers(route, 401, 403));
    printing.addHook('onRequest', authenticate(o.store));
    // A terminal's key acts only as that terminal, never as its account.
    printing.addHook('onRequest', async (request) => {
      if (request.principal.kind !== 'account') throw new Problem('partner-key-required');
    });
    await printing.register(templateRoutes);
    const webhookPolicy = o.webhookPolicy ?? STRICT_POLICY;
    const webhookLookups = o.webhookLookups ?? sharedLookups;
    await printing.register(intentionRoutes, { store: o.store, compiler, jobs, webhookPolicy, webhookLookups });
    await printing.register(terminalHealthRoutes, { fleet });
    await printing.register(webhookRoutes, { store: o.store, policy: webhookPolicy, lookups: webhookLookups, ...(o.wakeWebhooks ? { wake: o.wakeWebhooks } : {}) });
  });
  await app.register(async (terminal) => {
    terminal.addHook('onRoute', (route) => documentAnswers(route, 401, 403));
    terminal.addHook('onRequest', authenticate(o.store));
    terminal.addHook('onRequest', async (request) => {
      if (request.principal.kind !== 'terminal') throw new Problem('terminal-key-required');
    });
    await terminal.register(terminalRoutes, { jobs, fleet });
  });
  const store = o.store;
  const delivery = o.directDelivery
    ? [directDelivery({
      terminalsWithDevice: () => store.terminals.withDevice(),
      linkFor: (t) => inProcessLink(jobs, { kind: 'terminal', accountId: t.accountId, terminalId: t.terminalId }, fleet),
    }, o.directDelivery.stateDir, { heartbeatMs: fleet.settings.heartbeatMs })]
    : [];

  const limited = limitConnections(app.server, connections);
  const refusals = periodic('connection-limits', REFUSALS_EVERY_MS, () => {
    const r = limited.refusals();
    if (r.total + r.perAddress > 0) {
      app.log.warn({ refusedOverTotal: r.total, refusedOverPerAddress: r.perAddress, maxConnections: connections.maxConnections, maxPerAddress: connections.maxPerAddress }, 'connections refused over the connection limits');
    }
  });
  const sweeper = periodic('credential-sweeper', SWEEP_EVERY_MS, async () => {
    const now = new Date();
    await o.store.credentials.purgeExpired(now);
    await o.store.loginAttempts.purge(new Date(now.getTime() - limits.windowMs));
  });
  runWorkers(app, [...(o.storeWorkers === false ? [] : o.store.workers()), sweeper, refusals, ...jobs.workers(), ...fleet.workers(), ...delivery, ...(o.workers ?? [])]);
  return app;
}

/**
 * Adds to what a route's schema says it answers (the OpenAPI document) what its scope's hooks answer
 * (`statuses`: a missing key, a key of the wrong kind) and, for a route with a body, 415 for a body
 * that is not JSON: written once here, not in every route's schema.
 */
function documentAnswers(route: RouteOptions, ...statuses: number[]): void {
  const schema = route.schema ?? {};
  const also = schema.body ? [...statuses, 415] : statuses;
  route.schema = { ...schema, response: { ...errors(...also), ...(schema.response as Record<string, unknown> | undefined) } };
}
