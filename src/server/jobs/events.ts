// What a job's state change tells the rest of the service. Every path that changes a job's state
// hands one JobEvent to the app's sink inside the same store transaction as the state and its
// history row, so whatever the sink writes (the webhook outbox) commits with them or not at all.
import type { Repositories } from '../store/repositories.js';
import type { LifecycleEvent } from './lifecycle.js';

export type JobState = 'held' | 'queued' | 'acquired' | 'printing' | 'stopped' | 'completed' | 'failed' | 'canceled' | 'expired';

export type Confirmation = 'none' | 'sent' | 'printer';

export interface JobEvent {
  accountId: string;
  intencaoImpressaoId: number;
  referencia: string | null;
  /** The public status (spec names: ImpressaoEnviada, Impresso, FalhaImpressao, Cancelado, Expirado). */
  status: string;
  estado: JobState;
  motivos: string[];
  confirmacao: Confirmation;
  /** 1 for the job's first history row, then one more per row: orders a job's events for a receiver. */
  sequence: number;
  at: Date;
  /** The per-intention callback address given on Insert, if any. */
  urlCallback?: string | null;
  /** The lifecycle event (lifecycle.ts) that made the change. */
  evento: LifecycleEvent;
  /** The state the job was in before it (`new` for a job's first state). */
  from: JobState | 'new';
  /** When the job was inserted. */
  createdAt: Date;
}

/** Called inside the transaction that made the change, with that transaction's repositories. */
export type JobEventSink = (tx: Repositories, event: JobEvent) => Promise<void>;

/** The final states and the reasons of a stopped job that waits for a person: the lifecycle table's (lifecycle.ts). */
export { FINAL_STATES } from './lifecycle.js';
import { WAITS_FOR_PERSON } from './lifecycle.js';
/** WAITS_FOR_PERSON's reasons, under the name the stores used before lifecycle.ts held them. */
export const AWAITS_PERSON: readonly string[] = WAITS_FOR_PERSON.motivos;

export const ignoreJobEvents: JobEventSink = async () => {};
