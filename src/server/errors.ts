// Service error catalogue and the JSON problem body every failure becomes: `{ message, code,
// requestId, ...details }`, never a stack trace or an HTML page.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StoreUnavailableError } from './store/types.js';

export const LOGIN_PATH = '/auth/reconciliation/token';

/** Stable codes with their HTTP status; the login labels are the spec's own words (§7). */
export const PROBLEMS = {
  'credentials-required': { status: 400, message: 'Credentials is required' },
  'request-token-error': { status: 500, message: 'Request token error' },
  'invalid-access-token': { status: 401, message: 'Invalid access token' },
  'too-many-attempts': { status: 429, message: 'Too many failed login attempts; retry later' },
  unauthorized: { status: 401, message: 'Missing, unknown or expired access key' },
  'invalid-request': { status: 400, message: 'The request is not valid' },
  'invalid-json': { status: 400, message: 'The body is not valid JSON' },
  'unsupported-media-type': { status: 415, message: 'The body must be application/json' },
  'body-too-large': { status: 413, message: 'The body is larger than 2 MiB' },
  'printer-conflict': { status: 400, message: 'impressoraId and terminalId are mutually exclusive' },
  'printer-required': { status: 400, message: 'Name a printer with codigoImpressora or impressoraId, or a terminal linked to one with terminalId' },
  'unknown-printer': { status: 400, message: 'Unknown printer template' },
  'terminal-not-found': { status: 404, message: 'Terminal not found' },
  'terminal-disabled': { status: 409, message: 'Printing is disabled on this terminal' },
  'content-invalid': { status: 422, message: 'The content has errors' },
  'compile-timeout': { status: 422, message: 'The content took too long to compile; nothing was stored' },
  'idempotency-key-reused': { status: 422, message: 'This Idempotency-Key was used with a different body' },
  'intention-not-found': { status: 404, message: 'Print intention not found' },
  'job-not-cancelable': { status: 409, message: 'The print intention is held by a client or already finished; it cannot be canceled' },
  'job-not-startable': { status: 409, message: 'The print intention is not waiting to be started' },
  'job-not-recompilable': { status: 409, message: 'The print intention cannot be compiled again now' },
  'terminal-key-required': { status: 403, message: "This endpoint takes a terminal's own key" },
  'terminal-mismatch': { status: 403, message: 'This key belongs to another terminal' },
  'partner-key-required': { status: 403, message: 'This endpoint takes an access token or an API key of the account, not a terminal key' },
  'webhook-url-refused': { status: 400, message: 'This webhook address is not accepted' },
  'webhook-url-dns-timeout': { status: 503, message: "This webhook address's host did not resolve in time; retry later" },
  'webhook-limit-reached': { status: 409, message: 'This account has as many webhook endpoints as it may' },
  'webhook-url-duplicate': { status: 409, message: 'This account already has a webhook endpoint for this URL' },
  'webhook-not-found': { status: 404, message: 'Webhook endpoint not found' },
  'webhook-message-not-found': { status: 404, message: 'Webhook message not found' },
  'webhook-endpoint-removed': { status: 409, message: "This message's webhook endpoint was removed: it cannot be sent again" },
  'route-not-found': { status: 404, message: 'Route not found' },
  // Refused by Node's HTTP parser before any route runs (client-errors.ts).
  'malformed-request': { status: 400, message: 'The request is not valid HTTP' },
  'request-timeout': { status: 408, message: 'The request took too long to arrive' },
  'headers-too-large': { status: 431, message: 'The request line and headers are larger than the server accepts' },
  // The store could not reach its database (store/types.ts StoreUnavailableError); sent with Retry-After.
  'database-unavailable': { status: 503, message: 'The database is unavailable; retry shortly' },
  internal: { status: 500, message: 'Internal server error' },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

export class Problem extends Error {
  readonly status: number;
  readonly headers: Record<string, string> = {};
  constructor(readonly code: ProblemCode, readonly details: Record<string, unknown> = {}, message?: string) {
    super(message ?? PROBLEMS[code].message);
    this.status = PROBLEMS[code].status;
  }

  withRetryAfter(seconds: number): this {
    this.headers['retry-after'] = String(Math.max(1, Math.ceil(seconds)));
    return this;
  }
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, p: Problem) {
  return reply.code(p.status).headers(p.headers).type('application/json').send({ message: p.message, code: p.code, requestId: request.id, ...p.details });
}

/** Maps fastify's own errors (validation, body parsing, limits) onto the catalogue. */
function fromFastify(err: FastifyError, onLogin: boolean): Problem {
  const status = err.statusCode ?? 500;
  if (onLogin && (status === 400 || status === 415)) return new Problem('credentials-required');
  if (err.validation) return new Problem('invalid-request', { errors: err.validation.map((v) => ({ path: v.instancePath, message: v.message })) }, `${err.validationContext ?? 'request'}${err.message.replace(/^[a-z]+/, '')}`);
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return new Problem('body-too-large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return new Problem('unsupported-media-type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY': return new Problem('invalid-json');
    // A path the router cannot decode (`/%ZZ`); its message would echo the path, which may hold a key.
    case 'FST_ERR_BAD_URL': return new Problem('malformed-request');
  }
  if (err instanceof SyntaxError || err.code === undefined && status === 400) return new Problem('invalid-json');
  if (status === 429) return new Problem('too-many-attempts');
  if (status >= 400 && status < 500) return new Problem('invalid-request', {}, err.message);
  return new Problem('internal');
}

/**
 * The answer to an error, logged by its kind: the app's error handler, and fastify's router for what
 * it refuses before any route (http-policy.ts frameworkErrors).
 */
export function answerError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const onLogin = request.routeOptions.url === LOGIN_PATH;
  const unavailable = (err as Error) instanceof StoreUnavailableError;
  const p = err instanceof Problem ? err : unavailable ? new Problem('database-unavailable').withRetryAfter(1) : fromFastify(err, onLogin);
  // The store's message names host and port at most, never a password; the cause is pg's own error.
  if (unavailable) request.log.warn({ code: p.code, status: p.status, reason: err.message }, 'database unavailable');
  else if (p.code === 'internal') request.log.error({ err }, 'unexpected error');
  else request.log.info({ code: p.code, status: p.status }, 'request refused');
  if (onLogin) reply.header('cache-control', 'no-store');
  return sendProblem(request, reply, p);
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, new Problem('route-not-found')));
}
