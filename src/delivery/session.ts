// A printer session: one device address and one profile. status() asks the printer for its state
// with the profile's queries; print() writes a job in chunks, then (where the profile has it) waits
// for the printer to confirm the end of printing. One connection at a time; every step bounded.
import { loadProfile, type PrinterRef, type Profile } from '../profiles/index.js';
import { parseDevice, type DeviceAddress } from './address.js';
import { confirmReply, confirmRequest, newProcessId } from './confirm.js';
import { fromSystemError, PrinterError, withProgress } from './errors.js';
import { toHex } from './hex.js';
import { normaliseReasons, stopsPrinting, type StatusReason } from './reasons.js';
import { isGenuineReply, readReply, statusPlan, type StatusPlan, type StatusQuery } from './status.js';
import { transportFor, type Transport, type TransportOptions } from './transports/index.js';

export interface OpenOptions {
  /** Longest wait to connect or open the device (default 3000 ms). */
  connectTimeoutMs?: number;
  /** Longest wait for each status reply (default: the profile's `status.timeoutMs`, else 1000 ms). */
  statusTimeoutMs?: number;
  /** Longest the device may take no data before the write fails (default 10000 ms). */
  writeTimeoutMs?: number;
  /** Longest wait for the printer to confirm the end of printing (default 30000 ms). */
  confirmTimeoutMs?: number;
  /** Longest wait for a graceful close (default 2000 ms). */
  closeTimeoutMs?: number;
  /** Bytes per write; the progress reported after a failure is counted in these (default 4096). */
  chunkBytes?: number;
  /** Where the `-` address writes (default process.stdout). */
  stdout?: NodeJS.WritableStream;
}

export interface PrinterStatus {
  /** False when the device cannot report (stdout, a plain file, a profile without status queries, a device that never answers). */
  available: boolean;
  /** No reason that stops a job: safe to print. */
  ready: boolean;
  reasons: StatusReason[];
  /** What was seen, for logs: "refused", "no answer to 10 04 01 within 1000 ms", the replies in hex. */
  detail: string;
  /** The transport failure behind an `offline`, if that is what it was. */
  error?: PrinterError;
}

export interface PrintOptions {
  /** Wait for the printer's end-of-print confirmation where the profile has one (default true). */
  confirm?: boolean;
  /** The process id to send (printable ASCII, the profile's idLength); random by default. */
  processId?: string;
}

export interface PrintOutcome {
  /** Bytes of the job handed to the device: all of them, or print() throws. */
  written: number;
  /** "printer": the printer said it printed the job; "sent": every byte was written, and that is all we know. */
  confirmacao: 'sent' | 'printer';
  /** Whether a confirmation was asked for and how it ended. */
  confirmation: 'received' | 'timed-out' | 'not-requested';
  /** Reasons seen after the job (only when the printer was asked again after confirming or timing out). */
  motivos: StatusReason[];
  /** The printer's state after a confirmation that did not come, to tell a slow printer from a stopped one. */
  after?: PrinterStatus;
}

