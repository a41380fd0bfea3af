// The terminal client loop: take the next job (long-poll), deliver it to the device with deliver()
// (journal, status, write, confirmation), report the outcome with the job's delivery token. A
// stopped printer is asked again every `retryMs` and, once it answers well, the terminal's stopped
// jobs are queued again (Retomar) in their insert order. `bobina agent` runs it over HTTP
// (http-link.ts); the service runs it in process for terminals registered with a device. Same code.
// While a job is in hand its lease is renewed (lease.ts), from the offer until the final report.
// Every poll says what the client last read of its printer, and a heartbeat (heartbeat.ts) says it
// at least every `heartbeatMs` while idle; the printer is asked only while no job is being written.
import { deliver, type DeliveryResult } from './deliver.js';
import { Heartbeat, printerHealthOf } from './heartbeat.js';
import type { Journal } from './journal.js';
import { keepLease } from './lease.js';
import type { ClientHealth, PrinterHealth, TerminalOffer, TerminalReport, TerminalState } from './protocol.js';
import { OTHER, OUTCOME_UNKNOWN, PRINTER_MISMATCH } from './reasons.js';
import { openPrinter, type OpenOptions } from './session.js';
import { clientVersion } from './version.js';

export type { ClientHealth, PrinterHealth, TerminalOffer, TerminalReport, TerminalState };

/** The service, as a terminal's client sees it. */
export interface TerminalLink {
  /**
   * The next job, waiting up to `waitMs` (no `offer` when none came), and the terminal as it is now
   * (no `terminal` from a service that does not say), and the heartbeat interval the service expects
   * (`heartbeatMs`, when it says). `health`: what the client says of itself with the poll.
   */
  next(waitMs: number, signal: AbortSignal, health?: ClientHealth): Promise<{ offer?: TerminalOffer; terminal?: TerminalState; heartbeatMs?: number }>;
  report(report: TerminalReport): Promise<{ aceito: boolean }>;
  /** Keeps the lease of a job still being delivered; `aceito: false` once the client no longer holds it. */
  renew(id: number, token: string): Promise<{ aceito: boolean }>;
  /** The printer is ready again: the terminal's stopped jobs are queued again. */
  resume(): Promise<number>;
  /** The heartbeat (Sinal): the client is there, its printer in this state (a link without it sends none). */
  signal?(health: ClientHealth): Promise<void>;
}

/** The service refused the client itself (a wrong or revoked key): retrying will not help. */
export class LinkRefusedError extends Error {
  override name = 'LinkRefusedError';
}

/** The service refused one request (a job it does not know): that report is dropped. */
export class LinkRequestError extends Error {
  override name = 'LinkRequestError';
}

export interface DeliveryLoopOptions {
  /** `tcp://host:port`, `file:PATH` or `-`. */
  device: string;
  /** The durable journal (always, outside tests of its absence): what makes a retry never print twice. */
  journal?: Journal;
  /** Long-poll wait per request (default 30 s). */
  waitMs?: number;
  /** How often a stopped printer is asked again, and the first pause after a failed request (default 1000 ms). */
  retryMs?: number;
  /** Timeouts of the printer session. */
  printer?: OpenOptions;
  /** One line per event. */
  log?: (line: string) => void;
  /**
   * The heartbeat's interval while idle (default 15 s; 0: none): the printer is asked and the
   * service told. Shorter when the service asks for a shorter one (Heartbeat.follow).
   */
  heartbeatMs?: number;
  /** The version the client reports (default bobina's). */
  agentVersion?: string;
}

/** The service's default lease, for a service that does not say (renewed every third of it). */
const DEFAULT_LEASE_MS = 30_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** The report that says what deliver() found. */
export function reportFor(offer: TerminalOffer, result: DeliveryResult): TerminalReport {
  const base = { id: offer.id, token: offer.token, detalhe: result.detail.slice(0, 500) };
  switch (result.outcome) {
    case 'completed':
      return { ...base, estado: 'completed', confirmacao: result.confirmacao, motivos: result.motivos };
    case 'stopped':
      return { ...base, estado: 'stopped', motivos: result.motivos.length ? result.motivos : ['offline'] };
    case 'outcome-unknown':
      return { ...base, estado: 'stopped', motivos: [...new Set([OUTCOME_UNKNOWN, ...result.motivos])] };
  }
}

export class DeliveryLoop {
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  /**
   * Waiting for the printer: the template of the last job it stopped, whose dialect is used when the
   * terminal has no linked printer. The printer is asked until it is ready, or until the service
   * says no job waits for it any more (canceled, expired).
   */
  private waitingFor: string | undefined;
  /** The terminal as the service last said it is (its printer: the dialect the device speaks). */
  private terminal: TerminalState | undefined;
  /** Requests to the service that failed in a row: the first one that works again says so. */
  private failures = 0;
  /** Jobs printed (or found printed in the journal) by this loop. */
  printed = 0;
  /** The printer's state as last read (before a job, after one, or by the heartbeat while idle). */
  private printer: PrinterHealth | undefined;
  /** The printer is in use (a job is being delivered, or its status read): nothing else goes to it meanwhile. */
  private printerBusy: Promise<unknown> = Promise.resolve();
  private busy = false;
  private readonly heartbeat: Heartbeat;

