// The webhook vocabulary: what an endpoint may subscribe to, the message body receivers get
// (README: Webhooks), its type, and where and to which receiving origin a message goes. The outbox
// (outbox.ts) writes messages in these words; the sender (sender.ts) delivers them.
import { FINAL_STATES, type JobEvent } from '../jobs/events.js';
import type { WebhookEvent } from '../store/types.js';

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
