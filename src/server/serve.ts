// Starts the service: opens (and migrates) the store, builds the app and listens. Closing stops
// accepting requests, lets in-flight ones finish, stops the background workers, then closes the
// database.
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.js';
import { workerCompiler } from './compiler.js';
import { DEFAULT_DB, openStore } from './store/open.js';

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
}

export async function startServer(o: ServeOptions): Promise<{ app: FastifyInstance; url: string; close: () => Promise<void> }> {
  const store = await openStore(o.db === undefined ? {} : { db: o.db });
  const app = await buildApp({
    store,
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
