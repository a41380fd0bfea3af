// What the fleet tells the rest of the service: a terminal's client gone silent or back, its
// printer's reasons changed, a job stuck. Each is handed to the app's sink inside the transaction
// that decided it (the contact, the offline flip, the stuck-job claim), so whatever the sink writes
// (the webhook outbox) commits with that decision or not at all: one change, one event.
import type { JobState } from '../jobs/events.js';
import type { Repositories } from '../store/repositories.js';

interface About {
  accountId: string;
  terminalId: string;
  at: Date;
}

export type FleetEvent =
  | (About & { type: 'terminal.offline' | 'terminal.online'; lastSeenAt: Date | null })
  | (About & { type: 'printer.status'; ready: boolean; reasons: string[]; before: string[] | null })
  | (Omit<About, 'terminalId'> & {
    type: 'job.stuck'; terminalId: string | null; intencaoImpressaoId: number; referencia: string | null; estado: JobState;
    /** Waiting in the queue, or leased (acquired, printing) without progress. */
    why: 'queued' | 'no-progress';
    since: Date; thresholdMs: number;
  });

export type FleetEventType = FleetEvent['type'];

/** Called inside the transaction that decided the event, with that transaction's repositories. */
export type FleetEventSink = (tx: Repositories, event: FleetEvent) => Promise<void>;

export const ignoreFleetEvents: FleetEventSink = async () => {};
