// When a failed message is tried again: exponential backoff from `firstDelayMs`, doubling up to
// `maxDelayMs`, each delay moved by ±jitter; a receiver's Retry-After (429, 503) wins over the
// schedule, but never brings the next try sooner than `firstDelayMs`. Once the next try would fall
// outside `windowMs` of the first, or `maxAttempts` tries were made, the message is dead.
import type { AttemptOutcome, WebhookMessage } from '../store/types.js';

export interface RetrySchedule {
  firstDelayMs: number;
  maxDelayMs: number;
  /** How long after its first attempt (or replay) a message is still retried. */
  windowMs: number;
  /** The fraction each delay is moved by, at random, either way (0.2: ±20%). */
  jitter: number;
  /** Tries of one message (since its first attempt or replay, like the window) before it is dead. */
  maxAttempts: number;
}

/**
 * 5 s, 10 s, 20 s … doubling to 6 h between tries, for 3 days: about 24 attempts (README: Webhooks).
 * The cap of 30 only ever stops a receiver whose Retry-After keeps asking for tries sooner than that.
 */
export const DEFAULT_SCHEDULE: RetrySchedule = { firstDelayMs: 5_000, maxDelayMs: 6 * 3600_000, windowMs: 3 * 24 * 3600_000, jitter: 0.2, maxAttempts: 30 };

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
  if (m.attempts + 1 >= s.maxAttempts) return { state: 'dead' };
  // Retry-After is honoured, but no sooner than the first backoff step (`Retry-After: 0` once made
  // thousands of tries a second); one beyond the retry window makes the message dead now.
  const delay = retryAfter !== undefined
    ? Math.max(retryAfter, s.firstDelayMs)
    : backoff(m.attempts + 1, s) * (1 - s.jitter + 2 * s.jitter * random());
  const next = now.getTime() + Math.round(delay);
  if (next - m.windowStart.getTime() > s.windowMs) return { state: 'dead' };
  return { state: 'pending', nextAttemptAt: new Date(next) };
}
