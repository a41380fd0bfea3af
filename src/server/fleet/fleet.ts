// The fleet's use cases: a terminal's client says it is there (every poll, and a heartbeat while
// idle) with its printer's state; the partner sees its terminals' health; two sweeps announce what
// silence and waiting mean (terminal.offline, job.stuck). Every announcement is decided in the
// store, once (fleet/events.ts), never by a request's timing.
import { Problem } from '../errors.js';
import type { Store } from '../store/repositories.js';
import type { FleetCounts, JobState, PrinterReport, Principal, StuckJob, TerminalContact, TerminalHealth } from '../store/types.js';
import { periodic, type BackgroundWorker } from '../workers/worker.js';
import type { FleetEventSink } from './events.js';
import { DEFAULT_FLEET_SETTINGS, offlineAfterMs, sweepEveryMs, type FleetSettings } from './settings.js';

/** States a job waits in (queued) or is delivered in (leased): stuck when it stays too long. */
const STUCK_STATES: readonly JobState[] = ['queued', 'acquired', 'printing'];

/** Terminals whose last contact this process remembers (the write throttle of contact()). */
const MAX_TOUCHED = 100_000;

/** A batch of contacts is written at least this often, and at once when it holds FLUSH_AT terminals. */
const FLUSH_EVERY_MS = 250;
const FLUSH_AT = 500;

