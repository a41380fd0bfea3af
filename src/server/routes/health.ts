// GET /health: the process answers (liveness; it asks nothing of the database, so a database outage
// never gets the process restarted). GET /health/ready: the database answers too (readiness), within
// READY_TIMEOUT_MS; else 503 database-unavailable, the usual problem body.
import type { FastifyInstance } from 'fastify';
import { Problem } from '../errors.js';
import type { Store } from '../store/repositories.js';

/** How long the readiness check waits for the database. */
export const READY_TIMEOUT_MS = 2_000;

export async function healthRoutes(app: FastifyInstance, { store }: { store: Store }) {
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { hide: true } }, async (request) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([store.ping(), late]);
    } catch (err) {
      // The store's messages name host and port at most, never a password.
      request.log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'not ready: the database does not answer');
      throw new Problem('database-unavailable').withRetryAfter(1);
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok', database: 'ok' };
  });
}
