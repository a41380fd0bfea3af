// The webhook routes' schemas (issue 12): endpoints of the caller's account, their attempts, replay.
import { Type } from 'typebox';
import { WEBHOOK_EVENTS } from '../webhooks/messages.js';
import { errors, ignoreUnknown, JobIdQuery, KeyQuery } from './common.js';

const WebhookEvent = Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e)));

export const WebhookEndpointOut = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: '`gone` when the receiver answered 410' }),
  failingSince: Type.Union([Type.String(), Type.Null()], { description: 'Set when a message went dead; cleared by the next delivery' }),
  secrets: Type.Integer({ description: 'How many secrets sign each message now (2 during a rotation)' }),
  createdAt: Type.String(),
});

export const WebhookMessageOut = Type.Object({
  messageId: Type.String({ description: 'The webhook-id header' }),
  webhookId: Type.Union([Type.String(), Type.Null()], { description: 'null for an intention\'s urlCallback' }),
  url: Type.String(),
  type: Type.String(),
  intencaoImpressaoId: Type.Union([Type.Integer(), Type.Null()], { description: "The job; null for a terminal's events" }),
  state: Type.String({ description: '`pending`, `held` (its endpoint is disabled: sent once it is enabled again), `delivered` or `dead`' }),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String(), Type.Null()]),
  deliveredAt: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export const WebhookAttemptOut = Type.Object({
  at: Type.String(),
  messageId: Type.String(),
  webhookId: Type.Union([Type.String(), Type.Null()]),
  url: Type.String(),
  type: Type.String(),
  intencaoImpressaoId: Type.Union([Type.Integer(), Type.Null()], { description: "The job; null for a terminal's events" }),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  messageState: Type.String({ description: 'The message\'s state now' }),
});

const webhookTags = ['webhooks'];
const WithSecret = Type.Object({ data: Type.String(), webhook: WebhookEndpointOut, secret: Type.String({ description: 'whsec_…: shown only in this answer' }) });
const WebhookIdBody = { webhookId: Type.String() };

export const webhookInsertSchema = {
  tags: webhookTags,
  summary: 'Register a webhook endpoint for the account; the answer carries its secret, shown only this once',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  body: Type.Object({
    url: Type.String({ maxLength: 2000, description: 'https, or http to a host the operator allowed' }),
    events: Type.Optional(Type.Array(WebhookEvent, { description: 'Default: every final state; `stopped` and the fleet events (terminal.offline, terminal.online, printer.status, job.stuck) only when asked' })),
  }, ignoreUnknown),
  response: { 200: WithSecret, ...errors(400, 503) },
};

export const webhookListSchema = {
  tags: webhookTags,
  summary: 'The account\'s webhook endpoints (never their secrets)',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), webhooks: Type.Array(WebhookEndpointOut) }) },
};

export const webhookRemoveSchema = {
  tags: webhookTags,
  summary: 'Remove a webhook endpoint; its undelivered messages go dead',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  body: Type.Object(WebhookIdBody, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), removed: Type.String() }), ...errors(400, 404) },
};

export const webhookRotateSchema = {
  tags: webhookTags,
  summary: 'New secret for an endpoint; the previous ones keep signing for 24 hours, or as long as previousExpiresInSeconds says (0: a leaked secret stops at once)',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  body: Type.Object({
    ...WebhookIdBody,
    previousExpiresInSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, description: 'How long the previous secrets keep signing (default 86400: 24 hours; 0: not at all)' })),
  }, ignoreUnknown),
  response: { 200: WithSecret, ...errors(400, 404) },
};

export const webhookLogSchema = {
  tags: webhookTags,
  summary: 'Delivery attempts, newest first (time, status code, latency, error)',
  querystring: Type.Object({
    ...KeyQuery,
    webhookId: Type.Optional(Type.String()),
    messageId: Type.Optional(Type.String()),
    intencaoImpressaoId: Type.Optional(JobIdQuery()),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'At most 1000 (default 100)' })),
  }, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), attempts: Type.Array(WebhookAttemptOut), messages: Type.Array(WebhookMessageOut) }), ...errors(400) },
};

export const webhookReplaySchema = {
  tags: webhookTags,
  summary: 'Send a past or dead message again, with the same webhook-id (held while its endpoint is disabled; 409 when its endpoint was removed)',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  body: Type.Object({ messageId: Type.String() }, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), message: WebhookMessageOut }), ...errors(400, 404, 409) },
};
