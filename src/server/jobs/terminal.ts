// The terminal's job use cases (the terminal client protocol: src/delivery/protocol.ts): lease the
// next job by long-poll, say what the terminal is now, take a report, renew a lease, list held jobs,
// start one, resume stopped ones. The routes and the service's own direct delivery both call these,
// so a job is delivered the same way whoever delivers it.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { MAX_WAIT_MS, reportOrigin, type TerminalReport, type TerminalView } from '../../delivery/protocol.js';
import { OTHER, OUTCOME_UNKNOWN } from '../../delivery/reasons.js';
import { loadProfile } from '../../index.js';
import { Problem } from '../errors.js';
import type { ClaimRoute, Intention, IntentionSummary, JobRef, Principal } from '../store/types.js';
import type { JobContext } from './context.js';
import { acquireJob, allows, fromStates, isFinal, MAX_DELIVERIES, MAX_DELIVERIES_REASON, next, phaseOf, recordIgnored, REPORTS, transition, type JobWithHistory } from './lifecycle.js';
import { startJob } from './start.js';
import { QueueNotifier } from './notifier.js';
import { stopMismatched } from './printer-change.js';

/** What a client is handed: the job, its bytes, the template to speak, and the delivery token. */
export interface Offer {
  job: Intention;
  token: string;
}

const terminalOf = (p: Principal): { accountId: string; terminalId: string } => {
  if (p.kind !== 'terminal') throw new Problem('terminal-key-required');
  return p;
};

/** The states a claim looks in: those a job is acquired from, and those the printer check stops a job from. */
const CLAIMED_FROM = [...new Set([...fromStates('acquire'), ...fromStates('printer-mismatch')])];

/** A job's delivery token: 128 random bits. */
const newDeliveryToken = () => randomBytes(16).toString('base64url');

/**
 * Long-polls of one terminal that wait at once (in this process); one more looks once and answers
 * at once. A client needs one: a key that opens hundreds would hold connections every client needs.
 */
export const POLLS_PER_TERMINAL = 4;

export class TerminalJobs {
  constructor(private readonly c: JobContext) {}

  /** The long-polls waiting now, per terminal. */
  private readonly polls = new Map<string, number>();

  /** A terminal's long-polls waiting now in this process (at most POLLS_PER_TERMINAL: one more only looks). */
  waiting(accountId: string, terminalId: string): number {
    return this.polls.get(QueueNotifier.terminal(accountId, terminalId)) ?? 0;
  }

  /** The queue a terminal's client serves, or undefined when the terminal is unknown or disabled. */
  private async route(p: Principal): Promise<ClaimRoute | undefined> {
    const { accountId, terminalId } = terminalOf(p);
    const t = await this.c.store.terminals.find(accountId, terminalId);
    if (!t || !t.enabled) return undefined;
    return { accountId, terminalId, templateJobs: t.templateJobs === true, printerId: t.printerId };
  }

  /**
   * Leases the terminal's next job, waiting up to `waitMs` for one to be queued (woken at once by
   * the notifier, not by polling). Undefined when none came, or the wait was aborted.
   */
  async next(p: Principal, waitMs: number, signal?: AbortSignal): Promise<Offer | undefined> {
    const { accountId, terminalId } = terminalOf(p);
    const keys = [QueueNotifier.terminal(accountId, terminalId), QueueNotifier.templates(accountId)];
    const polls = this.polls.get(keys[0]!) ?? 0;
    if (polls >= POLLS_PER_TERMINAL) return this.look(p, keys, Date.now(), signal);
    this.polls.set(keys[0]!, polls + 1);
    try {
      return await this.look(p, keys, Date.now() + Math.min(Math.max(0, waitMs), MAX_WAIT_MS), signal);
    } finally {
      const left = (this.polls.get(keys[0]!) ?? 1) - 1;
      if (left > 0) this.polls.set(keys[0]!, left);
      else this.polls.delete(keys[0]!);
    }
  }

