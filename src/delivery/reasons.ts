// The reasons a printer gives for its state (PWG printer-state-reasons names), and what each one
// means for a job: stop before printing, or print and record it.
import type { StatusReason } from '../profiles/status-schema.js';

export type { StatusReason };

/** Delivery cannot tell whether the job printed (it may be on paper): a person decides. */
export const OUTCOME_UNKNOWN = 'outcome-unknown';

/** Any other trouble (also what a stopped or failed report says when it gives no reason). */
export const OTHER: StatusReason = 'other';

/** The job was compiled for another printer than the terminal's: it is never sent. */
export const PRINTER_MISMATCH = 'printer-mismatch';

/** A job's reasons: the printer's, plus `outcome-unknown` when delivery cannot tell if it printed. */
export type Reason = StatusReason | typeof OUTCOME_UNKNOWN;

/** Each reason the printer can give (StatusReasonSchema's, every one), in the order reports list them; `stops`: the job must not be sent while it holds. */
export const REASONS: Readonly<Record<StatusReason, { stops: boolean; says: string }>> = {
  'media-empty': { stops: true, says: 'paper end' },
  'cover-open': { stops: true, says: 'cover open' },
  other: { stops: true, says: 'printer error' },
  offline: { stops: true, says: 'offline' },
  'media-low': { stops: false, says: 'paper near end' },
};

const ORDER = Object.keys(REASONS) as StatusReason[];

/** Whether a reason is the printer's own (the rest are the client's or the service's words). */
export const isPrinterReason = (reason: string): reason is StatusReason => Object.hasOwn(REASONS, reason);

/**
 * Deduplicated, in table order. `offline` is dropped when a more specific stopping reason is
 * there: an Epson-class printer reports itself offline *because* the paper ran out or the cover
 * is open, and the operator needs to know which.
 */
export function normaliseReasons(reasons: Iterable<StatusReason>): StatusReason[] {
  const set = new Set(reasons);
  if (set.has('offline') && ORDER.some((r) => r !== 'offline' && REASONS[r].stops && set.has(r))) set.delete('offline');
  return ORDER.filter((r) => set.has(r));
}

/** Whether any reason means the job must wait. */
export function stopsPrinting(reasons: Iterable<StatusReason>): boolean {
  for (const r of reasons) if (REASONS[r].stops) return true;
  return false;
}
