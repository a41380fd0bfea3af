// What the CLI (`bobina webhooks`) and the API routes (/Webhook/…) both do with endpoints: check
// the address, pick the events, keep to the account's limit and one endpoint per URL, make the
// secret, and show an endpoint without its secrets.
import type { Store } from '../store/repositories.js';
import type { WebhookAttempt, WebhookEndpoint, WebhookEvent, WebhookMessage } from '../store/types.js';
import { endpointRefusal, type EndpointRefusal } from '../store/webhook-rows.js';
import { checkUrlShape, resolveAllowed, type AddressPolicy } from './address-policy.js';
import { sharedLookups, type LookupGate } from './dns-gate.js';
import { DEFAULT_EVENTS, WEBHOOK_EVENTS } from './messages.js';
import { newWebhookSecret } from './sign.js';

/** After a rotation the previous secret keeps signing this long (default 24 h), so receivers can switch without losing a message. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3600_000;

export class UnknownEvent extends Error {
  override name = 'UnknownEvent';
}

/** An account may register this many endpoints (BOBINA_WEBHOOKS_MAX_ENDPOINTS): each event is one message per endpoint. */
export const DEFAULT_MAX_ENDPOINTS = 20;

/** The account already has the most endpoints it may, or one posting to the same URL. */
export class EndpointRefused extends Error {
  override name = 'EndpointRefused';
  constructor(readonly refusal: EndpointRefusal) {
    super(refusal.refused === 'limit'
      ? `this account has ${refusal.max} webhook endpoints, the most it may have; remove one first`
      : `this account already has webhook ${refusal.webhookId} for this URL`);
  }
}

/** The events asked for (none: every final state); throws UnknownEvent naming the first unknown one. */
export function chooseEvents(asked: readonly string[] | undefined): WebhookEvent[] {
  const events = (asked ?? []).flatMap((e) => e.split(',')).map((e) => e.trim()).filter(Boolean);
  if (events.length === 0) return [...DEFAULT_EVENTS];
  const bad = events.find((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (bad) throw new UnknownEvent(`unknown event "${bad}" (known: ${WEBHOOK_EVENTS.join(', ')})`);
  return WEBHOOK_EVENTS.filter((e) => events.includes(e));
}

/**
 * Registers an endpoint; the secret is returned this once. Throws AddressRefused, UnknownEvent,
 * EndpointRefused or DnsTimeout. The limit and the duplicate URL are looked at before DNS, so an
 * account at its limit starts no lookup at all; createEndpoint decides again under the account's
 * lock, so endpoints added at once still keep to the limit.
 */
export async function addEndpoint(
  store: Store, accountId: string, url: string, events: readonly string[] | undefined, policy: AddressPolicy, lookups: LookupGate = sharedLookups,
) {
  const chosen = chooseEvents(events);
  const max = policy.maxEndpoints ?? DEFAULT_MAX_ENDPOINTS;
  const { hostname } = checkUrlShape(url, policy);
  const early = endpointRefusal(await store.webhooks.listEndpoints(accountId), url, max);
  if (early) throw new EndpointRefused(early);
  await resolveAllowed(hostname, policy, lookups.for(accountId));
  const secret = newWebhookSecret();
  const endpoint = await store.webhooks.createEndpoint({ accountId, url, events: chosen, secret }, max);
  if ('refused' in endpoint) throw new EndpointRefused(endpoint);
  return { endpoint, secret };
}

export async function rotateEndpointSecret(store: Store, accountId: string, id: string, previousTtlMs = PREVIOUS_SECRET_TTL_MS) {
  const secret = newWebhookSecret();
  const endpoint = await store.webhooks.rotateSecret(accountId, id, secret, new Date(Date.now() + previousTtlMs));
  return endpoint && { endpoint, secret };
}

export const endpointView = (e: WebhookEndpoint) => ({
  id: e.id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  failingSince: e.failingSince?.toISOString() ?? null,
  /** How many secrets sign each message now (2 during a rotation); never the secrets. */
  secrets: e.secrets.filter((s) => s.expiresAt === null || s.expiresAt.getTime() > Date.now()).length,
  createdAt: e.createdAt.toISOString(),
});

export const messageView = (m: WebhookMessage) => ({
  messageId: m.id,
  webhookId: m.endpointId,
  url: m.url,
  type: m.eventType,
  intencaoImpressaoId: m.intencaoImpressaoId,
  state: m.state,
  attempts: m.attempts,
  nextAttemptAt: m.state === 'pending' ? m.nextAttemptAt.toISOString() : null,
  deliveredAt: m.deliveredAt?.toISOString() ?? null,
  lastError: m.lastError,
  createdAt: m.createdAt.toISOString(),
});

export const attemptView = (a: WebhookAttempt) => ({
  at: a.at.toISOString(),
  messageId: a.messageId,
  webhookId: a.endpointId,
  url: a.url,
  type: a.eventType,
  intencaoImpressaoId: a.intencaoImpressaoId,
  statusCode: a.statusCode,
  latencyMs: a.latencyMs,
  error: a.error,
  messageState: a.messageState,
});
