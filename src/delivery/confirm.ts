// End-of-print confirmation (profile `status.confirm`, Epson GS ( H fn 48): a process id sent after
// the job, echoed by the printer once everything before it has been printed.
import { crypto } from './builtins.js';
import { concatBytes } from './hex.js';
import type { ConfirmPlan } from './status.js';

/** Digits and capitals: printable (Epson takes 0x20-0x7E) and easy to read in a capture. */
const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A fresh process id of `length` printable bytes. */
export function newProcessId(length: number): Uint8Array {
  return Uint8Array.from({ length }, () => ID_ALPHABET.charCodeAt(crypto().randomInt(ID_ALPHABET.length)));
}

/** What the client sends after the job. */
export function confirmRequest(plan: ConfirmPlan, id: Uint8Array): Uint8Array {
  return concatBytes([plan.request, id]);
}

/** What the printer answers once the job is printed. */
export function confirmReply(plan: ConfirmPlan, id: Uint8Array): Uint8Array {
  return concatBytes([plan.replyPrefix, id, plan.replySuffix]);
}
