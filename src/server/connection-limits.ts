// How long a request may take to arrive and how many connections the server holds open, so that
// slow or idle sockets cannot exhaust its file descriptors. Node's HTTP server enforces the
// deadlines (a request past them gets our 408 request-timeout from client-errors.ts); the
// connection counts are kept here. A connection over a limit is closed as soon as it is accepted.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** The whole request, headers and body, must have arrived within this long of its start (default 30 s). */
  requestTimeoutMs: number;
  /** Connections open at once, in all (default 512); `0` for no limit. */
  maxConnections: number;
  /** Connections open at once from one client address (default 64); `0` for no limit. */
  maxPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { requestTimeoutMs: 30_000, maxConnections: 512, maxPerAddress: 64 };

/**
 * How often Node looks for requests past their deadline (its default is 30 s, which would let a
 * request live for a minute): a request is closed at most this long after its deadline.
 */
export const CHECK_EVERY_MS = 5_000;

/**
 * Fastify's options for the deadlines. The headers get the same deadline as the whole request:
 * Node lets a request whose headers have not all arrived live until `headersTimeout`, whatever
 * `requestTimeout` says.
 */
export function deadlineOptions(requestTimeoutMs: number) {
  return {
    requestTimeout: requestTimeoutMs,
    http: { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(CHECK_EVERY_MS, requestTimeoutMs) },
  };
}

/** What was refused since the last report (the caller logs it, at most once per interval). */
export interface Refusals {
  total: number;
  perAddress: number;
}

/**
 * Applies the connection counts to `server`: past `maxConnections` Node itself drops the new
 * socket; past `maxPerAddress` (when given) the socket is destroyed here, before a byte is read.
 */
export function limitConnections(server: Server, limits: Pick<ConnectionLimits, 'maxConnections' | 'maxPerAddress'>): { refusals(): Refusals } {
  let refused: Refusals = { total: 0, perAddress: 0 };
  if (limits.maxConnections > 0) {
    server.maxConnections = limits.maxConnections;
    server.on('drop', () => void refused.total++);
  }
  if (limits.maxPerAddress > 0) {
    const open = new Map<string, number>();
    server.prependListener('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const n = (open.get(address) ?? 0) + 1;
      if (n > limits.maxPerAddress) {
        refused.perAddress++;
        socket.destroy();
        return;
      }
      open.set(address, n);
      socket.once('close', () => {
        const left = open.get(address)! - 1;
        if (left === 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }
  return {
    refusals() {
      const r = refused;
      refused = { total: 0, perAddress: 0 };
      return r;
    },
  };
}
