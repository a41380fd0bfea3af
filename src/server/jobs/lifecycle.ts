// The job lifecycle: THE table (state, event) → state, the public status of each state, what a
// terminal's report does, and the one function every state change goes through. Inside the
// caller's store transaction it applies the change as one guarded statement (it happens only from
// a state the table allows), appends the job's history row, and hands the JobEvent to the app's
// sink — so a state never commits without its history row (or its outbox row, the sink's).
// Nothing else in the service writes a job's state.
import { OUTCOME_UNKNOWN, PRINTER_MISMATCH } from '../../delivery/reasons.js';
import type { ReportState } from '../../delivery/protocol.js';
import type { Repositories } from '../store/repositories.js';
import type { ClaimRoute, HistoryEntry, Intention, JobPatch, JobRef, LeaseGuard, NewIntention, Origin } from '../store/types.js';
import type { JobEvent, JobEventSink, JobState } from './events.js';

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

/**
 * A job's state as the rules see it. A stopped job waits for its printer (`stopped`: it holds its
 * terminal's queue back, Retomar queues it again) or for a person: `unknown-outcome` (it may be on
 * paper already; Iniciar prints it again) and `mismatched` (compiled for another printer than its
 * terminal's; Recompilar compiles it for that one). The store keeps all three as `stopped` (the
 * public `estado`), told apart by a reason in `motivos` (STOPPED_BY_REASON).
 */
export type Phase = JobState | 'unknown-outcome' | 'mismatched';

/** `new` is the state before insert. Anything not in the table is refused (a final state has no row). */
export const TRANSITIONS: Readonly<Record<Phase | 'new', Partial<Record<LifecycleEvent, JobState>>>> = {
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
  stopped: { resume: 'queued', recompile: 'queued', cancel: 'canceled', expire: 'expired' },
  'unknown-outcome': { start: 'queued', recompile: 'queued', cancel: 'canceled', expire: 'expired' },
  mismatched: { recompile: 'queued', cancel: 'canceled', expire: 'expired' },
  completed: {},
  failed: {},
  canceled: {},
  expired: {},
};

/** The phases the store keeps as `stopped`, by the reason that says which (the first one a job has wins). */
export const STOPPED_BY_REASON: readonly (readonly [reason: string, phase: Phase])[] = [
  [OUTCOME_UNKNOWN, 'unknown-outcome'],
  [PRINTER_MISMATCH, 'mismatched'],
];

/** The state the store keeps for a phase (and the public `estado`). */
const stored = (p: Phase): JobState => (STOPPED_BY_REASON.some(([, phase]) => phase === p) ? 'stopped' : (p as JobState));

/** A job's phase: its state, and for a stopped job its reasons. */
export function phaseOf(job: { estado: JobState; motivos: readonly string[] }): Phase {
  if (job.estado !== 'stopped') return job.estado;
  return STOPPED_BY_REASON.find(([reason]) => job.motivos.includes(reason))?.[1] ?? 'stopped';
}

/** Whether `event` may happen to this job now. */
export const allows = (job: { estado: JobState; motivos: readonly string[] }, event: LifecycleEvent) => TRANSITIONS[phaseOf(job)][event] !== undefined;

/**
 * The stopped jobs that wait for a person, not for their printer: they do not hold their terminal's
 * queue back. What the store's claim needs (it keeps state and reasons apart): the state, and the
 * reasons that put a stopped job in a phase Retomar does not move.
 */
