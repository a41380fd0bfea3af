// The job lifecycle: THE table (state, event) → state, the public status of each state, and the
// one function every state change goes through. Inside the caller's store transaction it applies
// the change as one guarded statement (it happens only from a state the table allows), appends the
// job's history row, and hands the JobEvent to the app's sink — so a state never commits without
// its history row (or its outbox row, the sink's). Nothing else in the service writes a job's state.
import type { Repositories } from '../store/repositories.js';
import type { ClaimRoute, HistoryEntry, Intention, JobPatch, JobRef, LeaseGuard, NewIntention, Origin } from '../store/types.js';
import { AWAITS_PERSON, FINAL_STATES, type JobEvent, type JobEventSink, type JobState } from './events.js';

/** What happens to a job. `insert-*` start one; the rest move it. */
export type LifecycleEvent =
  | 'insert-held' // aguardarClienteIniciarImpressao = true: waits for the terminal's client to start it
  | 'insert-queued' // the usual case: waits for its terminal's client (or the service, for a terminal with a device)
  | 'insert-printed' // the generic-printer rule (spec §3): Impresso at insert, completed without confirmation
  | 'start' // the client starts a held job, or one whose outcome was unknown (printed again)
  | 'acquire' // leased to one client with a delivery token
  | 'printing' // the client is writing it (the lease is extended)
  | 'completed' // every byte written (confirmacao sent) or the printer confirmed it (printer)
  | 'stopped' // the printer needs attention (media-empty, cover-open, offline) or the outcome is unknown
  | 'failed' // the client gave up on it
  | 'resume' // the printer answers well again: a stopped job waits for its turn again
  | 'lease-expired' // no report before the lease ran out: offered again
  | 'attempts-exhausted' // the lease ran out on the last allowed attempt
  | 'printer-mismatch' // compiled for another printer than its terminal's now: never sent, waits for a person
  | 'recompile' // compiled again for its terminal's printer (Recompilar), and queued
  | 'cancel' // the partner cancels a job nobody holds
  | 'expire'; // never printed within the job time-to-live

/** `new` is the state before insert. Anything not in the table is refused (a final state has no row). */
export const TRANSITIONS: Readonly<Record<JobState | 'new', Partial<Record<LifecycleEvent, JobState>>>> = {
  new: { 'insert-held': 'held', 'insert-queued': 'queued', 'insert-printed': 'completed' },
  held: { start: 'queued', cancel: 'canceled', expire: 'expired' },
  queued: { acquire: 'acquired', 'printer-mismatch': 'stopped', recompile: 'queued', cancel: 'canceled', expire: 'expired' },
  acquired: {
    printing: 'printing', completed: 'completed', stopped: 'stopped', failed: 'failed',
    'lease-expired': 'queued', 'attempts-exhausted': 'failed',
  },
  printing: {
    printing: 'printing', completed: 'completed', stopped: 'stopped', failed: 'failed',
    'lease-expired': 'queued', 'attempts-exhausted': 'failed',
  },
  stopped: { resume: 'queued', start: 'queued', recompile: 'queued', cancel: 'canceled', expire: 'expired' },
  completed: {},
  failed: {},
  canceled: {},
  expired: {},
};

/** The public `status` (spec §3 names, and the documented ones for the other finals). */
export const PUBLIC_STATUS: Readonly<Record<JobState, string>> = {
  held: 'ImpressaoEnviada',
  queued: 'ImpressaoEnviada',
  acquired: 'ImpressaoEnviada',
  printing: 'ImpressaoEnviada',
  stopped: 'ImpressaoEnviada',
  completed: 'Impresso',
  failed: 'FalhaImpressao',
  canceled: 'Cancelado',
  expired: 'Expirado',
};

const STATES = Object.keys(TRANSITIONS).filter((s) => s !== 'new') as JobState[];

/** The states an event applies in. */
export function fromStates(event: LifecycleEvent): JobState[] {
  return STATES.filter((s) => TRANSITIONS[s][event] !== undefined);
}

/** Where an event leads (the table gives every event one target, so the guarded update can be one statement). */
export function target(event: LifecycleEvent): JobState {
  const targets = new Set((Object.keys(TRANSITIONS) as (JobState | 'new')[]).map((s) => TRANSITIONS[s][event]).filter((t) => t !== undefined));
  if (targets.size !== 1) throw new Error(`lifecycle: event ${event} must lead to exactly one state`);
  return [...targets][0]!;
}

/** The state after `event` in `state`, or undefined when the table has no such transition. */
export function next(state: JobState | 'new', event: LifecycleEvent): JobState | undefined {
  return TRANSITIONS[state][event];
}

export const isFinal = (s: JobState) => FINAL_STATES.includes(s);

