// Requests Node's HTTP parser refuses before any route runs (headers too large, a CR/LF or a bad
// byte in a header, a bad request line, a timeout) get the same JSON problem body as every other
// error, written straight to the socket. Nothing from the raw request is logged: it may hold a key.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { PROBLEMS, type ProblemCode } from './errors.js';
import { DEFAULT_CSP, SECURITY_HEADERS } from './security-headers.js';

/** The security headers every answer carries, as raw header lines. */
const SECURITY_LINES = Object.entries({ ...SECURITY_HEADERS, 'content-security-policy': DEFAULT_CSP }).map(([k, v]) => `${k}: ${v}\r\n`).join('');

/** Node's error code → problem; anything else the parser refuses is a malformed request. */
const BY_NODE_CODE: Readonly<Record<string, ProblemCode>> = {
  HPE_HEADER_OVERFLOW: 'headers-too-large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request-timeout',
};

export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code = BY_NODE_CODE[err.code ?? ''] ?? 'malformed-request';
  const { status, message } = PROBLEMS[code];
  const requestId = randomUUID();
  this.log.info({ requestId, code, status, parserError: err.code }, 'request refused by the HTTP parser');
  if (socket.writable) {
    const body = JSON.stringify({ message, code, requestId });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\n${SECURITY_LINES}connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