  constructor(private readonly link: TerminalLink, private readonly options: DeliveryLoopOptions) {
    this.heartbeat = new Heartbeat(options.heartbeatMs ?? 15_000, async () => {
      // While a job is in hand the printer is not asked: the heartbeat says what was read before it.
      if (!this.busy) await this.readPrinter();
      await this.link.signal?.(this.health());
    }, (err) => this.log(`heartbeat not sent (${err.message})`));
  }

  /** What the client says of itself: its printer as last read, and its version. */
  health(): ClientHealth {
    return { ...(this.printer ? { printer: this.printer } : {}), agentVersion: this.options.agentVersion ?? clientVersion() };
  }

  /**
   * Runs `fn` with the printer to itself: a job's delivery and a status read never overlap, so no
   * status query goes between the bytes of a job (nor a second connection beside it).
   */
  private withPrinter<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.printerBusy.then(async () => {
      this.busy = true;
      try {
        return await fn();
      } finally {
        this.busy = false;
      }
    });
    this.printerBusy = run.catch(() => undefined);
    return run;
  }

  /** Reads the printer's state (idle: no job in hand), in the dialect of the terminal's printer or the last job's. */
  private async readPrinter(): Promise<void> {
    const code = this.terminal?.codigoImpressora ?? this.waitingFor ?? this.lastPrinter;
    if (!code) return;
    await this.printerReady(code);
  }

  /** The template of the last job delivered: its dialect is used for status when the terminal has no linked printer. */
  private lastPrinter: string | undefined;

  /** Starts the loop; `done` settles when it stops (rejects if the service refuses the client). */
  start(): Promise<void> {
    if (!this.running) {
      this.heartbeat.start();
      this.running = this.run().finally(() => this.heartbeat.stop());
    }
    return this.running;
  }

  /** Stops taking jobs; waits for the job in hand (and its report) to finish. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running?.catch(() => {});
    await this.heartbeat.stop();
  }

  private log(line: string) {
    this.options.log?.(line);
  }

  private async run(): Promise<void> {
    const { signal } = this.abort;
    const retryMs = this.options.retryMs ?? 1000;
    let pause = retryMs;
    let first = true;
    while (!signal.aborted) {
      try {
        if (this.waitingFor !== undefined) {
          if (this.terminal?.parados === 0) {
            this.log('no job waits for the printer any more (canceled or expired): taking jobs again');
            this.waitingFor = undefined;
            continue;
          }
          if (!(await this.printerReady(this.terminal?.codigoImpressora ?? this.waitingFor))) {
            // The pause is spent asking the service, which says whether the stopped jobs are still
            // there and which printer the terminal has now (it hands out nothing while they are).
            await this.take(retryMs);
            continue;
          }
          this.waitingFor = undefined;
          first = true;
        }
        let waitMs = this.options.waitMs ?? 30_000;
        if (first) {
          // At start, and when the printer clears: jobs stopped earlier go back in the queue, in order.
          const n = await this.link.resume();
          this.reached();
          if (n > 0) this.log(`printer ready: ${n} stopped job(s) queued again`);
          // The first poll at start does not wait: the terminal's printer (the dialect its status is
          // asked in) is known at once, for the heartbeat.
          if (!this.terminal) waitMs = 0;
          first = false;
        }
        await this.take(waitMs);
        pause = retryMs;
      } catch (err) {
        if (err instanceof LinkRefusedError) throw err;
        if (signal.aborted) break;
        this.failures++;
        this.log(`service unreachable (${(err as Error).message}); trying again in ${pause} ms`);
        await sleep(pause, signal);
        pause = Math.min(pause * 2, 10 * retryMs);
      }
    }
  }

  private reached(): void {
    if (this.failures === 0) return;
    this.log(`service reachable again after ${this.failures} failed attempt(s)`);
    this.failures = 0;
  }

  /** Asks the service for the next job (waiting up to `waitMs`), learns the terminal's state, and delivers what came. */
  private async take(waitMs: number): Promise<void> {
    const asked = Date.now();
    const { offer, terminal, heartbeatMs } = await this.link.next(waitMs, this.abort.signal, this.health());
    this.reached();
    // An empty answer well before the wait asked for (the service lets a terminal wait in a few polls
    // only, and answers one more at once: stale ones of a client before this one may hold them) is
    // not asked again at once: at most one poll a second, never a busy loop.
    const early = Math.min(waitMs, 1_000) - (Date.now() - asked);
    if (!offer && early > 0) await sleep(early, this.abort.signal);
    if (heartbeatMs !== undefined) this.heartbeat.follow(heartbeatMs);
    if (terminal) {
      if (this.terminal && terminal.codigoImpressora !== this.terminal.codigoImpressora) {
        this.log(`the terminal's printer is now ${terminal.codigoImpressora ?? 'none'} (was ${this.terminal.codigoImpressora ?? 'none'})`);
      }
      this.terminal = terminal;
    }
    // An offer that came as the loop was told to stop is a job in hand all the same: delivered and
    // reported before it stops (dropped, its lease would run out: an attempt counted for nothing,
    // and a reprint's grant used up, with no byte written).
    if (offer) await this.handle(offer);
  }

  private printerReady(printer: string): Promise<boolean> {
    return this.withPrinter(async () => {
      let session;
      try {
        session = openPrinter(this.options.device, printer, this.options.printer);
      } catch {
        return false; // a template this client does not know: it cannot ask in that dialect
      }
      try {
        const state = await session.status();
        this.printer = { ready: state.ready, reasons: state.reasons };
        return state.ready;
      } finally {
        await session.close();
      }
    });
  }

  private async handle(offer: TerminalOffer): Promise<void> {
    const lease = keepLease(() => this.link.renew(offer.id, offer.token), offer.leaseMs ?? DEFAULT_LEASE_MS, {
      onLost: () => this.log(`job ${offer.id}: the lease ran out before this client could renew it; the job was offered again (this client's report will be ignored)`),
      onError: (err) => this.log(`job ${offer.id}: lease not renewed (${err.message}); trying again`),
    });
    try {
      await this.deliver(offer);
    } finally {
      lease.stop();
    }
  }

  private async deliver(offer: TerminalOffer): Promise<void> {
    // A job compiled for another printer than the device's is never sent (the service stops such
    // jobs itself; this covers a terminal relinked between the two).
    const device = this.terminal?.codigoImpressora;
    if (device && device !== offer.codigoImpressora) {
      this.log(`job ${offer.id}: compiled for ${offer.codigoImpressora}, but the terminal prints on ${device}: not sent`);
      await this.send({ id: offer.id, token: offer.token, estado: 'stopped', motivos: [PRINTER_MISMATCH], detalhe: `compiled for ${offer.codigoImpressora}; the terminal's printer is ${device}` });
      return;
    }
    let session;
    try {
      session = openPrinter(this.options.device, offer.codigoImpressora, this.options.printer);
    } catch (err) {
      // A template this client does not know (an older bobina): it cannot speak to the printer for it.
      await this.send({ id: offer.id, token: offer.token, estado: 'failed', motivos: [OTHER], detalhe: (err as Error).message.slice(0, 500) });
      return;
    }
    let printing: Promise<unknown> = Promise.resolve();
    const opened = session;
    const result = await this.withPrinter(() => deliver(opened, { id: String(offer.id), token: offer.token, bytes: offer.bytes }, {
      ...(this.options.journal ? { journal: this.options.journal } : {}),
      reprint: offer.reprint,
      onWrite: () => {
        printing = this.link.report({ id: offer.id, token: offer.token, estado: 'printing' }).catch(() => {});
      },
    }));
    await printing;
    this.lastPrinter = offer.codigoImpressora;
    // The printer's word from this delivery's own status reads (none when the journal answered alone).
    if (!(result.outcome === 'completed' && result.fromJournal)) this.printer = printerHealthOf(result);
    const report = reportFor(offer, result);
    if (result.outcome === 'completed') this.printed++;
    if (result.outcome === 'stopped') {
      this.waitingFor = offer.codigoImpressora;
      // Until the service has this report, it does not count this job among the stopped ones.
      if (this.terminal) this.terminal = { ...this.terminal, parados: Math.max(1, this.terminal.parados) };
    }
    this.log(`job ${offer.id}: ${report.estado}${report.motivos?.length ? ` (${report.motivos.join(', ')})` : ''}${result.outcome === 'completed' && result.fromJournal ? ' [journal]' : ''}`);
    await this.send(report);
  }

  /**
   * Sends a report until the service takes it (or refuses it for good). A report that never arrives
   * is not lost work: the lease runs out, the job is offered again, and the journal answers.
   */
  private async send(report: TerminalReport): Promise<void> {
    let pause = this.options.retryMs ?? 1000;
    for (let attempt = 0; ; attempt++) {
      try {
        const { aceito } = await this.link.report(report);
        if (attempt > 0) this.log(`job ${report.id}: report ${report.estado} delivered after ${attempt} failed attempt(s)`);
        if (!aceito) this.log(`job ${report.id}: report ${report.estado} not taken (stale token or already final)`);
        return;
      } catch (err) {
        if (err instanceof LinkRefusedError) throw err;
        if (err instanceof LinkRequestError) {
          this.log(`job ${report.id}: report refused: ${err.message}`);
          return;
        }
        // Stopping: the journal keeps what was printed; the re-offer after restart reports it.
        if (this.abort.signal.aborted && attempt > 0) return;
        this.log(`job ${report.id}: report ${report.estado} not delivered (${(err as Error).message}); trying again in ${pause} ms`);
        await sleep(pause, this.abort.signal.aborted ? new AbortController().signal : this.abort.signal);
        pause = Math.min(pause * 2, 10_000);
      }
    }
  }
}
