// The fleet's use cases: a terminal's client says it is there (every poll, and a heartbeat while
// idle) with its printer's state; the partner sees its terminals' health; two sweeps announce what
// silence and waiting mean (terminal.offline, job.stuck). Every announcement is decided in the
// store, once (fleet/events.ts), never by a request's timing.
import { Problem } from '../errors.js';
import type { Store } from '../store/repositories.js';
import type { JobState, PrinterReport, Principal, StuckJob, TerminalHealth } from '../store/types.js';
import { periodic, type BackgroundWorker } from '../workers/worker.js';
import type { FleetEventSink } from './events.js';
import { DEFAULT_FLEET_SETTINGS, offlineAfterMs, sweepEveryMs, type FleetSettings } from './settings.js';

/** States a job waits in (queued) or is delivered in (leased): stuck when it stays too long. */
const STUCK_STATES: readonly JobState[] = ['queued', 'acquired', 'printing'];

/** Terminals whose last contact this process remembers (the write throttle of contact()). */
const MAX_TOUCHED = 100_000;

/** At most this many terminals flipped offline, or stuck jobs announced, per sweep (the rest on the next). */
const BATCH = 100;

export interface Contact {
  /** The printer's state, when the client said. */
  printer?: PrinterReport;
  /** The client's version, when it said. */
  agentVersion?: string;
}

export class Fleet {
  readonly settings: FleetSettings;
  /** Terminals are not flipped offline before this time (set when the sweeps start): no client could reach a service that was down. */
  private graceUntil = 0;

  constructor(private readonly store: Store, private readonly sink: FleetEventSink, settings: Partial<FleetSettings> = {}) {
    this.settings = { ...DEFAULT_FLEET_SETTINGS, ...Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) };
  }

  /** A terminal's client was heard from: recorded, and its coming online or its printer's new reasons announced. */
  async contact(p: Principal, c: Contact = {}, at = new Date()): Promise<void> {
    if (p.kind !== 'terminal') throw new Problem('terminal-key-required');
    const { accountId, terminalId } = p;
    const contact = { accountId, terminalId, at, ...(c.agentVersion ? { agentVersion: c.agentVersion } : {}), ...(c.printer ? { printer: c.printer } : {}) };
    // A client that polls job after job is recorded once per TOUCH_EVERY (a cache of what this
    // process wrote: the store stays the truth, at most that much behind, far inside the offline rule).
    const key = `${accountId}\u0000${terminalId}`;
    const said = JSON.stringify([c.printer ?? null, c.agentVersion ?? null]);
    const last = this.touched.get(key);
    if (last && last.said === said && at.getTime() - last.at < this.touchEveryMs()) return;
    // Nearly every poll and heartbeat changes nothing that is announced: one statement, no transaction.
    if (await this.store.terminals.touchContact(contact)) return this.remember(key, said, at);
    await this.store.transaction(async (tx) => {
      const change = await tx.terminals.recordContact(contact);
      if (change.cameOnline) await this.sink(tx, { type: 'terminal.online', accountId, terminalId, at, lastSeenAt: at });
      if (change.printerChanged && c.printer) {
        await this.sink(tx, { type: 'printer.status', accountId, terminalId, at, ready: c.printer.ready, reasons: c.printer.reasons, before: change.printerChanged.before });
      }
    });
    this.remember(key, said, at);
  }

  /** What this process last wrote of each terminal's contacts, and when (bounded: forgotten wholesale past MAX_TOUCHED). */
  private readonly touched = new Map<string, { said: string; at: number }>();

  private remember(key: string, said: string, at: Date): void {
    if (this.touched.size >= MAX_TOUCHED) this.touched.clear();
    this.touched.set(key, { said, at: at.getTime() });
  }

  /** A tenth of the offline rule, at most 1 s: contacts closer together than this are written once. */
  private touchEveryMs(): number {
    return Math.min(1000, offlineAfterMs(this.settings) / 10);
  }

  /** An account's terminals as the fleet view shows them (one, with `terminalId`). */
  health(accountId: string, terminalId?: string): Promise<TerminalHealth[]> {
    return this.store.terminals.health({ accountId, ...(terminalId === undefined ? {} : { terminalId }) });
  }

  /** Terminals silent for longer than offlineAfterMs are offline: each flipped, and announced, once. */
  async sweepOffline(now = new Date()): Promise<number> {
    if (now.getTime() < this.graceUntil) return 0;
    const cutoff = new Date(now.getTime() - offlineAfterMs(this.settings));
    return this.store.transaction(async (tx) => {
      const gone = await tx.terminals.markOffline(cutoff, BATCH);
      for (const t of gone) await this.sink(tx, { type: 'terminal.offline', accountId: t.accountId, terminalId: t.terminalId, at: now, lastSeenAt: t.lastSeenAt });
      return gone.length;
    });
  }

  /** Jobs waiting or leased for longer than their account allows: each announced once per state it is stuck in. */
  async sweepStuck(now = new Date()): Promise<number> {
    const found = await this.store.intentions.stuck(STUCK_STATES, now, this.settings.stuckAfterMs, BATCH);
    let count = 0;
    for (const job of found) {
      const sent = await this.store.transaction(async (tx) => {
        if (!(await tx.intentions.markStuck(job.id, job.seq))) return false;
        await this.sink(tx, stuckEvent(job, now));
        return true;
      });
      if (sent) count++;
    }
    return count;
  }

  /** The offline and stuck-job sweeps, as background workers. */
  workers(): BackgroundWorker[] {
    const every = sweepEveryMs(this.settings);
    const offline = periodic('fleet-offline', every, () => this.sweepOffline());
    return [
      {
        name: offline.name,
        start: (log) => {
          this.graceUntil = Date.now() + offlineAfterMs(this.settings);
          return offline.start(log);
        },
        stop: () => offline.stop(),
      },
      // Stuck is minutes by default: looked for every tenth of the threshold, at most every 5 s.
      periodic('fleet-stuck', Math.max(every, Math.min(5000, Math.floor(this.settings.stuckAfterMs / 10))), () => this.sweepStuck()),
    ];
  }
}

const stuckEvent = (job: StuckJob, at: Date) => ({
  type: 'job.stuck' as const, accountId: job.accountId, terminalId: job.terminalId, intencaoImpressaoId: job.id, referencia: job.referencia,
  estado: job.estado, why: job.estado === 'queued' ? 'queued' as const : 'no-progress' as const, since: job.since, thresholdMs: job.thresholdMs, at,
});
