// The virtual printer: a raw-socket printer on 127.0.0.1 that speaks one profile's status dialect,
// prints (records, and with an output directory saves) each job it receives, and whose state —
// paper, cover, offline, error, speed — can be changed while it runs. For people integrating
// without hardware, and for the tests. The control language is in state.ts, a connection in
// connection.ts (what is status and what is a job: reader.ts), what is kept of a job in store.ts,
// the HTTP control port in control-http.ts.
import type { Server, Socket } from 'node:net';
import { loadProfile, type PrinterRef, type Profile } from '../../profiles/index.js';
import { net } from '../builtins.js';
import { statusPlan, writeReply, type StatusPlan, type StatusQuery } from '../status.js';
import { startControlServer, type ControlServer } from './control-http.js';
import { Connection } from './connection.js';
import type { JobEnd } from './reader.js';
import { activeReasons, canPrint, CONTROL_HELP, INITIAL_STATE, parseControl, type VirtualState } from './state.js';
import { makeJob, nextSeq, saveJob, type VirtualJob } from './store.js';

export type { VirtualJob } from './store.js';
export type { VirtualState } from './state.js';

export interface VirtualPrinterOptions {
  /** The printer whose status dialect to speak (a template id, code or profile). */
  printer: PrinterRef;
  /** TCP port on 127.0.0.1 (default 0: any free port; see `port`). */
  port?: number;
  /** Save each job's bytes, preview and record here. */
  out?: string;
  /** The state to start in (default: paper ok, cover closed, online, no error, fast). */
  state?: Partial<VirtualState>;
  /** Also serve the HTTP control interface on this port of 127.0.0.1 (0: any free port). */
  controlPort?: number;
  /** One line per event (job printed, state changed), for a log or a terminal. */
  onEvent?: (line: string) => void;
}

export interface VirtualPrinter {
  readonly profile: Profile;
  readonly port: number;
  /** The device address to print to: `tcp://127.0.0.1:<port>`. */
  readonly address: string;
  /** The HTTP control interface, when started. */
  readonly controlUrl: string | undefined;
  readonly state: Readonly<VirtualState>;
  /** Printed jobs, in order. */
  readonly jobs: readonly VirtualJob[];
  /** Jobs received but waiting (paper out, cover open, error). */
  readonly held: number;
  /** Bytes read from all connections so far (status traffic included), at the printer's speed. */
  readonly received: number;
  /** Changes the state; resolves when it holds (e.g. the port refuses connections). */
  setState(patch: Partial<VirtualState>): Promise<VirtualState>;
  /** One line of the control language ("paper out", "state"…); resolves to the answer. */
  command(line: string): Promise<{ ok: boolean; text: string; quit?: boolean }>;
  /** Resolves with the jobs once at least `count` have printed; rejects after `timeoutMs`. */
  waitForJobs(count: number, timeoutMs: number): Promise<readonly VirtualJob[]>;
  close(): Promise<void>;
}

export type Queued = { bytes: Uint8Array; end: JobEnd; receivedAt: Date; onPrinted?: () => void } | { marker: true; onPrinted: () => void };

export class Printer implements VirtualPrinter {
  readonly profile: Profile;
  readonly plan: StatusPlan | undefined;
  port = 0;
  controlUrl: string | undefined;
  state: VirtualState;
  received = 0;
  readonly jobs: VirtualJob[] = [];
  private readonly queue: Queued[] = [];
  private readonly connections = new Set<Connection>();
  private readonly waiters = new Set<() => void>();
  private server: Server;
  private control: ControlServer | undefined;
  private seq: number;
  closed = false;

  constructor(private readonly options: VirtualPrinterOptions) {
    this.profile = loadProfile(options.printer);
    this.plan = statusPlan(this.profile);
    this.state = { ...INITIAL_STATE, ...options.state };
    this.seq = nextSeq(options.out);
    // Accepted paused: a connection reads only what the printer's state lets it (connection.ts).
    this.server = net().createServer({ pauseOnConnect: true }, (socket) => this.accept(socket));
  }

