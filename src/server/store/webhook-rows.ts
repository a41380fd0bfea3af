// Webhook endpoint rules the store keeps whatever the backend: which endpoints an account may add,
// and which secrets keep signing after a rotation (sql/webhooks.ts applies them under a lock).
import type { WebhookSecret } from './types.js';

/**
 * The most secrets an endpoint signs with at once: each is one more signature in every message's
 * header (1,500 rotations in a day once made a header receivers refused with 431) and one more HMAC.
 */
export const MAX_SECRETS = 5;

/**
 * An endpoint's secrets after a rotation: `secret` first and unexpiring; each earlier one still
 * valid at `now` keeps signing until `previousExpireAt` (or its own earlier expiry), the newest
 * MAX_SECRETS − 1 of them.
 */
export function rotatedSecrets(current: readonly WebhookSecret[], secret: string, previousExpireAt: Date, now: number): WebhookSecret[] {
  const kept = current
    .filter((s) => s.expiresAt === null || s.expiresAt.getTime() > now)
    .slice(0, MAX_SECRETS - 1)
    .map((s) => ({ secret: s.secret, expiresAt: s.expiresAt && s.expiresAt < previousExpireAt ? s.expiresAt : previousExpireAt }));
  return [{ secret, expiresAt: null }, ...kept];
}

/** Why an endpoint was not registered: the account has `max` already, or one with the same URL. */
export type EndpointRefusal = { refused: 'limit'; max: number } | { refused: 'duplicate'; webhookId: string };

/** A URL as it is posted to (scheme and host in lower case, default port and `.` segments gone…), to compare two. */
const sameUrl = (url: string) => URL.canParse(url) ? new URL(url).href : url;

/**
 * Whether an account with these endpoints may register `url`: at most `max` endpoints, and none
 * posting to the same URL. Checked under a lock on the account's endpoints.
 */
export function endpointRefusal(existing: ReadonlyArray<{ id: string; url: string }>, url: string, max: number): EndpointRefusal | undefined {
  const same = existing.find((e) => sameUrl(e.url) === sameUrl(url));
  if (same) return { refused: 'duplicate', webhookId: same.id };
  if (existing.length >= max) return { refused: 'limit', max };
  return undefined;
}
