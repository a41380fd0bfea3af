// Failed-login limits, counted in the store so they survive restarts and are shared by every
// process on one database. Three counters per attempt, each a fixed window (default 15 min):
// - account × address (default 10): one client guessing one account is stopped without locking
//   the account for anyone else;
// - account (default 50, from every address): past it the account is under attack and refused
//   from everywhere until the window ends, the right password included;
// - address (default 100, over every account): the cap on password spraying from one address.
// An address is the client's as client-address.ts counts it: IPv4 as itself, IPv6 by its /64
// (an IPv4 client seen through IPv6, mapped, NAT64 or SIIT, as its IPv4 address), so one IPv6
// client cannot take 2^64 counters.
// An attempt is counted before its password is checked (so concurrent guesses cannot slip past a
// limit) and taken back when it succeeds. A refused attempt is not counted.
import { Problem } from '../errors.js';
import type { Store } from '../store/repositories.js';
import type { AttemptCounter } from '../store/types.js';
import { clientKey } from './client-address.js';
import { emailKey } from './email.js';
import { sha256 } from './secrets.js';

export interface LoginLimits {
  /** Failures allowed for one account from one address per window. */
  pair: number;
  /** Failures allowed for one account from all addresses per window. */
  account: number;
  /** Failures allowed from one address over all accounts per window. */
  address: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { pair: 10, account: 50, address: 100, windowMs: 15 * 60 * 1000 };

/** The limits from app options: `maxFailures` sets the pair limit and scales the others (×5, ×10) unless they are given. */
export function loginLimits(maxFailures?: number, windowMs?: number, explicit: Partial<LoginLimits> = {}): LoginLimits {
  const pair = explicit.pair ?? maxFailures ?? DEFAULT_LOGIN_LIMITS.pair;
  const scale = pair / DEFAULT_LOGIN_LIMITS.pair;
  return {
    pair,
    account: explicit.account ?? Math.round(DEFAULT_LOGIN_LIMITS.account * scale),
    address: explicit.address ?? Math.round(DEFAULT_LOGIN_LIMITS.address * scale),
    windowMs: explicit.windowMs ?? windowMs ?? DEFAULT_LOGIN_LIMITS.windowMs,
  };
}

/** An admitted attempt: what to take back if it succeeds. */
export interface Admission {
  counters: AttemptCounter[];
  pairKey?: string;
}

// Keys are hashed: the table never holds e-mails or addresses, and an attacker's long e-mail costs 64 bytes.
const key = (...parts: string[]) => sha256(parts.join('\u0000'));

export class LoginGuard {
  constructor(private readonly store: Store, private readonly limits: LoginLimits) {}

  /**
   * Counts one attempt from `ip` (request.ip, counted for its client: clientKey) for `email`, when
   * the attempt names an account, or throws 429 `too-many-attempts` with Retry-After when a counter
   * is already at its limit.
   */
  async admit(ip: string, email?: string): Promise<Admission> {
    const l = this.limits;
    const address = clientKey(ip);
    // The key findByEmail looks the account up by (auth/email.ts): the counter is that account's.
    const account = email === undefined ? undefined : emailKey(email);
    const wanted = [{ key: key('address', address), limit: l.address }];
    if (account !== undefined) wanted.push({ key: key('pair', account, address), limit: l.pair }, { key: key('account', account), limit: l.account });
    const now = new Date();
    const counters = await this.store.transaction(async (tx) => {
      const after = await tx.loginAttempts.hit(wanted.map((w) => w.key), now, l.windowMs);
      const over = after.filter((c, i) => c.failures > wanted[i]!.limit);
      // Thrown inside the transaction, so the refused attempt is rolled back, not counted.
      if (over.length > 0) {
        const endsAt = Math.max(...over.map((c) => c.windowStart.getTime() + l.windowMs));
        throw new Problem('too-many-attempts').withRetryAfter((endsAt - now.getTime()) / 1000);
      }
      return after;
    });
    return account === undefined ? { counters } : { counters, pairKey: wanted[1]!.key };
  }

  /** The attempt succeeded: take it back, and forget this account's failures from this address. */
  async succeeded(a: Admission): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.loginAttempts.unhit(a.counters.filter((c) => c.key !== a.pairKey));
      if (a.pairKey) await tx.loginAttempts.clear([a.pairKey]);
    });
  }
}
