// One job to one printer, exactly once as far as this side can make it: the journal is asked first
// (a re-offered job that was already written is reported, not printed again), the printer's status
// next (a stopped printer gets nothing), then "about to write" is made durable, the job written,
// and "written" recorded. `bobina agent` and the service's direct delivery are each a loop around
// this function; they turn its result into the job's next state.
import type { PrinterError } from './errors.js';
import type { Journal } from './journal.js';
import type { Reason } from './reasons.js';
import type { PrinterSession } from './session.js';

export interface DeliveryJob {
  /** The job (print intention) id. */
  id: string;
  /** The delivery token of this attempt (a re-offer comes with a new one). */
  token: string;
  bytes: Uint8Array;
}

export interface DeliverOptions {
  /** The durable journal (an agent has one; without it a crash can print a job twice). */
  journal?: Journal;
  /** Ask for the printer's end-of-print confirmation where the profile has one (default true). */
  confirm?: boolean;
  /**
   * Someone asked for the job to be printed again after an unknown outcome: a journal record of a
   * write that may not have finished does not stop it. (A job the journal says was written never
   * prints again.)
   */
  reprint?: boolean;
  /** Called once the printer said it is ready and "about to write" is durable, just before the first byte. */
  onWrite?: () => void;
}

export type DeliveryResult =
  /** Printed (now, or before: `fromJournal`). */
  | { outcome: 'completed'; confirmacao: 'sent' | 'printer'; motivos: Reason[]; written: number; fromJournal: boolean; detail: string }
  /** Not printed, nothing written: the printer needs attention (or cannot be reached). Try again when it is ready. */
  | { outcome: 'stopped'; motivos: Reason[]; written: 0; detail: string; error?: PrinterError }
  /** Writing started and it is not known whether it finished: print again only when someone says so. */
  | { outcome: 'outcome-unknown'; motivos: Reason[]; written: number; fromJournal: boolean; detail: string; error?: PrinterError };

/**
 * Delivers one job through an open session and closes it.
 *
 * @example
 * const printer = openPrinter('tcp://127.0.0.1:9100', 'MAKER5T20');
 * const result = await deliver(printer, { id: '42', token, bytes }, { journal });
 * // { outcome: 'completed', confirmacao: 'printer', motivos: [], … }
 */
export async function deliver(session: PrinterSession, job: DeliveryJob, options: DeliverOptions = {}): Promise<DeliveryResult> {
  const { journal } = options;
  try {
    const seen = journal?.get(job.id);
    if (seen?.state === 'written') {
      return { outcome: 'completed', confirmacao: seen.confirmacao ?? 'sent', motivos: seen.motivos ?? [], written: job.bytes.length, fromJournal: true, detail: `already written (journal, token ${seen.token})` };
    }
    if (seen?.state === 'writing' && !options.reprint) {
      // The printer's word now goes with it: a job cut off by a paper end is held by the printer,
      // and whoever decides whether to print it again needs to know the paper is out.
      const now = await session.status();
      const motivos = [...new Set<Reason>(['outcome-unknown', ...(seen.motivos ?? []), ...now.reasons])];
      return { outcome: 'outcome-unknown', motivos, written: 0, fromJournal: true, detail: `writing started before (journal, token ${seen.token}) and did not finish; printer now: ${now.detail}` };
    }

    const state = await session.status();
    if (!state.ready) return { outcome: 'stopped', motivos: state.reasons, written: 0, detail: state.detail, ...(state.error ? { error: state.error } : {}) };

    journal?.begin(job.id, job.token);
    options.onWrite?.();
    let outcome;
    try {
      outcome = await session.print(job.bytes, { confirm: options.confirm ?? true });
    } catch (err) {
      const error = err as PrinterError;
      if (error.started === false) {
        journal?.abort(job.id, job.token);
        return { outcome: 'stopped', motivos: ['offline'], written: 0, detail: error.message, error };
      }
      journal?.unknown(job.id, job.token, ['outcome-unknown']);
      return { outcome: 'outcome-unknown', motivos: ['outcome-unknown'], written: error.written ?? 0, fromJournal: false, detail: error.message ?? String(err), ...(error.started ? { error } : {}) };
    }

    const motivos = [...new Set([...state.reasons, ...outcome.motivos])];
    // Every byte went out but the printer did not say it printed them, and now reports a problem
    // (paper ran out mid-job): the receipt may be cut short.
    if (outcome.confirmation === 'timed-out' && outcome.after && !outcome.after.ready) {
      const unknown: Reason[] = ['outcome-unknown', ...outcome.after.reasons];
      journal?.unknown(job.id, job.token, unknown);
      return { outcome: 'outcome-unknown', motivos: unknown, written: outcome.written, fromJournal: false, detail: `no confirmation; printer now: ${outcome.after.detail}` };
    }
    journal?.done(job.id, job.token, outcome.confirmacao, motivos);
    return { outcome: 'completed', confirmacao: outcome.confirmacao, motivos, written: outcome.written, fromJournal: false, detail: outcome.confirmation === 'timed-out' ? 'written; the printer did not confirm' : 'written' };
  } finally {
    await session.close();
  }
}