/**
 * A job in this state with one of these reasons waits for a person, not for its printer: the
 * store's claim (store/sql/intentions.ts) does not let it hold its terminal's queue back.
 */
export const WAITS_FOR_PERSON: { readonly estado: JobState; readonly motivos: readonly string[] } = { estado: 'stopped', motivos: AWAITS_PERSON };

/** The first event of a new job (spec §3's generic-printer rule, and aguardarClienteIniciarImpressao). */
export function insertEvent(o: { generic: boolean; aguardar: boolean }): LifecycleEvent {
  if (o.aguardar) return 'insert-held';
  return o.generic ? 'insert-printed' : 'insert-queued';
}

export interface Change {
  origem: Origin;
  motivos?: string[];
  detalhe?: string | null;
  at: Date;
}

/** A job and its history, as the routes show it. */
export interface JobWithHistory {
  job: Intention;
  history: HistoryEntry[];
}

async function recorded(tx: Repositories, sink: JobEventSink, job: Intention, evento: LifecycleEvent, c: Change): Promise<HistoryEntry> {
  const entry = await tx.intentions.appendHistory(job.id, {
    estado: job.estado, evento, motivos: c.motivos ?? job.motivos, origem: c.origem, detalhe: c.detalhe ?? null, at: c.at,
  });
  const event: JobEvent = {
    accountId: job.accountId, intencaoImpressaoId: job.id, referencia: job.referencia, status: PUBLIC_STATUS[job.estado], estado: job.estado,
    motivos: entry.motivos, confirmacao: job.confirmacao, sequence: entry.seq, at: c.at, urlCallback: job.urlCallback ?? null,
  };
  await sink(tx, event);
  return entry;
}

/** Records a new job in its first state (decided by `event`), with history row 1 and its event. */
export async function insertJob(
  tx: Repositories, sink: JobEventSink, draft: Omit<NewIntention, 'estado' | 'status'>, event: LifecycleEvent, c: Change,
): Promise<JobWithHistory> {
  const estado = next('new', event);
  if (!estado) throw new Error(`lifecycle: ${event} does not start a job`);
  const job = await tx.intentions.insert({ ...draft, estado, status: PUBLIC_STATUS[estado], confirmacao: 'none', motivos: c.motivos ?? [] });
  const entry = await recorded(tx, sink, job, event, c);
  return { job, history: [entry] };
}

/**
 * Moves a job by `event`, if its state allows it (and, with `guard`, if it still holds that
 * delivery token, with a lease run out by `guard.expiredBy` if given): the job after the change,
 * or undefined when nothing changed.
 */
export async function transition(
  tx: Repositories, sink: JobEventSink, ref: JobRef, event: LifecycleEvent, c: Change,
  patch: Omit<JobPatch, 'estado' | 'status'> = {}, guard?: string | LeaseGuard,
): Promise<Intention | undefined> {
  const estado = target(event);
  const job = await tx.intentions.update(ref, fromStates(event), {
    ...patch, estado, status: PUBLIC_STATUS[estado], ...(c.motivos === undefined ? {} : { motivos: c.motivos }),
  }, guard);
  if (job) await recorded(tx, sink, job, event, c);
  return job;
}

/** Leases the next job `route` may take (`acquire`), with a fresh delivery token. */
export async function acquireJob(
  tx: Repositories, sink: JobEventSink, route: ClaimRoute, lease: { token: string; expiresAt: Date }, c: Change,
): Promise<Intention | undefined> {
  const estado = target('acquire');
  const job = await tx.intentions.claim(route, fromStates('acquire'), {
    estado, status: PUBLIC_STATUS[estado], motivos: [], tentativasIncrement: true,
    leasedTo: route.terminalId, leaseToken: lease.token, leaseExpiresAt: lease.expiresAt,
  });
  if (job) await recorded(tx, sink, job, 'acquire', c);
  return job;
}

/** Ignored reports kept as history rows per job; the rest are only counted (`ignoredReports`). */
export const MAX_IGNORED_IN_HISTORY = 10;

/**
 * A report that changes nothing (a stale token, a job already final, a repeat): counted on the job,
 * and for the first MAX_IGNORED_IN_HISTORY recorded in the history with the job's current state;
 * no event (nothing happened to the job). A client repeating reports cannot grow the job.
 */
export async function recordIgnored(tx: Repositories, job: Intention, c: Change): Promise<Intention> {
  const ignoredReports = await tx.intentions.countIgnoredReport(job);
  if (ignoredReports <= MAX_IGNORED_IN_HISTORY) {
    await tx.intentions.appendHistory(job.id, {
      estado: job.estado, evento: 'ignored-report', motivos: c.motivos ?? [], origem: c.origem, detalhe: c.detalhe ?? null, at: c.at,
    });
  }
  return { ...job, ignoredReports };
}
