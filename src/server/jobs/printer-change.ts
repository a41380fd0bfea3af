// A terminal whose printer was changed (`bobina terminals add` again with another --printer) still
// has jobs compiled for the old one. Such a job is never sent: when its terminal's client asks for
// work, it stops with `printer-mismatch` (its history says which printer it was compiled for and
// which one the terminal has now) and waits for a person, who compiles it again for the terminal's
// printer (Recompilar) or cancels it. Both changes go through the lifecycle table.
import { PRINTER_MISMATCH } from '../../delivery/reasons.js';
import { loadProfile, type Diagnostic } from '../../index.js';
import type { Repositories } from '../store/repositories.js';
import type { ClaimRoute, Intention, JobRef } from '../store/types.js';
import type { JobEventSink } from './events.js';
import { fromStates, requeueRefusal, transition } from './lifecycle.js';

/** At most this many jobs are stopped per claim (the rest on the next one). */
const BATCH = 100;

/**
 * Inside a claim's transaction: stops the route's own jobs waiting in the queue that were compiled
 * for another template than the terminal's printer, so the claim that follows never hands one out.
 */
export async function stopMismatched(tx: Repositories, sink: JobEventSink, route: ClaimRoute, at: Date): Promise<void> {
  if (route.printerId === null) return;
  const jobs = await tx.intentions.mismatched(route, fromStates('printer-mismatch'), BATCH);
  if (!jobs.length) return;
  const now = loadProfile(route.printerId).code;
  for (const job of jobs) {
    await transition(tx, sink, job, 'printer-mismatch', {
      origem: 'server', at, motivos: [PRINTER_MISMATCH],
      detalhe: `compiled for ${job.codigoImpressora}, and terminal ${route.terminalId} prints on ${now}: not sent; compile it again for ${now} (Recompilar) or cancel it`,
    });
  }
}

export interface Recompiled {
  bytes: Uint8Array;
  diagnostics: Diagnostic[];
}

/** Why a job cannot be compiled again, or undefined when it can (for the printer `printerId`). */
export function notRecompilable(job: Intention, printerId: number | null | undefined): string | undefined {
  if (!fromStates('recompile').includes(job.estado)) return `the job is ${job.estado}: only a job waiting in the queue or stopped is compiled again`;
  if (job.terminalId === null) return 'the job has no terminal whose printer to compile it for';
  if (printerId === null || printerId === undefined) return `terminal ${job.terminalId} has no linked printer to compile the job for`;
  return requeueRefusal(job);
}

/**
 * Whether compiling a job again for `printerId` changes nothing: it is queued already, compiled for
 * that printer, to the same bytes and diagnostics. Recompilar then leaves it as it is (no history
 * row, no event), so repeating it cannot grow the job's history nor its webhook messages.
 */
export function unchanged(job: Intention, printerId: number, out: Recompiled): boolean {
  return job.estado === 'queued' && job.impressoraId === printerId && Buffer.from(job.bytes).equals(out.bytes)
    && JSON.stringify(job.diagnostics) === JSON.stringify(out.diagnostics);
}

/** Inside a transaction: the job with its new bytes and template, queued again; undefined if its state changed meanwhile. */
export async function recompiled(
  tx: Repositories, sink: JobEventSink, job: Intention & JobRef, printerId: number, out: Recompiled, at: Date,
): Promise<Intention | undefined> {
  const profile = loadProfile(printerId);
  return transition(tx, sink, job, 'recompile', {
    origem: 'server', at, motivos: [], detalhe: `compiled again for ${profile.code} (it was compiled for ${job.codigoImpressora})`,
  }, { compiled: { ...out, impressoraId: profile.id, codigoImpressora: profile.code } });
}