const keyOf = (c: { accountId: string; terminalId: string }) => `${c.accountId}\u0000${c.terminalId}`;

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

  /**
   * A terminal's client was heard from: recorded, and its coming online or its printer's new reasons
   * announced. A contact that says what this process last wrote for the terminal, within half the
   * offline rule of the last, is written with the others of its tick (the batch below), up to 250 ms
   * later; one that says something new, or comes after a longer silence, at once.
   */
  async contact(p: Principal, c: Contact = {}, at = new Date()): Promise<void> {
    if (p.kind !== 'terminal') throw new Problem('terminal-key-required');
    const { accountId, terminalId } = p;
    const contact: TerminalContact = { accountId, terminalId, at, ...(c.agentVersion ? { agentVersion: c.agentVersion } : {}), ...(c.printer ? { printer: c.printer } : {}) };
    // A client that polls job after job is recorded once per TOUCH_EVERY (a cache of what this
    // process wrote: the store stays the truth, at most that much behind, far inside the offline rule).
    const key = keyOf(contact);
    const said = JSON.stringify([c.printer ?? null, c.agentVersion ?? null]);
    const last = this.touched.get(key);
    if (last && last.said === said && at.getTime() - last.at < this.touchEveryMs()) return;
    if (last && last.said === said && at.getTime() - last.at < offlineAfterMs(this.settings) / 2 && !this.closed) {
      // Nothing new to announce: said before, and heard from too recently to have been swept offline
      // (the batch is written long before); should the store say otherwise, it is recorded as below.
      this.pending.set(key, contact);
      this.remember(key, said, at);
      this.scheduleFlush();
      return;
    }
    // Said now, it supersedes what the batch holds for the terminal.
    this.pending.delete(key);
    // Nearly every poll and heartbeat changes nothing that is announced: one statement, no transaction.
    const held = !(await this.store.terminals.touchContact(contact)) && !(await this.record(contact));
    // A printer's word held back is not what was written: the terminal's next contact is written at once, not batched.
    if (held) this.touched.delete(key);
    else this.remember(key, said, at);
  }

  /**
   * Records a contact that may change what is announced (coming online, the printer's reasons), with
   * its events. Within printerEventEveryMs of this process's last printer.status for the terminal,
   * the printer's word waits (the contact is written without it; false): the terminal's contacts
   * after that time say it again, and the change, if it still is one, is announced then.
   */
  private async record(contact: TerminalContact): Promise<boolean> {
    const { accountId, terminalId, at } = contact;
    const key = keyOf(contact);
    const last = this.printerEvents.get(key);
    const { printer: _held, ...withoutPrinter } = contact;
    const written: TerminalContact = contact.printer && last !== undefined && at.getTime() - last < this.settings.printerEventEveryMs ? withoutPrinter : contact;
    await this.store.transaction(async (tx) => {
      const change = await tx.terminals.recordContact(written);
      if (change.cameOnline) await this.sink(tx, { type: 'terminal.online', accountId, terminalId, at, lastSeenAt: at });
      if (change.printerChanged && written.printer) {
        await this.sink(tx, { type: 'printer.status', accountId, terminalId, at, ready: written.printer.ready, reasons: written.printer.reasons, before: change.printerChanged.before });
        if (this.printerEvents.size >= MAX_TOUCHED) this.printerEvents.clear();
        this.printerEvents.set(key, at.getTime());
      }
    });
    return written === contact;
  }

  /** When this process last announced each terminal's printer.status (bounded as `touched`). */
  private readonly printerEvents = new Map<string, number>();

  /**
   * The batch: contacts that say what was last written for their terminal, the latest per terminal,
   * written together every flushDelayMs (or at once past FLUSH_AT) instead of one write each. The
   * sweep, the fleet view and close() write it first, so none of them reads a contact older than one
   * this process heard, and none is lost when the service stops.
   */
  private readonly pending = new Map<string, TerminalContact>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;

  /** A write of the batch soon: now when it is full, else at the end of the tick. One at a time: the one in flight schedules the next. */
  private scheduleFlush(): void {
    if (this.flushing || this.closed) return;
    if (this.pending.size < FLUSH_AT) return this.flushLater();
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    void this.flush().catch(() => undefined);
  }

  private flushLater(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush().catch(() => undefined);
    }, this.flushDelayMs());
    this.flushTimer.unref();
  }

  /** Writes every contact the batch holds now (after the write in flight, if any). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.flushing = this.write(batch).finally(() => {
      this.flushing = undefined;
      // What came meanwhile (or was kept after a failing store) waits for the next tick, never a loop.
      if (this.pending.size > 0) this.flushLater();
    });
    await this.flushing;
  }

  private async write(batch: TerminalContact[]): Promise<void> {
    let missed: TerminalContact[];
    try {
      missed = await this.store.terminals.touchContacts(batch);
    } catch (err) {
      this.keep(batch);
      throw err;
    }
    // Came back online after the sweep, or its printer's reasons changed by another instance's word: announced.
    for (const [i, contact] of missed.entries()) {
      try {
        await this.record(contact);
      } catch (err) {
        this.keep(missed.slice(i));
        throw err;
      }
    }
  }

  /** Puts contacts back in the batch, unless a later one of the same terminal is there. */
  private keep(contacts: readonly TerminalContact[]): void {
    for (const c of contacts) if (!this.pending.has(keyOf(c))) this.pending.set(keyOf(c), c);
  }

  /** Writes the batch and writes every later contact at once: the service is stopping. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flush();
  }

  /** How long a contact may wait in the batch: a tenth of the offline rule, at most 250 ms. */
  private flushDelayMs(): number {
    return Math.min(FLUSH_EVERY_MS, offlineAfterMs(this.settings) / 10);
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
  async health(accountId: string, terminalId?: string): Promise<TerminalHealth[]> {
    // A batch the store refuses now stays for the next tick; the view is read all the same.
    await this.flush().catch(() => undefined);
    return this.store.terminals.health({ accountId, ...(terminalId === undefined ? {} : { terminalId }) });
  }

  /**
   * A page of an account's terminals for the fleet view: after the terminal `after` (the previous
   * page's last), at most `limit`, only those offline or with a printer problem when asked, both
   * judged at `now` by the offline rule.
   */
  async page(accountId: string, p: { after?: string; limit: number; only?: 'offline' | 'printer' | 'problem'; now: Date }): Promise<TerminalHealth[]> {
    await this.flush().catch(() => undefined);
    return this.store.terminals.health({
      accountId, limit: p.limit, ...(p.after === undefined ? {} : { after: p.after }),
      ...(p.only === undefined ? {} : { only: p.only, onlineSince: new Date(p.now.getTime() - offlineAfterMs(this.settings)) }),
    });
  }

  /** Terminals online and offline, and printers by reason (the metrics' gauges), with the batch written first. */
  async counts(now: Date): Promise<FleetCounts> {
    await this.flush().catch(() => undefined);
    return this.store.terminals.fleetCounts(now, offlineAfterMs(this.settings));
  }

  /** Terminals silent for longer than offlineAfterMs are offline: each flipped, and announced, once. */
  async sweepOffline(now = new Date()): Promise<number> {
    if (now.getTime() < this.graceUntil) return 0;
    // A contact heard but still in the batch is a contact: written before silence is judged (if it
    // cannot be, nothing is judged this time: the sweep fails, and runs again on its next tick).
    await this.flush();
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