const DEFAULTS = { connectTimeoutMs: 3000, writeTimeoutMs: 10_000, confirmTimeoutMs: 30_000, closeTimeoutMs: 2000, chunkBytes: 4096 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class PrinterSession {
  readonly address: DeviceAddress;
  readonly profile: Profile;
  private readonly options: Required<Omit<OpenOptions, 'stdout' | 'statusTimeoutMs'>> & Pick<OpenOptions, 'stdout' | 'statusTimeoutMs'>;
  private readonly plan: StatusPlan | undefined;
  private transport: Transport | undefined;
  /** A status reply has come back from this device: it can answer, so it can confirm too. */
  private answered = false;

  constructor(device: string | DeviceAddress, printer: PrinterRef, options: OpenOptions = {}) {
    this.address = typeof device === 'string' ? parseDevice(device) : device;
    this.profile = loadProfile(printer);
    // An option given as undefined keeps its default.
    this.options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    this.plan = statusPlan(this.profile);
  }

  /**
   * The printer's state, from the profile's status queries. Never throws for a printer that cannot
   * be reached: that is `{ ready: false, reasons: ['offline'] }` with the error attached.
   */
  async status(): Promise<PrinterStatus> {
    let transport: Transport;
    try {
      transport = await this.connection();
    } catch (err) {
      const error = err as PrinterError;
      return { available: true, ready: false, reasons: ['offline'], detail: error.message, error };
    }
    const plan = this.plan;
    if (!plan) return { available: false, ready: true, reasons: [], detail: `${this.profile.code} has no status queries` };
    if (!transport.duplex) return { available: false, ready: true, reasons: [], detail: `${this.address.text} cannot answer` };
    try {
      return await this.ask(transport, plan);
    } catch (err) {
      this.drop();
      const error = fromSystemError(err, `status of ${this.address.text}`, { phase: 'status' });
      return { available: true, ready: false, reasons: ['offline'], detail: error.message, error };
    }
  }

  private async ask(transport: Transport, plan: StatusPlan): Promise<PrinterStatus> {
    const timeoutMs = this.options.statusTimeoutMs ?? plan.timeoutMs;
    if (plan.setup) {
      await transport.write(plan.setup);
      if (plan.settleMs) await sleep(plan.settleMs);
    }
    const reasons: StatusReason[] = [];
    const replies: string[] = [];
    for (const query of plan.queries) {
      const reply = await this.reply(transport, query, timeoutMs);
      if (reply === 'silent') {
        const detail = `no answer to ${toHex(query.send)} within ${timeoutMs} ms`;
        if (transport.silence === 'unavailable') return { available: false, ready: true, reasons: [], detail };
        this.drop();
        return { available: true, ready: false, reasons: ['offline'], detail };
      }
      if (reply === 'garbled') return { available: false, ready: true, reasons: [], detail: `no genuine reply to ${toHex(query.send)}` };
      this.answered = true;
      replies.push(`${toHex(query.send)} → ${toHex(reply)}`);
      reasons.push(...readReply(query, reply));
    }
    const found = normaliseReasons(reasons);
    return { available: true, ready: !stopsPrinting(found), reasons: found, detail: replies.join(', ') };
  }

  /** One query, asked again once if the answer lacks the bits every genuine reply has. */
  private async reply(transport: Transport, query: StatusQuery, timeoutMs: number): Promise<Uint8Array | 'silent' | 'garbled'> {
    for (let attempt = 0; attempt < 2; attempt++) {
      transport.inbox.clear();
      await transport.write(query.send);
      const reply = await transport.inbox.take(query.replyLength, timeoutMs);
      if (!reply) return 'silent';
      if (isGenuineReply(query, reply)) return reply;
    }
    return 'garbled';
  }

  /**
   * Writes a job and, where the profile can confirm the end of printing, waits for the printer to
   * say it printed it. Closes the connection afterwards. Throws a PrinterError whose `written` and
   * `started` tell a job that never started from one cut off in the middle.
   */
  async print(bytes: Uint8Array, options: PrintOptions = {}): Promise<PrintOutcome> {
    const total = bytes.length;
    let written = 0;
    let started = false;
    try {
      const transport = await this.connection();
      const { chunkBytes } = this.options;
      for (let at = 0; at < total; at += chunkBytes) {
        const chunk = bytes.subarray(at, Math.min(total, at + chunkBytes));
        started = true;
        await transport.write(chunk);
        written += chunk.length;
      }
      const confirm = this.plan?.confirm;
      // A device file may be one-way: it is asked to confirm only once it has answered a status query.
      const canAnswer = transport.duplex && (transport.silence === 'offline' || this.answered);
      if (!confirm || options.confirm === false || !canAnswer) {
        await this.close();
        return { written, confirmacao: 'sent', confirmation: 'not-requested', motivos: [] };
      }
      const id = options.processId === undefined ? newProcessId(confirm.idLength) : Uint8Array.from(Buffer.from(options.processId, 'latin1'));
      if (id.length !== confirm.idLength) throw new RangeError(`processId must be ${confirm.idLength} bytes`);
      transport.inbox.clear();
      await transport.write(confirmRequest(confirm, id)).catch((err) => {
        throw withProgress(err, `confirmation request to ${this.address.text}`, { phase: 'confirm', written, total, started });
      });
      const heard = await transport.inbox.find(confirmReply(confirm, id), this.options.confirmTimeoutMs);
      if (heard === 'found') {
        // The printer is idle now: its state is news about the paper left (media-low), nothing more.
        const after = await this.status();
        await this.close();
        return { written, confirmacao: 'printer', confirmation: 'received', motivos: after.reasons.filter((r) => r !== 'offline') };
      }
      this.drop();
      const after = await this.status();
      await this.close();
      return { written, confirmacao: 'sent', confirmation: 'timed-out', motivos: after.reasons, after };
    } catch (err) {
      this.drop();
      if (err instanceof RangeError) throw err;
      const phase = err instanceof PrinterError ? err.phase : 'write';
      throw withProgress(err, `writing to ${this.address.text}`, { phase, written, total, started });
    }
  }

  /** Ends the connection gracefully, if one is open. */
  async close(): Promise<void> {
    const t = this.transport;
    this.transport = undefined;
    await t?.close();
  }

  private async connection(): Promise<Transport> {
    if (this.transport) return this.transport;
    const transport = transportFor(this.address, this.transportOptions());
    try {
      await transport.open();
    } catch (err) {
      transport.destroy();
      throw err;
    }
    this.transport = transport;
    return transport;
  }

  private transportOptions(): TransportOptions {
    const { connectTimeoutMs, writeTimeoutMs, closeTimeoutMs, stdout } = this.options;
    return { connectTimeoutMs, writeTimeoutMs, closeTimeoutMs, ...(stdout ? { stdout } : {}) };
  }

  /** Tears the connection down at once (after an error, or a printer that stopped answering). */
  private drop(): void {
    this.transport?.destroy();
    this.transport = undefined;
  }
}

/**
 * Opens a session with the printer at `device` (`tcp://host:port`, `file:PATH` or `-`) that speaks
 * `printer`'s dialect. Nothing is connected until the first status() or print(); call close() when
 * done (print() closes by itself).
 *
 * @example
 * const printer = openPrinter('tcp://192.168.0.50:9100', 'MAKER5T20');
 * const state = await printer.status();          // { ready: true, reasons: [], … }
 * if (state.ready) await printer.print(compile(conteudo, { printer: 'MAKER5T20' }).bytes);
 */
export function openPrinter(device: string | DeviceAddress, printer: PrinterRef, options: OpenOptions = {}): PrinterSession {
  return new PrinterSession(device, printer, options);
}
