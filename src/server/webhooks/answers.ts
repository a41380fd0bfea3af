// What a webhook attempt's answer means for its message, as a table: the first row that matches
// decides (a 2xx delivers; an endpoint removed meanwhile, or 410 Gone, makes the message dead, and
// 410 disables the endpoint; a send cut short by the service stopping is tried again at once; 429
// and 503 wait as Retry-After asks; anything else backs off, retry.ts).
import type { AttemptOutcome, WebhookMessage } from '../store/types.js';
import { afterFailure, retryAfterMs, type RetrySchedule } from './retry.js';

/** What an attempt came to. */
export interface Answer {
  statusCode: number | null;
  error?: string | null;
  retryAfter?: string;
  /** The message's endpoint was removed before the attempt: nothing was sent. */
  endpointGone: boolean;
}

type Verdict = 'delivered' | 'endpoint-removed' | 'gone' | 'stopping' | 'retry-after' | 'retry';

/** In order; `status` is an inclusive range of status codes. */
const ANSWERS: readonly { verdict: Verdict; status?: readonly [number, number]; error?: string; endpointGone?: true }[] = [
  { verdict: 'delivered', status: [200, 299] },
  { verdict: 'endpoint-removed', endpointGone: true },
  { verdict: 'gone', status: [410, 410] },
  { verdict: 'stopping', error: 'service stopping' },
  { verdict: 'retry-after', status: [429, 429] },
  { verdict: 'retry-after', status: [503, 503] },
];

type Next = (m: WebhookMessage, a: Answer, at: Date, s: RetrySchedule) => AttemptOutcome;

/** Each verdict: the message's outcome, and whether its endpoint is disabled (410 Gone). */
const VERDICTS: Readonly<Record<Verdict, { next: Next; disables?: true }>> = {
  delivered: { next: () => ({ state: 'delivered' }) },
  'endpoint-removed': { next: () => ({ state: 'dead' }) },
  gone: { next: () => ({ state: 'dead' }), disables: true },
  stopping: { next: (_m, _a, at) => ({ state: 'pending', nextAttemptAt: at }) },
  'retry-after': { next: (m, a, at, s) => afterFailure(m, at, s, retryAfterMs(a.retryAfter, at)) },
  retry: { next: (m, _a, at, s) => afterFailure(m, at, s) },
};

function verdictOf(a: Answer): Verdict {
  const row = ANSWERS.find((r) =>
    (r.status === undefined || (a.statusCode !== null && a.statusCode >= r.status[0] && a.statusCode <= r.status[1]))
    && (r.error === undefined || a.error === r.error)
    && (r.endpointGone === undefined || a.endpointGone));
  return row?.verdict ?? 'retry';
}

/** The message's outcome after this attempt, and whether its endpoint is to be disabled. */
export function judge(m: WebhookMessage, a: Answer, at: Date, schedule: RetrySchedule): { outcome: AttemptOutcome; disable: boolean } {
  const v = VERDICTS[verdictOf(a)];
  return { outcome: v.next(m, a, at, schedule), disable: v.disables === true && m.endpointId !== null };
}
