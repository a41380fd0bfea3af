// Issues a fresh access/refresh pair and builds the login response of spec §2.2.
import type { LoginResponse } from '../schemas.js';
import type { Account, TokenPair } from '../store/types.js';
import { newToken, sha256 } from './secrets.js';

export interface TokenLifetimes {
  /** Seconds an access token is valid (the login's `expires_in`). */
  accessTtl: number;
  /** Seconds a refresh token is valid. */
  refreshTtl: number;
}

export function newPair(t: TokenLifetimes, now = Date.now()) {
  const access = newToken();
  const refresh = newToken();
  const pair: TokenPair = {
    accessHash: sha256(access),
    refreshHash: sha256(refresh),
    accessExpiresAt: new Date(now + t.accessTtl * 1000),
    refreshExpiresAt: new Date(now + t.refreshTtl * 1000),
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
