// What every HTTP server of the service does alike, the API's port and the metrics port: request ids
// made here (never taken from a client's header) and sent back as x-request-id, the security
// headers on every answer, requests the HTTP parser or fastify's router refuses answered as JSON
// problems, and request logs by logger.ts's policy (the caller gives the logger: its options, or an instance made with them).
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorHandler } from './client-errors.js';
import { answerError } from './errors.js';
import { DEFAULT_CSP, SECURITY_HEADERS } from './security-headers.js';

/** The request id and the security headers, on one answer. */
function headersOf(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id).headers(SECURITY_HEADERS);
  // A page with a policy of its own (the playground) keeps it; /docs' is set after this hook, by its plugin.
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', DEFAULT_CSP);
}

/**
 * What fastify's router refuses before any route (a path it cannot decode, `/%ZZ`): answered with
 * this function's reply, which runs neither the app's hooks nor its error handler (without it, fastify
 * wrote its own body, without the request id or the security headers). Both are done here instead.
 */
function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  headersOf(request, reply);
  void answerError(err, request, reply);
}

/** Fastify options every server of the service is built with. */
export const SERVER_OPTIONS = {
  genReqId: () => randomUUID(),
  requestIdHeader: false,
  clientErrorHandler,
  frameworkErrors,
} as const;

/** The request id and the security headers on every answer of `app`. */
export function answerHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => headersOf(request, reply));
}
