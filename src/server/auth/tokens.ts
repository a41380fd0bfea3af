// Issues a fresh access/refresh pair (in a refresh-token family) and builds the login response of spec §2.2.
import type { LoginResponse } from '../schemas/login.js';
import type { Account, SessionLimits, TokenPair } from '../store/types.js';
import { randomBytes } from 'node:crypto';
import { newToken, sha256 } from './secrets.js';

export interface TokenLifetimes {
  /** Seconds an access token is valid (the login's `expires_in`). */
  accessTtl: number;
  /** Seconds a refresh token is valid. */
  refreshTtl: number;
}

/**
 * What the store keeps of one account's sessions by default (store/types.ts SessionLimits). Each
 * login and each refresh keeps its rows for the refresh lifetime (30 days), so without these one
 * partner's logins, or one client refreshing in a loop, would grow the tables without end. 1,000
 * tokens per session is more than a month of hourly refreshes: a reused refresh token of the last
 * 30 days is still recognised (and revokes its session) at that pace.
 */
export const SESSION_LIMITS: SessionLimits = { sessions: 100, tokensPerSession: 1000 };

/** SESSION_LIMITS with the ones given; each a whole number from 1 (a programming error otherwise, said as such). */
export function sessionLimits(sessions = SESSION_LIMITS.sessions, tokensPerSession = SESSION_LIMITS.tokensPerSession): SessionLimits {
  for (const [name, v] of Object.entries({ maxSessions: sessions, tokensPerSession })) {
    if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`buildApp: ${name} must be a whole number from 1, not ${v}`);
  }
  return { sessions, tokensPerSession };
}

/** A new refresh-token family's name (a password login starts one; rotations stay in it). */
export const newFamily = () => `fam_${randomBytes(12).toString('base64url')}`;

/** A fresh pair, in `family` (a rotation's) or a new one (a password login's). */
export function newPair(t: TokenLifetimes, family = newFamily(), now = Date.now()) {
  const access = newToken();
  const refresh = newToken();
  const pair: TokenPair = {
    accessHash: sha256(access),
    refreshHash: sha256(refresh),
    accessExpiresAt: new Date(now + t.accessTtl * 1000),
    refreshExpiresAt: new Date(now + t.refreshTtl * 1000),
    family,
  };
  return { access, refresh, pair };
}

export function loginResponse(user: Account, access: string, refresh: string, t: TokenLifetimes): LoginResponse {
  return {
    access_token: access,
    token_type: 'bearer',
    refresh_token: refresh,
    expires_in: t.accessTtl,
    scope: 'reconciliation',
    user_detail: {
      id: user.id,
      name: user.name,
      email: user.email,
      metadata: user.metadata.map((m) => ({ id: { userId: user.id, key: m.key }, value: m.value, schema: 'STRING_ARRAY' })),
      roles: user.roles,
    },
  };
}