export const WAITS_FOR_PERSON: { readonly estado: JobState; readonly motivos: readonly string[] } = {
  estado: 'stopped',
  motivos: STOPPED_BY_REASON.filter(([, phase]) => TRANSITIONS[phase].resume === undefined).map(([reason]) => reason),
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

const PHASES = Object.keys(TRANSITIONS).filter((s) => s !== 'new') as Phase[];

/** The states that never change: those with no way out. */
export const FINAL_STATES: readonly JobState[] = PHASES.filter((p) => Object.keys(TRANSITIONS[p]).length === 0).map(stored);

/** Every transition the table allows, as the store records it (a phase kept as `stopped` is `stopped`): the metrics' label sets. */
export const STORED_TRANSITIONS: readonly { from: JobState | 'new'; event: LifecycleEvent; to: JobState }[] = [
  ...new Map((Object.keys(TRANSITIONS) as (Phase | 'new')[]).flatMap((p) => (Object.entries(TRANSITIONS[p]) as [LifecycleEvent, JobState][]).map(([event, to]) => {
    const from = p === 'new' ? 'new' : stored(p);
    return [`${from} ${event}`, { from, event, to }] as const;
  }))).values(),
];

/** The states (as stored) an event applies in. */
export function fromStates(event: LifecycleEvent): JobState[] {
  return [...new Set(PHASES.filter((p) => TRANSITIONS[p][event] !== undefined).map(stored))];
}

/** Where an event leads (the table gives every event one target, so the guarded update can be one statement). */
export function target(event: LifecycleEvent): JobState {
  const targets = new Set((Object.keys(TRANSITIONS) as (Phase | 'new')[]).map((s) => TRANSITIONS[s][event]).filter((t) => t !== undefined));
  if (targets.size !== 1) throw new Error(`lifecycle: event ${event} must lead to exactly one state`);
  return [...targets][0]!;
}

/** The state after `event` in `state`, or undefined when the table has no such transition. */
export function next(state: Phase | 'new', event: LifecycleEvent): JobState | undefined {
  return TRANSITIONS[state][event];
}

export const isFinal = (s: JobState) => FINAL_STATES.includes(s);

/**
 * What a terminal's report does to a job it holds, by its `estado`: the event; which reasons the
 * change records (the report's, `other` when it gives none, or the job's own); the lease (extended
 * while printing, released at the end); whether it says how the job is known to be printed. A
 * report that would leave the job where it is (printing, again) renews the lease instead: no
 * history row, nothing happened to the job.
 */
export const REPORTS: Readonly<Record<ReportState, {
  event: LifecycleEvent; reasons: 'report' | 'report-or-other' | 'job'; lease: 'extend' | 'release'; confirms?: true;
  /** The event instead, on a job leased MAX_DELIVERIES times or more (with the reason MAX_DELIVERIES_REASON). */
  exhausted?: LifecycleEvent;
}>> = {
  printing: { event: 'printing', reasons: 'job', lease: 'extend' },
  completed: { event: 'completed', reasons: 'report', lease: 'release', confirms: true },
  stopped: { event: 'stopped', reasons: 'report-or-other', lease: 'release', exhausted: 'failed' },
  failed: { event: 'failed', reasons: 'report-or-other', lease: 'release' },
};

/**
 * A job leased this many times ends failed at its next stop, with this reason: each stop and
 * Retomar is a lease and history rows, and a client that kept one job going round for ever grew its
 * history, and its GetById answer, without end (a probe: 3,624 rows and 1 MB in three minutes).
 * A printer that runs out of paper 100 times on one job is not printing it.
 */
export const MAX_DELIVERIES = 100;
export const MAX_DELIVERIES_REASON = 'max-deliveries';

/**
 * Why a person may not queue a job again (Iniciar, Recompilar): leased MAX_DELIVERIES times
 * already. A stop with its outcome unknown is never failed (it may be on paper), so this is what
 * bounds its stop-and-start loop: each round is a lease and a few history rows, and a program
 * calling Iniciar at every such stop grew the job's history, and its GetById answer, without end
 * (a probe: 8,801 rows, a 3.2 MB answer). Reimprimir prints it again as a new job.
 */
export const requeueRefusal = (job: { tentativas: number }): string | undefined =>
  job.tentativas >= MAX_DELIVERIES ? `The print intention was leased ${MAX_DELIVERIES} times; Reimprimir prints it again as a new job` : undefined;

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
  const { entry, before } = await tx.intentions.appendTransition(job.id, {
    estado: job.estado, evento, motivos: c.motivos ?? job.motivos, origem: c.origem, detalhe: c.detalhe ?? null, at: c.at,
  });
  const event: JobEvent = {
    accountId: job.accountId, intencaoImpressaoId: job.id, referencia: job.referencia, status: PUBLIC_STATUS[job.estado], estado: job.estado,
    motivos: entry.motivos, confirmacao: job.confirmacao, sequence: entry.seq, at: c.at, urlCallback: job.urlCallback ?? null,
    evento, from: before ?? 'new', createdAt: job.createdAt,
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
 * Whether `event` uses up a job's reprint (Iniciar after an unknown outcome sets `reprint`, which lets
 * the client print what its journal saw start): the lease it was offered under ended, and writing
 * may have begun (completed, failed, a lease that ran out, stopped with an unknown outcome). Used up,
 * the job's next offer says `reimprimir: false`, so a client whose reprint was cut off (killed, the
 * lease lost) reports outcome-unknown again instead of printing it once more: printing again takes
 * a person's Iniciar each time. Stopped for its printer, nothing was written (the client reads its
 * status before the first byte): the reprint waits for the printer with the job.
 */
export function usesUpReprint(event: LifecycleEvent, motivos: readonly string[] | undefined): boolean {
  if (!ENDS_LEASE.has(event)) return false;
  return target(event) !== 'stopped' || phaseOf({ estado: 'stopped', motivos: motivos ?? [] }) === 'unknown-outcome';
}

/** The events that end a lease: every way out of a leased job's phase (`printing`) but another report of printing. */
const ENDS_LEASE: ReadonlySet<LifecycleEvent> = new Set(
  (Object.entries(TRANSITIONS.printing) as [LifecycleEvent, JobState][]).filter(([, to]) => to !== 'printing').map(([event]) => event),
);

/**
 * Moves a job by `event`, if its state allows it (and, with `guard`, if it still holds that
 * delivery token, with a lease run out by `guard.expiredBy` if given; with `only`, if it is still in
 * one of those states, as read): the job after the change, or undefined when nothing changed.
 */
export async function transition(
  tx: Repositories, sink: JobEventSink, ref: JobRef, event: LifecycleEvent, c: Change,
  patch: Omit<JobPatch, 'estado' | 'status'> = {}, guard?: string | LeaseGuard, only?: readonly JobState[],
): Promise<Intention | undefined> {
  const estado = target(event);
  const from = fromStates(event).filter((s) => only === undefined || only.includes(s));
  if (from.length === 0) return undefined;
  const job = await tx.intentions.update(ref, from, {
    ...patch, estado, status: PUBLIC_STATUS[estado], ...(c.motivos === undefined ? {} : { motivos: c.motivos }),
    ...(usesUpReprint(event, c.motivos) ? { reprint: false } : {}),
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
 * Undefined when the job is gone.
 */
export async function recordIgnored(tx: Repositories, job: Intention, c: Change): Promise<Intention | undefined> {
  const ignoredReports = await tx.intentions.countIgnoredReport(job);
  // Deleted since it was read (retention: a final job's report racing the purge): nothing to count on.
  if (ignoredReports === undefined) return undefined;
  if (ignoredReports <= MAX_IGNORED_IN_HISTORY) {
    await tx.intentions.appendHistory(job.id, {
      estado: job.estado, evento: 'ignored-report', motivos: c.motivos ?? [], origem: c.origem, detalhe: c.detalhe ?? null, at: c.at,
    });
  }
  return { ...job, ignoredReports };
}
