// The webhook outbox as the app's JobEventSink: inside the transaction of a job's state change it
// writes one message per enabled endpoint of the account subscribed to that state, plus one for
// the intention's urlCallback (final states only), so the notice commits with the change or not at
// all. The sender (sender.ts) delivers them afterwards.
import { FINAL_STATES, type JobEvent, type JobEventSink } from '../jobs/events.js';
import type { NewWebhookMessage, WebhookEvent } from '../store/types.js';
import { newMessageId } from './sign.js';

/** What an endpoint may subscribe to: every final state (the default) and `stopped`. */
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['completed', 'failed', 'canceled', 'expired', 'stopped'];
export const DEFAULT_EVENTS: readonly WebhookEvent[] = FINAL_STATES as readonly WebhookEvent[];

/** The message body receivers get (README: Webhooks). */
export interface WebhookBody {
  type: string;
  timestamp: string;
  data: {
    intencaoImpressaoId: number;
    referencia: string | null;
    status: string;
    estado: string;
    motivos: string[];
    confirmacao: string;
    sequence: number;
  };
}

export const eventType = (estado: string) => `intencaoImpressao.${estado}`;

export function webhookBody(e: JobEvent): string {
  const body: WebhookBody = {
    type: eventType(e.estado),
    timestamp: e.at.toISOString(),
    data: {
      intencaoImpressaoId: e.intencaoImpressaoId, referencia: e.referencia, status: e.status, estado: e.estado,
      motivos: e.motivos, confirmacao: e.confirmacao, sequence: e.sequence,
    },
  };
  return JSON.stringify(body);
}

/** The address with `intencaoImpressaoId=N` added to its query: existing receivers read the id there, then call GetById. */
export function withIntentionId(address: string, id: number): string {
  const url = new URL(address);
  url.searchParams.set('intencaoImpressaoId', String(id));
  return url.toString();
}

/** The unit the sender limits in-flight messages by: the receiver's origin (scheme, host, port). */
export function webhookTarget(address: string): string {
  return `origin:${new URL(address).origin}`;
}

export interface OutboxOptions {
  /** Called after messages were written (the transaction may still roll back): wakes an in-process sender early. */
  onEnqueued?: () => void;
}

export function webhookOutbox(options: OutboxOptions = {}): JobEventSink {
  return async (tx, event) => {
    const final = FINAL_STATES.includes(event.estado);
    const subscribed = (WEBHOOK_EVENTS as readonly string[]).includes(event.estado);
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
