// The webhook outbox as the app's JobEventSink (and, below, its FleetEventSink): inside the transaction of a job's state change it
// writes one message per enabled endpoint of the account subscribed to that state, plus one for
// the intention's urlCallback (final states only), so the notice commits with the change or not at
// all. The messages' words are messages.ts's; the sender (sender.ts) delivers them afterwards.
import type { FleetEventSink } from '../fleet/events.js';
import { FINAL_STATES, type JobEventSink } from '../jobs/events.js';
import type { NewWebhookMessage } from '../store/types.js';
import { eventType, fleetWebhookBody, JOB_EVENTS, webhookBody, webhookTarget, withIntentionId } from './messages.js';
import { newMessageId } from './sign.js';

export interface OutboxOptions {
  /** Called after messages were written (the transaction may still roll back): wakes an in-process sender early. */
  onEnqueued?: () => void;
}

export function webhookOutbox(options: OutboxOptions = {}): JobEventSink {
  return async (tx, event) => {
    const final = FINAL_STATES.includes(event.estado);
    const subscribed = (JOB_EVENTS as readonly string[]).includes(event.estado);
    if (!subscribed) return;
    const body = webhookBody(event);
    const type = eventType(event.estado);
    const message = (endpointId: string | null, url: string): NewWebhookMessage => ({
      id: newMessageId(), accountId: event.accountId, endpointId, url: withIntentionId(url, event.intencaoImpressaoId), target: webhookTarget(url),
      eventType: type, intencaoImpressaoId: event.intencaoImpressaoId, body, createdAt: event.at,
    });
    const endpoints = await tx.webhooks.listEndpoints(event.accountId);
    const messages = endpoints
      .filter((e) => e.enabled && (e.events as string[]).includes(event.estado))
      .map((e) => message(e.id, e.url));
    if (final && event.urlCallback) messages.push(message(null, event.urlCallback));
    if (messages.length === 0) return;
    await tx.webhooks.enqueue(messages);
    if (options.onEnqueued) setImmediate(options.onEnqueued);
  };
}

/**
 * The fleet's events (fleet/events.ts) into the same outbox, inside the transaction that decided
 * them: one message per enabled endpoint of the account subscribed to the event's type (none is by
 * default). A job's event (job.stuck) carries `?intencaoImpressaoId=N` like the job events.
 */
export function fleetOutbox(options: OutboxOptions = {}): FleetEventSink {
  return async (tx, event) => {
    const endpoints = (await tx.webhooks.listEndpoints(event.accountId)).filter((e) => e.enabled && (e.events as string[]).includes(event.type));
    if (endpoints.length === 0) return;
    const job = event.type === 'job.stuck' ? event.intencaoImpressaoId : null;
    const body = fleetWebhookBody(event);
    await tx.webhooks.enqueue(endpoints.map((e): NewWebhookMessage => ({
      id: newMessageId(), accountId: event.accountId, endpointId: e.id, url: job === null ? e.url : withIntentionId(e.url, job), target: webhookTarget(e.url),
      eventType: event.type, intencaoImpressaoId: job, body, createdAt: event.at,
    })));
    if (options.onEnqueued) setImmediate(options.onEnqueued);
  };
}
