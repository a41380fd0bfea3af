// The job use cases: insert, cancel, and the terminal side (next job by long-poll, report, list
// held, start, resume), plus the lease and expiry sweeps. Each state change is one store
// transaction through lifecycle.ts; a job that becomes queued wakes its terminal's long-poll
// (notifier.ts) once that transaction has committed. The routes and the service's own direct
// delivery both call this, so a job is delivered the same way whoever delivers it.
import { randomBytes } from 'node:crypto';
import { MAX_WAIT_MS, reportOrigin, type ReportState, type TerminalReport, type TerminalView } from '../../delivery/protocol.js';
import { loadProfile } from '../../index.js';
import { Problem } from '../errors.js';
import type { Store } from '../store/repositories.js';
import type { ClaimRoute, HistoryEntry, IdempotentAnswer, Intention, IntentionSummary, JobRef, NewIntention, Principal } from '../store/types.js';
import { periodic, type BackgroundWorker } from '../workers/worker.js';
import { ignoreJobEvents, waitsForPrinter, type JobEventSink } from './events.js';
import { acquireJob, fromStates, insertEvent, insertJob, isFinal, recordIgnored, transition, type JobWithHistory } from './lifecycle.js';
import { QueueNotifier } from './notifier.js';
import { notRecompilable, recompiled, stopMismatched, type Recompiled } from './printer-change.js';

export interface JobSettings {
  /** How long a client holds a job without reporting before it is offered again (default 30 s). */
  leaseMs: number;
  /** Leases that may run out before the job is failed (default 5). */
  maxAttempts: number;
  /** A job never printed expires this long after it was made (default 24 h). */
  ttlMs: number;
}

export const DEFAULT_JOB_SETTINGS: JobSettings = { leaseMs: 30_000, maxAttempts: 5, ttlMs: 24 * 60 * 60 * 1000 };


/** What a client is handed: the job, its bytes, the template to speak, and the delivery token. */
export interface Offer {
  job: Intention;
  token: string;
}

export { MAX_WAIT_MS };
export type { ReportState, TerminalView };
/** A client's report on a job it holds (the terminal protocol's). */
export type Report = TerminalReport;

const terminalOf = (p: Principal): { accountId: string; terminalId: string } => {
  if (p.kind !== 'terminal') throw new Problem('terminal-key-required');
  return p;
};

/** A job's delivery token: 128 random bits. */
const newDeliveryToken = () => randomBytes(16).toString('base64url');

export type Recorded = { created: JobWithHistory; answer?: IdempotentAnswer } | { replay: IdempotentAnswer };

