// The job sweeps: leases that ran out (offered again; after the last attempt failed, or stopped
// with its outcome unknown when a client had begun writing it), jobs never printed within their
// time-to-live (expired), Idempotency-Key answers past their keeping time, and final jobs past
// theirs (deleted), as background workers.
import { inBatches, periodic, type BackgroundWorker } from '../workers/worker.js';
import type { JobContext } from './context.js';
import { OUTCOME_UNKNOWN } from '../../delivery/reasons.js';
import { FINAL_STATES, fromStates, phaseOf, transition } from './lifecycle.js';

/**
 * Due leases and expiries looked at per batch, and batches per tick: a backlog (one account's
 * thousands of jobs due at once) is worked off at up to 2,000 a tick, never 100, so another
 * account's job is not left queued long past its time behind it.
 */
const SWEEP_BATCH = 100;
const SWEEP_BATCHES = 20;

export class JobSweeps {
  /** Leases are not expired before this time (set when the sweeps start). */
  private graceUntil = 0;

  constructor(private readonly c: JobContext) {}

  /**
   * Leases that ran out: offered again, or failed after the last allowed attempt. Not within one
   * lease length of the service starting: a client could not report while it was down.
   */
  async expireLeases(now = new Date()): Promise<number> {
    if (now.getTime() < this.graceUntil) return 0;
    let changed = 0;
    await inBatches(async (limit) => {
      const due = await this.c.store.intentions.dueLeases(fromStates('lease-expired'), now, limit);
      for (const ref of due) {
        const job = await this.c.store.transaction(async (tx) => {
          const j = await tx.intentions.get(ref.accountId, ref.id);
          if (!j || !j.leaseToken || !j.leaseExpiresAt || j.leaseExpiresAt >= now) return undefined;
          const last = j.tentativas >= this.c.settings.maxAttempts;
          // On the last attempt, a job a client began writing (it reported printing, in this lease
          // or an earlier one) may be on paper: it stops with its outcome unknown, for a person to
          // start again or cancel. Failed, its partner would send it again.
          const begun = last && (j.estado === 'printing' || (await tx.intentions.history(ref.accountId, ref.id)).some((h) => h.evento === 'printing'));
          const tried = `no report within ${this.c.settings.leaseMs} ms (attempt ${j.tentativas} of ${this.c.settings.maxAttempts})`;
          return transition(
            tx, this.c.sink, ref, begun ? 'stopped' : last ? 'attempts-exhausted' : 'lease-expired',
            begun
              ? { origem: 'server', at: now, motivos: [OUTCOME_UNKNOWN, 'lease-expired', 'max-attempts'], detalhe: `${tried}, after a client began writing it: it may be on paper` }
              : { origem: 'server', at: now, motivos: last ? ['lease-expired', 'max-attempts'] : ['lease-expired'], detalhe: tried },
            // Guarded by the lease's end too: a renewal that landed since the read above keeps the job.
            { leaseToken: null, leaseExpiresAt: null }, { token: j.leaseToken, expiredBy: now },
          );
        });
        if (job) {
          changed++;
          this.c.queued(job);
        }
      }
      return due.length;
    }, SWEEP_BATCH, SWEEP_BATCHES);
    return changed;
  }

  /**
   * Jobs never printed within the time-to-live. A stopped one keeps its reasons: one whose outcome
   * is unknown may be on paper, and its final state says so.
   */
  async expireJobs(now = new Date()): Promise<number> {
    let changed = 0;
    await inBatches(async (limit) => {
      const due = await this.c.store.intentions.dueExpiry(fromStates('expire'), now, limit);
      for (const ref of due) {
        const expired = await this.c.store.transaction(async (tx) => {
          const j = await tx.intentions.get(ref.accountId, ref.id);
          if (!j) return undefined;
          const detalhe = phaseOf(j) === 'unknown-outcome' ? 'not started again in time, its outcome unknown: it may be on paper' : 'not printed in time';
          // Only from the state read: a job that changed meanwhile (another instance resumed it) is left to the next sweep.
          return transition(tx, this.c.sink, ref, 'expire', { origem: 'server', at: now, motivos: j.estado === 'stopped' ? j.motivos : [], detalhe }, {}, undefined, [j.estado]);
        });
        if (expired) changed++;
      }
      return due.length;
    }, SWEEP_BATCH, SWEEP_BATCHES);
    return changed;
  }

  /** Idempotency-Key answers stored before the keeping time (in batches, at most `batches` × 500 a call). */
  purgeIdempotencyKeys(now = new Date(), batches = 20): Promise<number> {
    const before = new Date(now.getTime() - this.c.settings.idempotencyKeepMs);
    return inBatches((limit) => this.c.store.intentions.purgeIdempotent(before, limit), 500, batches);
  }

  /** Final jobs made, and last changed, before the keeping time: deleted with their history (in batches, at most `batches` × 200 a call). */
  purgeEndedJobs(now = new Date(), batches = 20): Promise<number> {
    const before = new Date(now.getTime() - this.c.settings.keepMs);
    return inBatches((limit) => this.c.store.intentions.purgeEnded(FINAL_STATES, before, limit), 200, batches);
  }

  /** The lease, expiry and Idempotency-Key sweeps, as background workers. */
  workers(): BackgroundWorker[] {
    const every = (ms: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.floor(ms / 5)));
    const leases = periodic('job-leases', every(this.c.settings.leaseMs, 50, 1000), () => this.expireLeases());
    return [
      {
        name: leases.name,
        start: (log) => {
          this.graceUntil = Date.now() + this.c.settings.leaseMs;
          return leases.start(log);
        },
        stop: () => leases.stop(),
      },
      periodic('job-expiry', every(this.c.settings.ttlMs, 50, 5000), () => this.expireJobs()),
      periodic('idempotency-keys', every(this.c.settings.idempotencyKeepMs, 50, 60_000), () => this.purgeIdempotencyKeys()),
      periodic('job-retention', every(this.c.settings.keepMs, 50, 60_000), () => this.purgeEndedJobs()),
    ];
  }
}
