// GET /metrics: on the service's own port only for a bearer of the metrics token (compared in
// constant time; without a token configured the route does not exist there: 404), or on a port of
// its own bound to 127.0.0.1, where whoever can reach loopback may read it, with the service's
// request ids, security headers and request logs (http-policy.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { DEFAULT_CONNECTION_LIMITS, deadlineOptions, limitConnections } from '../connection-limits.js';
import { installErrorHandlers, Problem } from '../errors.js';
import { answerHeaders, SERVER_OPTIONS } from '../http-policy.js';
import type { ServiceMetrics } from './metrics.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether `authorization` is `Bearer <token>`: hashes compared, so neither length nor content leaks through timing. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  const same = timingSafeEqual(digest(m?.[1] ?? ''), digest(token));
  return same && m !== null && token !== '';
}

async function exposition(metrics: ServiceMetrics, reply: import('fastify').FastifyReply) {
  const { contentType, body } = await metrics.render();
  return reply.type(contentType).header('cache-control', 'no-store').send(body);
}

/** The route on the service's port, for bearers of `token`. */
export async function metricsRoute(app: FastifyInstance, { metrics, token }: { metrics: ServiceMetrics; token: string }) {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new Problem('unauthorized', {}, 'Send the metrics token as Authorization: Bearer');
    }
    return exposition(metrics, reply);
  });
}

/** Connections the metrics port holds open at once: a scraper or two, never the service's fleet. */
export const METRICS_MAX_CONNECTIONS = 16;

/**
 * GET /metrics alone, on 127.0.0.1:`port` (0: any free port); anything else is 404 route-not-found.
 * Its requests are logged by `log` (the service's logger: the same redaction and serializers), each
 * line marked `server: "metrics"`. The service's request deadline (`requestTimeoutMs`, as
 * --request-timeout sets it) holds here too, and at most METRICS_MAX_CONNECTIONS connections are
 * open at once. A port it cannot bind is an error that names the metrics port.
 */
export async function metricsServer(
  metrics: ServiceMetrics, port: number, log: FastifyBaseLogger, requestTimeoutMs = DEFAULT_CONNECTION_LIMITS.requestTimeoutMs,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ loggerInstance: log.child({ server: 'metrics' }), ...SERVER_OPTIONS, ...deadlineOptions(requestTimeoutMs) });
  answerHeaders(app);
  installErrorHandlers(app);
  app.get('/metrics', async (_request, reply) => exposition(metrics, reply));
  limitConnections(app.server, { ...DEFAULT_CONNECTION_LIMITS, maxConnections: METRICS_MAX_CONNECTIONS, maxPerAddress: 0 });
  const url = await app.listen({ port, host: '127.0.0.1' }).catch(async (err: unknown) => {
    await app.close();
    throw Object.assign(new Error(`metrics port: ${err instanceof Error ? err.message : String(err)}`), { code: (err as { code?: unknown }).code });
  });
  return { url, close: () => app.close() };
}
