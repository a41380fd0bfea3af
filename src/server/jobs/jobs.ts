// The job use cases, by who calls them: the partner's (partner.ts), the terminal's client's
// (terminal.ts: the routes and the service's own direct delivery), and the lease and expiry sweeps
// (sweeps.ts), over one shared context (context.ts). Every state change goes through lifecycle.ts.
import type { Store } from '../store/repositories.js';
import type { BackgroundWorker } from '../workers/worker.js';
import { JobContext, type JobSettings } from './context.js';
import { ignoreJobEvents, type JobEventSink } from './events.js';
import { PartnerJobs } from './partner.js';
import { JobSweeps } from './sweeps.js';
import { TerminalJobs } from './terminal.js';

export { DEFAULT_JOB_SETTINGS, type JobSettings } from './context.js';
export type { Inserted } from './partner.js';
export type { Offer } from './terminal.js';

export class Jobs {
  private readonly context: JobContext;
  readonly partner: PartnerJobs;
  readonly terminal: TerminalJobs;
  readonly sweeps: JobSweeps;

  constructor(store: Store, sink: JobEventSink = ignoreJobEvents, settings: Partial<JobSettings> = {}) {
    this.context = new JobContext(store, sink, settings);
    this.partner = new PartnerJobs(this.context);
    this.terminal = new TerminalJobs(this.context);
    this.sweeps = new JobSweeps(this.context);
  }

  get settings(): JobSettings {
    return this.context.settings;
  }

  /** Whether the app is closing (every long-poll has been ended). */
  get closing(): boolean {
    return this.context.notifier.isClosed;
  }

  /** The lease and expiry sweeps, as background workers. */
  workers(): BackgroundWorker[] {
    return this.sweeps.workers();
  }

  /** Ends every long-poll (empty answers): the app is closing. */
  close(): void {
    this.context.close();
  }
}
