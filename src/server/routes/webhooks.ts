// /Webhook/… (issue 12): the caller's account's webhook endpoints — register (secret shown once),
// list, remove, rotate the secret — its delivery log, and replay of a message.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatData } from '../dates.js';
import { Problem } from '../errors.js';
import { webhookInsertSchema, webhookListSchema, webhookLogSchema, webhookRemoveSchema, webhookReplaySchema, webhookRotateSchema } from '../schemas/webhooks.js';
import type { Store } from '../store/repositories.js';
import { AddressRefused, type AddressPolicy } from '../webhooks/address-policy.js';
import { DnsTimeout, sharedLookups, type LookupGate } from '../webhooks/dns-gate.js';
import { addEndpoint, attemptView, EndpointRefused, endpointView, messageView, rotateEndpointSecret } from '../webhooks/endpoints.js';

export interface WebhookRouteOptions {
  store: Store;
  policy: AddressPolicy;
  /** Wakes the sender after a replay. */
  wake?: () => void;
  /** Where hosts are resolved (default the process's sharedLookups, the sender's too). */
  lookups?: LookupGate;
}

/**
 * A webhook address (`/url`, `/urlCallback`) checked in vain, as the caller is answered: refused
 * (400, its reason), or its host unresolved within the deadline (503, retry after it); else undefined.
 */
export function webhookUrlProblem(err: unknown, path: string, lookups: LookupGate): Problem | undefined {
  const field = path.slice(1);
  if (err instanceof AddressRefused) return new Problem('webhook-url-refused', { errors: [{ path, message: err.message }] }, `${field}: ${err.message}`);
  if (err instanceof DnsTimeout) return new Problem('webhook-url-dns-timeout', { errors: [{ path, message: err.message }] }, `${field}: ${err.message}`).withRetryAfter(lookups.deadlineMs / 1000);
  return undefined;
}

export async function webhookRoutes(app: FastifyInstance, { store, policy, wake, lookups = sharedLookups }: WebhookRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // The account's own business: a terminal's credential (limited to its jobs) does not manage webhooks.
  app.addHook('preHandler', async (request) => {
    if (request.principal.kind !== 'account') throw new Problem('unauthorized');
  });

  api.post('/Webhook/Insert', { schema: webhookInsertSchema }, async (request) => {
    try {
      const { endpoint, secret } = await addEndpoint(store, request.principal.accountId, request.body.url, request.body.events, policy, lookups);
      return { data: formatData(new Date()), webhook: endpointView(endpoint), secret };
    } catch (err) {
      const refused = webhookUrlProblem(err, '/url', lookups);
      if (refused) throw refused;
      if (err instanceof EndpointRefused) {
        const { refusal } = err;
        throw refusal.refused === 'limit'
          ? new Problem('webhook-limit-reached', { max: refusal.max }, err.message)
          : new Problem('webhook-url-duplicate', { webhookId: refusal.webhookId }, err.message);
      }
      throw err;
    }
  });

  api.get('/Webhook/GetAll', { schema: webhookListSchema }, async (request) => ({
    data: formatData(new Date()),
    webhooks: (await store.webhooks.listEndpoints(request.principal.accountId)).map(endpointView),
  }));

  api.post('/Webhook/Remove', { schema: webhookRemoveSchema }, async (request) => {
    const { webhookId } = request.body;
    if (!(await store.webhooks.removeEndpoint(request.principal.accountId, webhookId))) throw new Problem('webhook-not-found', { webhookId });
    return { data: formatData(new Date()), removed: webhookId };
  });

  api.post('/Webhook/RotateSecret', { schema: webhookRotateSchema }, async (request) => {
    const { webhookId, previousExpiresInSeconds } = request.body;
    const rotated = await rotateEndpointSecret(store, request.principal.accountId, webhookId, previousExpiresInSeconds === undefined ? undefined : previousExpiresInSeconds * 1000);
    if (!rotated) throw new Problem('webhook-not-found', { webhookId });
    return { data: formatData(new Date()), webhook: endpointView(rotated.endpoint), secret: rotated.secret };
  });

  api.get('/Webhook/GetLog', { schema: webhookLogSchema }, async (request) => {
    const { webhookId, messageId, intencaoImpressaoId, limit } = request.query;
    const filter = {
      limit: Math.min(1000, Number(limit ?? 100)),
      ...(webhookId ? { endpointId: webhookId } : {}),
      ...(intencaoImpressaoId ? { intencaoImpressaoId: Number(intencaoImpressaoId) } : {}),
    };
    const accountId = request.principal.accountId;
    const messages = messageId
      ? [await store.webhooks.getMessage(accountId, messageId)].filter((m) => m !== undefined)
      : await store.webhooks.listMessages(accountId, filter);
    const attempts = await store.webhooks.listAttempts(accountId, { ...filter, ...(messageId ? { messageId } : {}) });
    return { data: formatData(new Date()), attempts: attempts.map(attemptView), messages: messages.map(messageView) };
  });

  api.post('/Webhook/Replay', { schema: webhookReplaySchema }, async (request) => {
    const { messageId } = request.body;
    const accountId = request.principal.accountId;
    const message = await store.webhooks.replay(accountId, messageId, new Date());
    if (!message) {
      // Not replayed: no such message, or its endpoint was removed (nothing would ever send it).
      const found = await store.webhooks.getMessage(accountId, messageId);
      throw found ? new Problem('webhook-endpoint-removed', { messageId, webhookId: found.endpointId }) : new Problem('webhook-message-not-found', { messageId });
    }
    wake?.();
    return { data: formatData(new Date()), message: messageView(message) };
  });
}
