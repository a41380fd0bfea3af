// POST /auth/reconciliation/token (spec §4.1, §7): password grant and refresh-token rotation,
// with the documented statuses and labels; failed attempts are limited by auth/login-limits.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { LoginGuard } from '../auth/login-limits.js';
import { DUMMY_PASSWORD_HASH, sha256, verifyPassword } from '../auth/secrets.js';
import { loginResponse, newFamily, newPair, type TokenLifetimes } from '../auth/tokens.js';
import { LOGIN_PATH, Problem } from '../errors.js';
import { loginSchema, type LoginRequest } from '../schemas/login.js';
import type { Store } from '../store/repositories.js';
import type { Account, SessionLimits } from '../store/types.js';

export interface LoginOptions extends TokenLifetimes {
  store: Store;
  guard: LoginGuard;
  /** What the store keeps of an account's sessions: a password login past `sessions` revokes the one used least recently. */
  sessions: SessionLimits;
}

const bodyOf = (r: FastifyRequest) => (r.body && typeof r.body === 'object' ? (r.body as LoginRequest) : undefined);

/**
 * Uses up the refresh token and stores the next pair, in its family, in one transaction: the
 * account and the new tokens. A token used before revokes its family (committed: the caller then
 * refuses the login) and answers `reused`.
 */
function rotate(store: Store, refreshHash: string, o: TokenLifetimes & { sessions: SessionLimits }, now: Date) {
  return store.transaction(async (tx) => {
    const taken = await tx.credentials.takeRefreshToken(refreshHash, now, newFamily());
    if (taken === undefined || taken === 'reused') return taken;
    const next = newPair(o, taken.family, now.getTime());
    await tx.credentials.storeTokens(taken.accountId, next.pair, o.sessions);
    return { accountId: taken.accountId, ...next };
  });
}

export async function loginRoutes(app: FastifyInstance, o: LoginOptions) {
  /** One counted attempt: refused up front when over a limit; a failure stays counted, a success is taken back. */
  async function attempt(request: FastifyRequest, email: string | undefined, check: () => Promise<Account | undefined>) {
    const admission = await o.guard.admit(request.ip, email);
    const account = await check();
    if (!account) throw new Problem('invalid-access-token');
    await o.guard.succeeded(admission);
    return account;
  }

  app.withTypeProvider<TypeBoxTypeProvider>().post(LOGIN_PATH, { schema: loginSchema, attachValidation: true }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const body = bodyOf(request);
    if (request.validationError || !body) throw new Problem('credentials-required');
    if (body.grant_type === 'refresh_token') {
      let tokens: { access: string; refresh: string } | undefined;
      const account = await attempt(request, undefined, async () => {
        const rotated = body.refresh_token ? await rotate(o.store, sha256(body.refresh_token), o, new Date()) : undefined;
        if (rotated === 'reused') request.log.warn('a refresh token was presented again after its rotation: every token of its family is revoked');
        if (rotated === undefined || rotated === 'reused') return undefined;
        tokens = rotated;
        return o.store.accounts.findById(rotated.accountId);
      });
      return loginResponse(account, tokens!.access, tokens!.refresh, o);
    }
    const { access, refresh, pair } = newPair(o);
    if (!body.email && !body.password) throw new Problem('credentials-required');
    if (!body.grant_type) throw new Problem('request-token-error');
    const account = await attempt(request, body.email, async () => {
      if (body.grant_type !== 'password' || !body.email || !body.password) return undefined;
      const found = await o.store.accounts.findByEmail(body.email);
      // Unknown e-mail still pays for one scrypt, so timing does not reveal which accounts exist.
      const ok = await verifyPassword(body.password, found?.passwordHash ?? DUMMY_PASSWORD_HASH);
      return found && ok ? found : undefined;
    });
    await o.store.credentials.storeTokens(account.id, pair, o.sessions);
    return loginResponse(account, access, refresh, o);
  });
}
