// The webhook vocabulary: what an endpoint may subscribe to, the message body receivers get
// (README: Webhooks), its type, and where and to which receiving origin a message goes. The outbox
// (outbox.ts) writes messages in these words; the sender (sender.ts) delivers them.
import type { FleetEvent } from '../fleet/events.js';
import { FINAL_STATES, type JobEvent } from '../jobs/events.js';
import type { FleetWebhookEvent, JobWebhookEvent, WebhookEvent } from '../store/types.js';

/** A job's states an endpoint may subscribe to: every final state (the default) and `stopped`. */
export const JOB_EVENTS: readonly JobWebhookEvent[] = ['completed', 'failed', 'canceled', 'expired', 'stopped'];
/** The fleet's events (docs/webhooks.md), each only when asked for. */
export const FLEET_EVENTS: readonly FleetWebhookEvent[] = ['terminal.offline', 'terminal.online', 'printer.status', 'job.stuck'];
/** What an endpoint may subscribe to. */
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = [...JOB_EVENTS, ...FLEET_EVENTS];
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

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Each fleet event's `data` (docs/webhooks.md: Fleet events). */
const FLEET_DATA: { [T in FleetEvent['type']]: (e: FleetEvent & { type: T }) => Record<string, unknown> } = {
  'terminal.offline': (e) => ({ terminalId: e.terminalId, online: false, ultimoContato: iso(e.lastSeenAt) }),
  'terminal.online': (e) => ({ terminalId: e.terminalId, online: true, ultimoContato: iso(e.lastSeenAt) }),
  'printer.status': (e) => ({ terminalId: e.terminalId, pronta: e.ready, motivos: e.reasons, motivosAntes: e.before ?? [], verificadoEm: iso(e.at) }),
  'job.stuck': (e) => ({
    intencaoImpressaoId: e.intencaoImpressaoId, referencia: e.referencia, terminalId: e.terminalId, estado: e.estado, motivo: e.why,
    desde: iso(e.since), limiteSegundos: e.thresholdMs / 1000,
  }),
};

export function fleetWebhookBody(e: FleetEvent): string {
  const data = (FLEET_DATA[e.type] as (e: FleetEvent) => Record<string, unknown>)(e);
  return JSON.stringify({ type: e.type, timestamp: e.at.toISOString(), data });
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
