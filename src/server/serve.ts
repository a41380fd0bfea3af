// Starts the service: opens (and migrates) the store, builds the app and listens. Closing stops
// accepting requests, lets in-flight ones finish, then closes the database.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { openStore } from './store/open.js';

export interface ServeOptions {
  port: number;
  host: string;
  db?: string;
  logLevel?: string;
}

export async function startServer(o: ServeOptions): Promise<{ app: FastifyInstance; url: string; close: () => Promise<void> }> {
  const store = await openStore({ backgroundCheckpoints: true, ...(o.db === undefined ? {} : { db: o.db }) });
  const app = await buildApp({ store, logLevel: o.logLevel ?? process.env.LOG_LEVEL ?? 'info' });
  app.addHook('onClose', async () => store.close());
  const url = await app.listen({ port: o.port, host: o.host });
  return { app, url, close: () => app.close() };
}
