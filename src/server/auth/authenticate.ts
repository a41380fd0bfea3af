// Resolves the caller of a printing endpoint from `?key=` or `Authorization: Bearer`, either an
// access token or an API key, and pins every later query to that account (request.userId).
import type { FastifyRequest } from 'fastify';
import { Problem } from '../errors.js';
import type { Store } from '../store/types.js';
import { sha256 } from './secrets.js';

declare module 'fastify' {
  interface FastifyRequest {
    userId: string;
  }
}

function presentedSecret(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m?.[1];
  }
  const key = (request.query as { key?: unknown } | undefined)?.key;
  return typeof key === 'string' && key !== '' ? key : undefined;
}

/** An onRequest hook: runs before body parsing, so an anonymous caller learns nothing else. */
export function authenticate(store: Store) {
  return async (request: FastifyRequest) => {
    const secret = presentedSecret(request);
    const userId = secret === undefined ? undefined : await store.authenticate(sha256(secret), new Date());
    if (userId === undefined) throw new Problem('unauthorized');
    request.userId = userId;
  };
}
