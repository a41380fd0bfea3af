// What the service tells its metrics, as an interface with no metrics library behind it: app.ts,
// the webhook sender and the wiring (wiring.ts) call these; prometheus.ts implements them with
// prom-client, loaded only when `bobina serve` is asked for metrics. Every label takes its values
// from a fixed set (the lifecycle table, an outcome, a status class): never an account, a job or a
// terminal, so the number of series does not grow with the work.
import type { Compiler } from '../compiler.js';
import type { JobState } from '../jobs/events.js';
import type { LifecycleEvent } from '../jobs/lifecycle.js';
import type { Store } from '../store/repositories.js';
import type { AttemptCount } from '../webhooks/sender.js';

/** One committed state change of a job. */
export interface Transition {
  from: JobState | 'new';
  event: LifecycleEvent;
  to: JobState;
  /** When the job was inserted, and when this change happened. */
  createdAt: Date;
  at: Date;
}

/**
 * The fleet now, of every account: terminals online and offline, and how many printers report each
 * reason (a printer with two reasons counts under both). A reason outside the printer's known set
 * (delivery/reasons.ts) is counted as `other`.
 */
export interface FleetCounts {
  online: number;
  offline: number;
  printersByReason: Readonly<Record<string, number>>;
}

export type FleetCountsProvider = (now: Date) => Promise<FleetCounts>;

/** What the gauges read at scrape time: the store (jobs by state, its connections) and the compiler (its pool's load). */
export interface MetricSources {
  store: Store;
  compiler: Compiler;
}

export interface ServiceMetrics {
  /** Where the scrape-time gauges read from; buildApp calls it once. */
  attach(sources: MetricSources): void;
  /**
   * Where the fleet gauges (terminals online/offline, printers by reason) read from. Until it is
   * called those gauges have no samples at all (absent, not zero).
   */
  setFleetCounts(provider: FleetCountsProvider): void;
  /** A job's state change, after its transaction committed. */
  transitioned(t: Transition): void;
  /** An Insert answered, `seconds` after its request arrived. */
  insertAnswered(seconds: number, statusCode: number): void;
  /** A compile ended (`ok`: it gave a result, with or without diagnostics; else it threw: budget, pool closed). */
  compiled(seconds: number, ok: boolean): void;
  /** A webhook attempt recorded. */
  webhookAttempt(outcome: AttemptCount): void;
  /** The exposition: the body and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}