export class Jobs {
  readonly notifier = new QueueNotifier();
  readonly settings: JobSettings;
  /** Leases are not expired before this time (set when the sweeps start). */
  private graceUntil = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly store: Store, private readonly sink: JobEventSink = ignoreJobEvents, settings: Partial<JobSettings> = {}) {
    this.settings = { ...DEFAULT_JOB_SETTINGS, ...Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) };
    // Jobs queued by another instance wake this one's long-polls too.
    this.unsubscribe = store.signals?.subscribe((key) => this.notifier.notify(key), () => this.notifier.notifyAll()) ?? (() => undefined);
  }

  // ---- partner side

  /**
   * Records a compiled intention in its first state with history row 1, in one transaction with its
   * Idempotency-Key answer (serialised by the route once the job has its id).
   */
  async insert(
    draft: Omit<NewIntention, 'estado' | 'status' | 'expiresAt'>,
    o: { generic: boolean; idempotency?: { key: string; requestHash: string; statusCode: number }; serialise: (j: JobWithHistory) => string },
  ): Promise<Recorded> {
    const now = draft.createdAt;
    const event = insertEvent({ generic: o.generic, aguardar: draft.aguardarClienteIniciarImpressao });
    const recorded = await this.store.transaction(async (tx): Promise<Recorded> => {
      if (o.idempotency) {
        // Checked again inside the transaction: two concurrent requests with one key insert once.
        const prior = await tx.intentions.findIdempotent(draft.accountId, o.idempotency.key);
        if (prior) return { replay: prior };
      }
      // A job with no terminal goes to the account's template-jobs terminals; with none, it says so.
      const routeless = event === 'insert-queued' && draft.terminalId === null && !(await tx.terminals.hasTemplateRoute(draft.accountId, draft.impressoraId));
      const created = await insertJob(tx, this.sink, { ...draft, expiresAt: new Date(now.getTime() + this.settings.ttlMs) }, event, {
        origem: 'server', at: now, ...(routeless ? { motivos: ['no-route'], detalhe: 'no terminal of this account takes template jobs for this printer' } : {}),
      });
      if (!o.idempotency) return { created };
      const answer = { requestHash: o.idempotency.requestHash, statusCode: o.idempotency.statusCode, body: o.serialise(created) };
      await tx.intentions.saveIdempotent(draft.accountId, o.idempotency.key, answer);
      return { created, answer };
    });
    if ('created' in recorded) this.queued(recorded.created.job);
    return recorded;
  }

  async get(accountId: string, id: number): Promise<JobWithHistory | undefined> {
    const job = await this.store.intentions.get(accountId, id);
    return job && { job, history: await this.store.intentions.history(accountId, id) };
  }

  /**
   * Compiles a job again for its terminal's printer now (after the terminal was linked to another
   * printer) and queues it; `compile` compiles the job's conteudo for a template id (and throws the
   * route's problem for content errors). 409 job-not-recompilable when the job is not queued or
   * stopped, or its terminal has no printer.
   */
  async recompile(accountId: string, id: number, compile: (conteudo: string, printerId: number) => Promise<Recompiled>): Promise<JobWithHistory> {
    const job = await this.store.intentions.get(accountId, id);
    if (!job) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    const terminal = job.terminalId === null ? undefined : await this.store.terminals.find(accountId, job.terminalId);
    const why = notRecompilable(job, terminal?.printerId);
    if (why) throw new Problem('job-not-recompilable', { intencaoImpressaoId: id, estado: job.estado }, why);
    const printerId = terminal!.printerId!;
    const out = await compile(job.conteudo, printerId);
    const result = await this.store.transaction(async (tx) => {
      const changed = await recompiled(tx, this.sink, { ...job, accountId }, printerId, out, new Date());
      if (!changed) throw new Problem('job-not-recompilable', { intencaoImpressaoId: id }, 'the job changed state meanwhile: ask again');
      return { job: changed, history: await tx.intentions.history(accountId, id) };
    });
    this.queued(result.job);
    return result;
  }

  /** Cancels a job nobody holds (held, queued, stopped); 409 once a client has it or it is final. */
  async cancel(accountId: string, id: number): Promise<JobWithHistory> {
    const result = await this.store.transaction(async (tx) => {
      const changed = await transition(tx, this.sink, { accountId, id }, 'cancel', { origem: 'server', at: new Date(), motivos: [], detalhe: 'canceled by the partner' });
      if (changed) return { job: changed, history: await tx.intentions.history(accountId, id) };
      const job = await tx.intentions.get(accountId, id);
      if (!job) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
      throw new Problem('job-not-cancelable', { intencaoImpressaoId: id, estado: job.estado });
    });
    return result;
  }

  // ---- terminal side

  /** The queue a terminal's client serves, or undefined when the terminal is unknown or disabled. */
  private async route(p: Principal): Promise<ClaimRoute | undefined> {
    const { accountId, terminalId } = terminalOf(p);
    const t = await this.store.terminals.find(accountId, terminalId);
    if (!t || !t.enabled) return undefined;
    return { accountId, terminalId, templateJobs: t.templateJobs === true, printerId: t.printerId };
  }

  /**
   * Leases the terminal's next job, waiting up to `waitMs` for one to be queued (woken at once by
   * the notifier, not by polling). Undefined when none came, or the wait was aborted.
   */
  async next(p: Principal, waitMs: number, signal?: AbortSignal): Promise<Offer | undefined> {
    const { accountId, terminalId } = terminalOf(p);
    const deadline = Date.now() + Math.min(Math.max(0, waitMs), MAX_WAIT_MS);
    const keys = [QueueNotifier.terminal(accountId, terminalId), QueueNotifier.templates(accountId)];
    for (;;) {
      if (this.notifier.isClosed || signal?.aborted) return undefined;
      const seen = this.notifier.snapshot(keys);
      const route = await this.route(p);
      if (route) {
        const token = newDeliveryToken();
        const now = new Date();
        const job = await this.store.transaction(async (tx) => {
          // A job compiled for another printer than the terminal's is never handed out (printer-change.ts).
          await stopMismatched(tx, this.sink, route, now);
          return acquireJob(tx, this.sink, route, { token, expiresAt: new Date(now.getTime() + this.settings.leaseMs) }, { origem: 'server', at: now });
        });
        if (job) return { job, token };
      }
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      if (!(await this.notifier.wait(keys, seen, left, signal)) && Date.now() >= deadline) return undefined;
    }
  }

  /**
   * What a terminal's client needs to know of its terminal besides jobs: the printer linked to it now
   * (its status queries speak that printer's dialect) and how many of its jobs are stopped waiting for
   * that printer (none: there is nothing to wait for). Undefined for an unknown or disabled terminal.
   */
  async terminalView(p: Principal): Promise<TerminalView | undefined> {
    const route = await this.route(p);
    if (!route) return undefined;
    const stopped = await this.store.intentions.listForRoute(route, ['stopped']);
    const printer = route.printerId === null ? undefined : loadProfile(route.printerId);
    return {
      impressoraId: printer?.id ?? null, codigoImpressora: printer?.code ?? null,
      parados: stopped.filter((j) => j.leasedTo === route.terminalId && waitsForPrinter(j.motivos)).length,
    };
  }

  /**
   * A client's report on a job it holds. Applied when the job still holds `token` and its state
   * allows it; otherwise counted (the first few in its history) and ignored (`aceito: false`).
   */
  async report(p: Principal, r: Report): Promise<{ aceito: boolean; job: Intention }> {
    const { accountId, terminalId } = terminalOf(p);
    const now = new Date();
    const motivos = [...new Set(r.motivos ?? [])];
    const origem = reportOrigin(r, motivos);
    const change = { origem, at: now, motivos, detalhe: r.detalhe ?? null } as const;
    const result = await this.store.transaction(async (tx) => {
      const job = await tx.intentions.get(accountId, r.id);
      // Only a job of this terminal (its own, or one it holds or held) is reported on.
      if (!job || (job.terminalId !== terminalId && job.leasedTo !== terminalId)) throw new Problem('intention-not-found', { intencaoImpressaoId: r.id });
      const ref: JobRef = { accountId, id: r.id };
      let changed: Intention | undefined;
      if (job.leasedTo === terminalId) {
        switch (r.estado) {
          case 'printing': {
            const until = new Date(now.getTime() + this.settings.leaseMs);
            // Printing again: a renewal (Renovar), so the history does not grow.
            if (job.estado === 'printing') {
              changed = await tx.intentions.renewLease(ref, ['printing'], { token: r.token, leasedTo: terminalId }, until) ? { ...job, leaseExpiresAt: until } : undefined;
            } else {
              changed = await transition(tx, this.sink, ref, 'printing', { ...change, motivos: job.motivos }, { leaseExpiresAt: until }, r.token);
            }
            break;
          }
          case 'completed':
            changed = await transition(tx, this.sink, ref, 'completed', change, { confirmacao: r.confirmacao ?? 'sent', leaseToken: null, leaseExpiresAt: null, reprint: false }, r.token);
            break;
          case 'stopped':
            changed = await transition(tx, this.sink, ref, 'stopped', { ...change, motivos: motivos.length ? motivos : ['other'] }, { leaseToken: null, leaseExpiresAt: null }, r.token);
            break;
          case 'failed':
            changed = await transition(tx, this.sink, ref, 'failed', { ...change, motivos: motivos.length ? motivos : ['other'] }, { leaseToken: null, leaseExpiresAt: null }, r.token);
            break;
        }
      }
      if (!changed) {
        const why = isFinal(job.estado) ? `job already ${job.estado}` : job.leaseToken !== r.token ? 'stale delivery token' : `not allowed in ${job.estado}`;
        return { aceito: false, job: await recordIgnored(tx, job, { origem: 'client', at: now, motivos, detalhe: `report ${r.estado} ignored: ${why}` }) };
      }
      return { aceito: true, job: changed };
    });
    return result;
  }

  /**
   * A client still delivering a job it holds (README: "Renovar"): the lease runs `leaseMs` from now
   * again. No history row and no event: nothing happened to the job. `aceito: false` when the
   * client no longer holds it (the lease ran out and it was offered again, or it is final).
   */
  async renew(p: Principal, r: { id: number; token: string }): Promise<{ aceito: boolean; leaseMs: number }> {
    const { accountId, terminalId } = terminalOf(p);
    const until = new Date(Date.now() + this.settings.leaseMs);
    const aceito = await this.store.intentions.renewLease({ accountId, id: r.id }, fromStates('lease-expired'), { token: r.token, leasedTo: terminalId }, until);
    return { aceito, leaseMs: this.settings.leaseMs };
  }

  /**
   * The terminal's jobs waiting for someone to start them (held ones, and stopped ones whose outcome
   * is unknown), among the next `limit` held or stopped jobs with ids above `afterId`, without their
   * content; `next` is the id to go on from, or null when there are no more.
   */
  async held(p: Principal, afterId: number, limit: number): Promise<{ jobs: IntentionSummary[]; next: number | null }> {
    const route = await this.route(p);
    if (!route) return { jobs: [], next: null };
    const page = await this.store.intentions.listSummaries(route, ['held', 'stopped'], afterId, limit);
    return {
      jobs: page.filter((j) => j.estado === 'held' || j.motivos.includes('outcome-unknown')),
      next: page.length === limit ? page[page.length - 1]!.id : null,
    };
  }

  /** Starts a held job, or prints again one whose outcome was unknown (the client's journal lets it through). */
  async start(p: Principal, id: number): Promise<JobWithHistory> {
    const { accountId } = terminalOf(p);
    const route = await this.route(p);
    const found = await this.store.intentions.get(accountId, id);
    if (!found || !route || !this.mayServe(route, found)) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    const reprint = found.estado === 'stopped' && found.motivos.includes('outcome-unknown');
    if (found.estado !== 'held' && !reprint) throw new Problem('job-not-startable', { intencaoImpressaoId: id, estado: found.estado });
    const result = await this.store.transaction(async (tx) => {
      const changed = await transition(
        tx, this.sink, found, 'start',
        { origem: 'client', at: new Date(), motivos: [], detalhe: reprint ? 'started again after an unknown outcome' : 'started by the client' },
        reprint ? { reprint: true } : {},
      );
      if (!changed) throw new Problem('job-not-startable', { intencaoImpressaoId: id, estado: found.estado });
      return { job: changed, history: await tx.intentions.history(accountId, id) };
    });
    this.queued(result.job);
    return result;
  }

  /** The printer answers well again: the terminal's stopped jobs (not those of unknown outcome) are queued again, in order. */
  async resume(p: Principal): Promise<number> {
    const route = await this.route(p);
    if (!route) return 0;
    const stopped = (await this.store.intentions.listForRoute(route, ['stopped'])).filter((j) => waitsForPrinter(j.motivos));
    let count = 0;
    for (const job of stopped) {
      const changed = await this.store.transaction((tx) => transition(tx, this.sink, job, 'resume', { origem: 'client', at: new Date(), motivos: [], detalhe: 'the printer is ready again' }));
      if (changed) {
        count++;
        this.queued(changed);
      }
    }
    return count;
  }

  private mayServe(route: ClaimRoute, job: Intention): boolean {
    if (job.terminalId === route.terminalId || job.leasedTo === route.terminalId) return true;
    return route.templateJobs && job.terminalId === null && (route.printerId === null || route.printerId === job.impressoraId);
  }

  // ---- sweeps

  /**
   * Leases that ran out: offered again, or failed after the last allowed attempt. Not within one
   * lease length of the service starting: a client could not report while it was down.
   */
  async expireLeases(now = new Date()): Promise<number> {
    if (now.getTime() < this.graceUntil) return 0;
    const due = await this.store.intentions.dueLeases(['acquired', 'printing'], now, 100);
    let count = 0;
    for (const ref of due) {
      const job = await this.store.transaction(async (tx) => {
        const j = await tx.intentions.get(ref.accountId, ref.id);
        if (!j || !j.leaseToken || !j.leaseExpiresAt || j.leaseExpiresAt >= now) return undefined;
        const last = j.tentativas >= this.settings.maxAttempts;
        return transition(
          tx, this.sink, ref, last ? 'attempts-exhausted' : 'lease-expired',
          { origem: 'server', at: now, motivos: last ? ['lease-expired', 'max-attempts'] : ['lease-expired'], detalhe: `no report within ${this.settings.leaseMs} ms (attempt ${j.tentativas} of ${this.settings.maxAttempts})` },
          // Guarded by the lease's end too: a renewal that landed since the read above keeps the job.
          { leaseToken: null, leaseExpiresAt: null }, { token: j.leaseToken, expiredBy: now },
        );
      });
      if (job) {
        count++;
        this.queued(job);
      }
    }
    return count;
  }

  /** Jobs never printed within the time-to-live. */
  async expireJobs(now = new Date()): Promise<number> {
    const due = await this.store.intentions.dueExpiry(['held', 'queued', 'stopped'], now, 100);
    let count = 0;
    for (const ref of due) {
      const job = await this.store.transaction((tx) => transition(tx, this.sink, ref, 'expire', { origem: 'server', at: now, motivos: [], detalhe: 'not printed in time' }));
      if (job) count++;
    }
    return count;
  }

  /** The lease and expiry sweeps, as background workers. */
  workers(): BackgroundWorker[] {
    const every = (ms: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.floor(ms / 5)));
    const leases = periodic('job-leases', every(this.settings.leaseMs, 50, 1000), () => this.expireLeases());
    return [
      {
        name: leases.name,
        start: (log) => {
          this.graceUntil = Date.now() + this.settings.leaseMs;
          return leases.start(log);
        },
        stop: () => leases.stop(),
      },
      periodic('job-expiry', every(this.settings.ttlMs, 50, 5000), () => this.expireJobs()),
    ];
  }

  /** Ends every long-poll (empty answers): the app is closing. */
  close(): void {
    this.unsubscribe();
    this.notifier.close();
  }

  /** Wakes the long-polls that may take this job, if it is queued. */
  private queued(job: Intention): void {
    if (job.estado !== 'queued') return;
    const key = job.terminalId !== null ? QueueNotifier.terminal(job.accountId, job.terminalId) : QueueNotifier.templates(job.accountId);
    this.notifier.notify(key);
    // Best effort: a lost notice only delays another instance's waiter until its wait ends (a
    // client asks again at once); a failing database already failed the change itself.
    this.store.signals?.publish(key).catch(() => undefined);
  }
}

export type { HistoryEntry };
