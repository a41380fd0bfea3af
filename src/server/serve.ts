// Starts the service: opens (and migrates) the store, builds the app and listens. Closing stops
// accepting requests, lets in-flight ones finish, stops the background workers, then closes the
// database.
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.js';
import { workerCompiler } from './compiler.js';
import { DEFAULT_DB, openStore } from './store/open.js';
import { policyFromEnv } from './webhooks/address-policy.js';
import { webhookOutbox } from './webhooks/outbox.js';
import { webhookSender, type SenderOptions } from './webhooks/sender.js';

export interface ServeOptions {
  port: number;
  host: string;
  db?: string;
  logLevel?: string;
  trustProxy?: AppOptions['trustProxy'];
  /** Job time-to-live, lease and attempts (AppOptions.jobs). */
  jobs?: AppOptions['jobs'];
  /** Where direct delivery keeps its journals (default: `<db>.delivery` beside the database). */
  stateDir?: string;
  /** The webhook sender's settings besides the address policy (default: from the environment). */
  webhooks?: Partial<SenderOptions>;
}

/** BOBINA_WEBHOOKS_ALLOW_PRIVATE, BOBINA_WEBHOOKS_HTTP_HOSTS, BOBINA_WEBHOOKS_TIMEOUT_MS. */
export function senderOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SenderOptions {
  const timeout = Number(env.BOBINA_WEBHOOKS_TIMEOUT_MS);
  return { policy: policyFromEnv(env), ...(Number.isInteger(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}) };
}

export async function startServer(o: ServeOptions): Promise<{ app: FastifyInstance; url: string; close: () => Promise<void> }> {
  const store = await openStore(o.db === undefined ? {} : { db: o.db });
  const webhooks = { ...senderOptionsFromEnv(), ...o.webhooks };
  const sender = webhookSender(store, webhooks);
  const app = await buildApp({
    store,
    jobEvents: webhookOutbox({ onEnqueued: sender.wake }),
    webhookPolicy: webhooks.policy,
    wakeWebhooks: sender.wake,
    workers: [sender],
    logLevel: o.logLevel ?? process.env.LOG_LEVEL ?? 'info',
    // Compiles run on worker threads: a worst-case job still takes seconds to parse (README: Limits).
    compiler: workerCompiler(),
    ...(o.trustProxy === undefined ? {} : { trustProxy: o.trustProxy }),
    ...(o.jobs ? { jobs: o.jobs } : {}),
    directDelivery: { stateDir: o.stateDir ?? `${o.db ?? process.env.BOBINA_DB ?? DEFAULT_DB}.delivery` },
  });
  // The workers stop in preClose, before any onClose hook: none outlives the database.
  app.addHook('onClose', async () => store.close());
  const url = await app.listen({ port: o.port, host: o.host });
  return { app, url, close: () => app.close() };
}
