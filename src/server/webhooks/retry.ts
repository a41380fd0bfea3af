// When a failed message is tried again: exponential backoff from `firstDelayMs`, doubling up to
// `maxDelayMs`, each delay moved by ±jitter; a receiver's Retry-After (429, 503) wins over the
// schedule. Once the next try would fall outside `windowMs` of the first, the message is dead.
import type { AttemptOutcome, WebhookMessage } from '../store/types.js';

export interface RetrySchedule {
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long after its first attempt (or replay) a message is still retried. */
  windowMs: number;
  /** The fraction each delay is moved by, at random, either way (0.2: ±20%). */
  jitter: number;
}

/** 5 s, 10 s, 20 s … doubling to 6 h between tries, for 3 days: about 24 attempts (README: Webhooks). */
export const DEFAULT_SCHEDULE: RetrySchedule = { firstDelayMs: 5_000, maxDelayMs: 6 * 3600_000, windowMs: 3 * 24 * 3600_000, jitter: 0.2 };

/** The delay after the n-th failed attempt (n from 1), before jitter. */
export const backoff = (n: number, s: RetrySchedule): number => Math.min(s.maxDelayMs, s.firstDelayMs * 2 ** Math.min(n - 1, 40));

/** Retry-After as seconds or an HTTP date, in ms from `now` (undefined when absent or unreadable). */
export function retryAfterMs(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** What follows a failed attempt (the message's `attempts` not yet counting it). */
export function afterFailure(m: WebhookMessage, now: Date, s: RetrySchedule, retryAfter?: number, random: () => number = Math.random): AttemptOutcome {
  // Retry-After is honoured as sent; one beyond the retry window makes the message dead now.
  const delay = retryAfter !== undefined
    ? retryAfter
    : backoff(m.attempts + 1, s) * (1 - s.jitter + 2 * s.jitter * random());
  const next = now.getTime() + Math.round(delay);
  if (next - m.windowStart.getTime() > s.windowMs) return { state: 'dead' };
  return { state: 'pending', nextAttemptAt: new Date(next) };
}
