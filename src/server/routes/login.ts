// POST /auth/reconciliation/token (spec §4.1, §7): password grant and refresh-token rotation,
// with the documented statuses and labels, and failed attempts rate limited per account and address.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DUMMY_PASSWORD_HASH, sha256, verifyPassword } from '../auth/secrets.js';
import { loginResponse, newPair, type TokenLifetimes } from '../auth/tokens.js';
import { LOGIN_PATH, Problem } from '../errors.js';
import { loginSchema, type LoginRequest } from '../schemas.js';
import type { Store } from '../store/types.js';

export interface LoginOptions extends TokenLifetimes {
  store: Store;
  /** Failed attempts allowed per window, per e-mail and (x4) per client address. */
  maxFailures: number;
  failureWindowMs: number;
}

const bodyOf = (r: FastifyRequest) => (r.body && typeof r.body === 'object' ? (r.body as LoginRequest) : undefined);

export async function loginRoutes(app: FastifyInstance, o: LoginOptions) {
  await app.register(rateLimit, { global: false });
  const byAccount = app.createRateLimit({
    max: o.maxFailures,
    timeWindow: o.failureWindowMs,
    keyGenerator: (r) => `account:${(bodyOf(r)?.email ?? bodyOf(r)?.refresh_token ?? '').toLowerCase()}`,
  });
  const byAddress = app.createRateLimit({ max: o.maxFailures * 4, timeWindow: o.failureWindowMs, keyGenerator: (r) => `ip:${r.ip}` });

  /** Refuses with 429 while either counter is over; counts only failures, never successes. */
  async function guard<T extends object>(request: FastifyRequest, attempt: () => Promise<Problem | T>): Promise<T> {
    for (const limit of [byAccount, byAddress]) {
      const s = await limit(request, { increment: false });
      // A read does not count this attempt, so `max` failures already recorded means refuse.
      if (!s.isAllowed && s.remaining === 0) throw new Problem('too-many-attempts').withRetryAfter(s.ttlInSeconds);
    }
    const result = await attempt();
    if (result instanceof Problem) {
      await Promise.all([byAccount(request), byAddress(request)]);
      throw result;
    }
    return result;
  }

  app.withTypeProvider<TypeBoxTypeProvider>().post(LOGIN_PATH, { schema: loginSchema, attachValidation: true }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const body = bodyOf(request);
    if (request.validationError || !body) throw new Problem('credentials-required');
    if (body.grant_type === 'refresh_token') {
      return guard(request, async () => {
        const { access, refresh, pair } = newPair(o);
        const userId = body.refresh_token ? await o.store.rotateRefresh(sha256(body.refresh_token), pair, new Date()) : undefined;
        const user = userId === undefined ? undefined : await o.store.findUserById(userId);
        return user ? loginResponse(user, access, refresh, o) : new Problem('invalid-access-token');
      });
    }
    if (!body.email && !body.password) throw new Problem('credentials-required');
    if (!body.grant_type) throw new Problem('request-token-error');
    return guard(request, async () => {
      if (body.grant_type !== 'password' || !body.email || !body.password) return new Problem('invalid-access-token');
      const user = await o.store.findUserByEmail(body.email);
      // Unknown e-mail still pays for one scrypt, so timing does not reveal which accounts exist.
      const ok = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!user || !ok) return new Problem('invalid-access-token');
      const { access, refresh, pair } = newPair(o);
      await o.store.createTokens(user.id, pair);
      return loginResponse(user, access, refresh, o);
    });
  });
}