  /** next()'s looks, and its waits for a job until `deadline`. */
  private async look(p: Principal, keys: string[], deadline: number, signal?: AbortSignal): Promise<Offer | undefined> {
    for (;;) {
      if (this.c.notifier.isClosed || signal?.aborted) return undefined;
      const seen = this.c.notifier.snapshot(keys);
      const route = await this.route(p);
      // A look first, so a poll that finds nothing to take (nearly every one) opens no write
      // transaction. It reads after `seen`: a job queued after the look wakes the wait below at once.
      if (route && (await this.c.store.intentions.anyFor(route, CLAIMED_FROM))) {
        // A whole turn of the event loop first, through its next read of the sockets: a hang-up that
        // came with the request (or with the wake) is seen before a job is leased to it. On SQLite
        // nothing above waits for I/O, so a killed agent's last poll, sent as it died, took a job.
        await nextTurn();
        await nextTurn();
        if (signal?.aborted) return undefined;
        const token = newDeliveryToken();
        const now = new Date();
        const job = await this.c.store.transaction(async (tx) => {
          // A job compiled for another printer than the terminal's is never handed out (printer-change.ts).
          await stopMismatched(tx, this.c.sink, route, now);
          return acquireJob(tx, this.c.sink, route, { token, expiresAt: new Date(now.getTime() + this.c.settings.leaseMs) }, { origem: 'server', at: now });
        });
        if (job) return { job, token };
      }
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      if (!(await this.c.notifier.wait(keys, seen, left, signal)) && Date.now() >= deadline) return undefined;
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
    // Counted in the store: a poll's answer reads no job's content.
    const parados = await this.c.store.intentions.countHolding(route, fromStates('resume'));
    const printer = route.printerId === null ? undefined : loadProfile(route.printerId);
    return { impressoraId: printer?.id ?? null, codigoImpressora: printer?.code ?? null, parados };
  }

  /**
   * A client's report on a job it holds. Applied when the job still holds `token` and its state
   * allows it; otherwise counted (the first few in its history) and ignored (`aceito: false`).
   */
  async report(p: Principal, r: TerminalReport): Promise<{ aceito: boolean; job: Intention }> {
    const { accountId, terminalId } = terminalOf(p);
    const now = new Date();
    const motivos = [...new Set(r.motivos ?? [])];
    const origem = reportOrigin(r, motivos);
    const change = { origem, at: now, motivos, detalhe: r.detalhe ?? null } as const;
    const result = await this.c.store.transaction(async (tx) => {
      const job = await tx.intentions.get(accountId, r.id);
      // Only a job of this terminal (its own, or one it holds or held) is reported on.
      if (!job || (job.terminalId !== terminalId && job.leasedTo !== terminalId)) throw new Problem('intention-not-found', { intencaoImpressaoId: r.id });
      const ref: JobRef = { accountId, id: r.id };
      let changed: Intention | undefined;
      if (job.leasedTo === terminalId) {
        const rule = REPORTS[r.estado];
        const until = new Date(now.getTime() + this.c.settings.leaseMs);
        if (rule.lease === 'extend' && next(phaseOf(job), rule.event) === job.estado) {
          // The same report again (printing): a renewal (Renovar), so the history does not grow.
          changed = await tx.intentions.renewLease(ref, [job.estado], { token: r.token, leasedTo: terminalId }, until) ? { ...job, leaseExpiresAt: until } : undefined;
        } else {
          const reasons = rule.reasons === 'job' ? job.motivos : rule.reasons === 'report-or-other' && motivos.length === 0 ? [OTHER] : motivos;
          // A stop with its outcome unknown is never failed for it: it may be on paper (failed, its
          // partner would send it again), and it waits for a person, who may queue it again only
          // while it has had fewer than MAX_DELIVERIES leases (requeueRefusal).
          const exhausted = rule.exhausted !== undefined && job.tentativas >= MAX_DELIVERIES && !reasons.includes(OUTCOME_UNKNOWN);
          changed = await transition(tx, this.c.sink, ref, exhausted ? rule.exhausted! : rule.event, { ...change, motivos: exhausted ? [...reasons, MAX_DELIVERIES_REASON] : reasons }, {
            ...(rule.lease === 'extend' ? { leaseExpiresAt: until } : { leaseToken: null, leaseExpiresAt: null }),
            ...(rule.confirms ? { confirmacao: r.confirmacao ?? 'sent' } : {}),
          }, r.token);
        }
      }
      if (!changed) {
        const why = isFinal(job.estado) ? `job already ${job.estado}` : job.leaseToken !== r.token ? 'stale delivery token' : `not allowed in ${job.estado}`;
        const ignored = await recordIgnored(tx, job, { origem: 'client', at: now, motivos, detalhe: `report ${r.estado} ignored: ${why}` });
        if (!ignored) throw new Problem('intention-not-found', { intencaoImpressaoId: r.id });
        return { aceito: false, job: ignored };
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
    const until = new Date(Date.now() + this.c.settings.leaseMs);
    const aceito = await this.c.store.intentions.renewLease({ accountId, id: r.id }, fromStates('lease-expired'), { token: r.token, leasedTo: terminalId }, until);
    return { aceito, leaseMs: this.c.settings.leaseMs };
  }

  /**
   * The terminal's jobs waiting for someone to start them (held ones, and stopped ones whose outcome
   * is unknown), among the next `limit` held or stopped jobs with ids above `afterId`, without their
   * content; `next` is the id to go on from, or null when there are no more.
   */
  async held(p: Principal, afterId: number, limit: number): Promise<{ jobs: IntentionSummary[]; next: number | null }> {
    const route = await this.route(p);
    if (!route) return { jobs: [], next: null };
    const page = await this.c.store.intentions.listSummaries(route, fromStates('start'), afterId, limit);
    return {
      jobs: page.filter((j) => allows(j, 'start')),
      next: page.length === limit ? page[page.length - 1]!.id : null,
    };
  }

  /** Starts a held job, or prints again one whose outcome was unknown (start.ts: the rule the partner's Iniciar shares). */
  async start(p: Principal, id: number): Promise<JobWithHistory> {
    const { accountId } = terminalOf(p);
    const route = await this.route(p);
    const found = await this.c.store.intentions.get(accountId, id);
    if (!found || !route || !this.mayServe(route, found)) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    return startJob(this.c, found, 'client', { start: 'started by the client', again: 'started again after an unknown outcome' });
  }

  /** The printer answers well again: the terminal's stopped jobs (not those of unknown outcome) are queued again, in order. */
  async resume(p: Principal): Promise<number> {
    const route = await this.route(p);
    if (!route) return 0;
    const stopped = (await this.c.store.intentions.listForRoute(route, fromStates('resume'))).filter((j) => allows(j, 'resume'));
    let count = 0;
    for (const job of stopped) {
      const changed = await this.c.store.transaction((tx) => transition(tx, this.c.sink, job, 'resume', { origem: 'client', at: new Date(), motivos: [], detalhe: 'the printer is ready again' }));
      if (changed) {
        count++;
        this.c.queued(changed);
      }
    }
    return count;
  }

  private mayServe(route: ClaimRoute, job: Intention): boolean {
    if (job.terminalId === route.terminalId || job.leasedTo === route.terminalId) return true;
    return route.templateJobs && job.terminalId === null && (route.printerId === null || route.printerId === job.impressoraId);
  }
}