  get address(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  get held(): number {
    return this.queue.filter((q) => !('marker' in q)).length;
  }

  async start(): Promise<void> {
    this.port = this.options.port ?? 0;
    if (this.state.offline !== 'refuse') await this.listen();
    else if (this.port === 0) throw new Error('a virtual printer that starts refusing connections needs a fixed --port');
    if (this.options.controlPort !== undefined) {
      try {
        this.control = await startControlServer(this, this.options.controlPort);
      } catch (err) {
        // Not started after all: the printer's own port is closed again (nothing left listening),
        // and the error says which port could not be had.
        await this.stopListening();
        throw Object.assign(err as Error, { port: this.options.controlPort });
      }
      this.controlUrl = this.control.url;
    }
  }

  private listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        this.port = (this.server.address() as { port: number }).port;
        resolve();
      });
    });
  }

  private stopListening(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // A printer that goes away drops its connections too: a job in the middle is torn, with only
    // the bytes the printer had read.
    for (const c of this.connections) c.tear();
    return closed;
  }

  private accept(socket: Socket): void {
    if (this.state.offline === 'refuse') return void socket.destroy();
    this.connections.add(new Connection(this, socket));
  }

  /** A connection that has ended, all it received read. */
  forget(conn: Connection): void {
    this.connections.delete(conn);
  }

  async setState(patch: Partial<VirtualState>): Promise<VirtualState> {
    const before = this.state;
    this.state = { ...this.state, ...patch };
    if (before.offline !== 'refuse' && this.state.offline === 'refuse') await this.stopListening();
    if (before.offline === 'refuse' && this.state.offline !== 'refuse' && !this.closed) await this.listen();
    const changed = (Object.keys(patch) as (keyof VirtualState)[]).filter((k) => before[k] !== this.state[k]);
    if (changed.length) this.log(`state: ${changed.map((k) => `${k} ${String(this.state[k])}`).join(', ')}`);
    for (const c of this.connections) c.pump();
    this.drain();
    return this.state;
  }

  async command(line: string): Promise<{ ok: boolean; text: string; quit?: boolean }> {
    const parsed = parseControl(line);
    if ('error' in parsed) return { ok: false, text: parsed.error };
    if ('patch' in parsed) return { ok: true, text: JSON.stringify(await this.setState(parsed.patch)) };
    const answers = {
      state: () => JSON.stringify({ ...this.state, held: this.held, printed: this.jobs.length }),
      jobs: () => JSON.stringify(this.jobs.map(describeJob)),
      help: () => CONTROL_HELP,
      quit: () => 'bye',
    };
    return { ok: true, text: answers[parsed.action](), ...(parsed.action === 'quit' ? { quit: true } : {}) };
  }

  waitForJobs(count: number, timeoutMs: number): Promise<readonly VirtualJob[]> {
    if (this.jobs.length >= count) return Promise.resolve(this.jobs);
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.jobs.length < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(this.jobs);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`virtual printer: ${this.jobs.length} of ${count} jobs printed after ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  /** A job (or a confirmation marker) from a connection: printed now or when the printer can. */
  submit(item: Queued): void {
    this.queue.push(item);
    this.drain();
  }

  statusReply(query: StatusQuery): Uint8Array {
    return writeReply(query, activeReasons(this.state));
  }

  private drain(): void {
    while (this.queue.length && canPrint(this.state)) {
      const item = this.queue.shift()!;
      if (!('marker' in item)) this.print(item);
      item.onPrinted?.();
    }
  }

  private print(item: Exclude<Queued, { marker: true }>): void {
    if (this.closed) return;
    const job = makeJob(this.seq++, item.bytes, item.end, item.receivedAt, this.profile);
    if (this.options.out) saveJob(job, this.options.out, this.profile);
    this.jobs.push(job);
    const kind = job.complete ? (job.endedBy === 'confirm' ? 'complete (confirmation asked)' : 'complete') : job.truncated ? 'TORN (ends inside a command)' : `incomplete (connection ${job.endedBy})`;
    this.log(`job ${job.seq}: ${job.size} bytes, ${kind}${job.files.length ? `, saved ${job.files.join(', ')}` : ''}${job.note ? ` (${job.note})` : ''}`);
    for (const w of [...this.waiters]) w();
  }

  log(line: string): void {
    this.options.onEvent?.(line);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.control?.close();
    await this.stopListening();
    for (const c of this.connections) c.tear();
  }
}

function describeJob(job: VirtualJob) {
  const { bytes: _bytes, ...rest } = job;
  return rest;
}

/**
 * Starts a virtual printer on 127.0.0.1.
 *
 * @example
 * const vp = await startVirtualPrinter({ printer: 'MAKER5T20' });
 * await deliver(openPrinter(vp.address, 'MAKER5T20'), job);
 * await vp.setState({ paper: 'out' });            // the next status says media-empty
 * vp.jobs[0].bytes                                 // exactly the bytes that were sent
 * await vp.close();
 */
export async function startVirtualPrinter(options: VirtualPrinterOptions): Promise<VirtualPrinter> {
  const printer = new Printer(options);
  await printer.start();
  return printer;
}
