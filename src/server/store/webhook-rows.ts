// The outbox's rows as both backends read them (the same columns and types: times in epoch
// milliseconds, text, integers), and their domain values. Endpoint rows differ (JSON and booleans
// are native on PostgreSQL, text and 0/1 on SQLite), so each backend maps those itself.
import type { WebhookAttempt, WebhookMessage, WebhookSecret } from './types.js';

export interface MessageRow {
  seq: number; id: string; user_id: string; endpoint_id: string | null; target: string; url: string; event_type: string;
  intention_id: number; body: string; state: WebhookMessage['state']; attempts: number; next_attempt_at: number;
  lease_until: number | null; window_start: number; created_at: number; delivered_at: number | null; last_error: string | null;
}

/** An attempt joined with its message (`id`, `state` and the addressing are the message's). */
export interface AttemptRow {
  id: string; endpoint_id: string | null; url: string; event_type: string; intention_id: number; state: WebhookMessage['state'];
  at: number; status_code: number | null; latency_ms: number; error: string | null;
}

export const date = (ms: number | null) => (ms === null ? null : new Date(ms));

export const toMessage = (r: MessageRow): WebhookMessage => ({
  id: r.id, accountId: r.user_id, endpointId: r.endpoint_id, url: r.url, eventType: r.event_type, intencaoImpressaoId: r.intention_id,
  body: r.body, state: r.state, attempts: r.attempts, nextAttemptAt: new Date(r.next_attempt_at), windowStart: new Date(r.window_start),
  createdAt: new Date(r.created_at), deliveredAt: date(r.delivered_at), lastError: r.last_error,
});

export const toAttempt = (r: AttemptRow): WebhookAttempt => ({
  messageId: r.id, endpointId: r.endpoint_id, url: r.url, eventType: r.event_type, intencaoImpressaoId: r.intention_id,
  at: new Date(r.at), statusCode: r.status_code, latencyMs: r.latency_ms, error: r.error, messageState: r.state,
});

/**
 * An endpoint's secrets after a rotation: `secret` first and unexpiring; each earlier one still
 * valid at `now` keeps signing until `previousExpireAt` (or its own earlier expiry).
 */
export function rotatedSecrets(current: readonly WebhookSecret[], secret: string, previousExpireAt: Date, now: number): WebhookSecret[] {
  const kept = current
    .filter((s) => s.expiresAt === null || s.expiresAt.getTime() > now)
    .map((s) => ({ secret: s.secret, expiresAt: s.expiresAt && s.expiresAt < previousExpireAt ? s.expiresAt : previousExpireAt }));
  return [{ secret, expiresAt: null }, ...kept];
}

/** Why an endpoint was not registered: the account has `max` already, or one with the same URL. */
export type EndpointRefusal = { refused: 'limit'; max: number } | { refused: 'duplicate'; webhookId: string };

/** A URL as it is posted to (scheme and host in lower case, default port and `.` segments gone…), to compare two. */
const sameUrl = (url: string) => URL.canParse(url) ? new URL(url).href : url;

/**
 * Whether an account with these endpoints may register `url`: at most `max` endpoints, and none
 * posting to the same URL. Both backends call it under a lock on the account's endpoints.
 */
export function endpointRefusal(existing: ReadonlyArray<{ id: string; url: string }>, url: string, max: number): EndpointRefusal | undefined {
  const same = existing.find((e) => sameUrl(e.url) === sameUrl(url));
  if (same) return { refused: 'duplicate', webhookId: same.id };
  if (existing.length >= max) return { refused: 'limit', max };
  return undefined;
}
