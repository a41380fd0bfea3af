// What every job use case shares: the store, the sink a state change's event goes to, the job
// settings, and the long-poll notifier a job that becomes queued wakes (this instance's at once,
// the others' through the store's signals) once its transaction has committed.
import type { Store } from '../store/repositories.js';
import type { Intention } from '../store/types.js';
import type { JobEventSink } from './events.js';
import { fromStates } from './lifecycle.js';
import { QueueNotifier } from './notifier.js';

export interface JobSettings {
  /** How long a client holds a job without reporting before it is offered again (default 30 s). */
  leaseMs: number;
  /** Leases that may run out before the job is failed (default 5). */
  maxAttempts: number;
  /** A job never printed expires this long after it was made (default 24 h). */
  ttlMs: number;
  /** An Idempotency-Key's answer is kept this long after its Insert, then deleted (default 24 h); a retry after that makes a new job. */
  idempotencyKeepMs: number;
  /**
   * A final job (printed, failed, canceled, expired) is kept this long after its Insert and its
   * last change, then deleted with its history (default 30 days): GetById answers 404 after that.
   */
  keepMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_JOB_SETTINGS: JobSettings = { leaseMs: 30_000, maxAttempts: 5, ttlMs: DAY_MS, idempotencyKeepMs: DAY_MS, keepMs: 30 * DAY_MS };

export class JobContext {
  readonly notifier = new QueueNotifier();
  readonly settings: JobSettings;
  private readonly unsubscribe: () => void;

  constructor(readonly store: Store, readonly sink: JobEventSink, settings: Partial<JobSettings> = {}) {
    this.settings = { ...DEFAULT_JOB_SETTINGS, ...Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) };
    // Jobs queued by another instance (or, on SQLite, another process) wake this one's long-polls too.
    this.unsubscribe = store.signals?.subscribe((key) => this.notifier.notify(key), () => this.notifier.notifyAll(), () => void this.changedElsewhere()) ?? (() => undefined);
  }

  /**
   * Another process changed the database (SQLite, which carries no topics): the queues that hold a
   * queued job are woken, not every waiter; a woken one that cannot take it waits again.
   */
  private async changedElsewhere(): Promise<void> {
    if (this.notifier.isClosed) return;
    try {
      for (const q of await this.store.intentions.queuedQueues(fromStates('acquire'))) {
        this.notifier.notify(q.terminalId !== null ? QueueNotifier.terminal(q.accountId, q.terminalId) : QueueNotifier.templates(q.accountId));
      }
    } catch {
      // The database is failing: every waiter looks again when its wait ends, as before this wake-up existed.
      this.notifier.notifyAll();
    }
  }

  /** Wakes the long-polls that may take this job, if it is queued. */
  queued(job: Intention): void {
    if (job.estado !== 'queued') return;
    const key = job.terminalId !== null ? QueueNotifier.terminal(job.accountId, job.terminalId) : QueueNotifier.templates(job.accountId);
    this.notifier.notify(key);
    // Best effort: a lost notice only delays another instance's waiter until its wait ends (a
    // client asks again at once); a failing database already failed the change itself.
    this.store.signals?.publish(key).catch(() => undefined);
  }

  /** Ends every long-poll (empty answers): the app is closing. */
  close(): void {
    this.unsubscribe();
    this.notifier.close();
  }
}
