// One client connection of the virtual printer: reads at the printer's speed (slow: a slice every
// tenth of a second, and the socket paused while the printer has something in hand, so the sender
// is held back by the kernel's buffers, not by ours; silent: nothing), answers status queries at
// once, and hands each job (and each confirmation request) to the printer's queue, which prints when
// the printer can. A printer that goes away (offline refuse) tears the connection: what it had not
// read is lost, and the job in progress ends there.
import type { Socket } from 'node:net';
import { confirmReply } from '../confirm.js';
import type { Printer } from './printer.js';
import { StreamReader } from './reader.js';

/** A slow printer reads in this many slices a second. */
const TICKS_PER_SECOND = 10;

export class Connection {
  private readonly reader: StreamReader;
  /** Bytes taken off the socket that the printer has not read yet (at most one socket read while slow). */
  private readonly incoming: Uint8Array[] = [];
  private queued = 0;
  private ended: 'close' | 'reset' | undefined;
  private finished = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private receivedAt: Date | undefined;

  constructor(
    private readonly printer: Printer,
    readonly socket: Socket,
  ) {
    this.reader = new StreamReader(printer.plan, {
      query: (query) => {
        this.send(printer.statusReply(query));
      },
      job: (bytes, end) => {
        const plan = printer.plan?.confirm;
        const reply = end.by === 'confirm' && plan ? confirmReply(plan, end.id) : undefined;
        printer.submit({ bytes, end, receivedAt: this.receivedAt ?? new Date(), ...(reply ? { onPrinted: () => this.send(reply) } : {}) });
        this.receivedAt = undefined;
      },
      confirm: (id) => {
        const plan = printer.plan?.confirm;
        if (plan) printer.submit({ marker: true, onPrinted: () => this.send(confirmReply(plan, id)) });
      },
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.finished) return;
      this.receivedAt ??= new Date();
      this.incoming.push(chunk);
      this.queued += chunk.length;
      this.pump();
    });
    socket.on('end', () => {
      this.ended ??= 'close';
      this.pump();
    });
    socket.on('error', () => {
      this.ended = 'reset';
    });
    socket.on('close', () => {
      this.ended ??= 'reset';
      this.pump();
    });
    // The server accepts connections paused: nothing is read before the printer's state says so.
    this.pump();
  }

  private send(bytes: Uint8Array): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(bytes);
  }

  /** Feeds the reader what has arrived, at the printer's speed; silent: reads nothing at all. */
  pump(): void {
    if (this.printer.closed || this.finished) return;
    const { state } = this.printer;
    if (state.offline === 'silent') {
      this.socket.pause();
      return;
    }
    if (!this.timer) {
      while (this.incoming.length) {
        const budget = state.slow > 0 ? Math.max(1, Math.ceil(state.slow / TICKS_PER_SECOND)) : Infinity;
        const first = this.incoming[0]!;
        const take = first.length <= budget ? this.incoming.shift()! : first.subarray(0, budget);
        if (take !== first) this.incoming[0] = first.subarray(budget);
        this.queued -= take.length;
        this.printer.received += take.length;
        this.reader.feed(take);
        if (state.slow > 0) {
          this.timer = setTimeout(() => {
            this.timer = undefined;
            this.pump();
          }, 1000 / TICKS_PER_SECOND);
          break;
        }
      }
    }
    // Nothing more is taken off the socket while the printer has bytes in hand: the rest waits in
    // the kernel's buffers, and a sender whose buffers are full waits for the printer.
    if (this.queued > 0) this.socket.pause();
    else if (!this.socket.destroyed) this.socket.resume();
    if (!this.incoming.length && this.ended) this.finish(this.ended);
  }

  /**
   * The printer goes away (offline refuse, or it is closed): the connection is dropped, what had
   * arrived but was not read yet is lost, and a job in progress ends here, torn.
   */
  tear(): void {
    if (this.finished) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.incoming.length = 0;
    this.queued = 0;
    this.socket.destroy();
    this.finish('reset');
  }

  private finish(by: 'close' | 'reset'): void {
    if (this.finished) return;
    this.finished = true;
    // The printer forgets the connection only now: a socket closed by its client may still have
    // bytes in hand that the printer reads (and tears, if it goes away first).
    this.printer.forget(this);
    this.reader.end(by);
    if (by === 'close' && !this.socket.destroyed) this.socket.end();
  }
}
