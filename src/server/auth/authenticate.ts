// Resolves the caller of a printing endpoint from `?key=` or `Authorization: Bearer` (an access
// token or an API key) into a principal, request.principal; every later query is scoped to its
// account (request.principal.accountId).
import type { FastifyRequest } from 'fastify';
import { Problem } from '../errors.js';
import type { Store } from '../store/repositories.js';
import type { Principal } from '../store/types.js';
import { sha256 } from './secrets.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authenticate() on every route behind it. */
    principal: Principal;
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
    const principal = secret === undefined ? undefined : await store.credentials.authenticate(sha256(secret), new Date());
    if (principal === undefined) throw new Problem('unauthorized');
    request.principal = principal;
  };
}
