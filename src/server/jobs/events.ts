// What a job's state change tells the rest of the service. Every path that changes a job's state
// hands one JobEvent to the app's sink inside the same store transaction as the state and its
// history row, so whatever the sink writes (the webhook outbox) commits with them or not at all.
import type { Repositories } from '../store/repositories.js';

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
}

/** Called inside the transaction that made the change, with that transaction's repositories. */
export type JobEventSink = (tx: Repositories, event: JobEvent) => Promise<void>;

export const FINAL_STATES: readonly JobState[] = ['completed', 'failed', 'canceled', 'expired'];

/**
 * A stopped job with one of these reasons waits for a person, not for its printer: it does not
 * hold its terminal's queue back, and Retomar does not queue it again. `outcome-unknown`: it may be
 * on paper already (Iniciar prints it again). `printer-mismatch`: it was compiled for another
 * printer than its terminal's (Recompilar compiles it for the terminal's printer now).
 */
export const AWAITS_PERSON: readonly string[] = ['outcome-unknown', 'printer-mismatch'];

/** Whether a stopped job waits for its printer (and so holds its terminal's queue back). */
export const waitsForPrinter = (motivos: readonly string[]) => !motivos.some((m) => AWAITS_PERSON.includes(m));

export const ignoreJobEvents: JobEventSink = async () => {};
