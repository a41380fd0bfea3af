// One client connection of the virtual printer: reads at the printer's speed (slow: a slice every
// tenth of a second; silent: nothing), answers status queries at once, and hands each job (and
// each confirmation request) to the printer's queue, which prints when the printer can.
import type { Socket } from 'node:net';
import { confirmReply } from '../confirm.js';
import type { Printer } from './printer.js';
import { StreamReader } from './reader.js';

/** Reading pauses when this much is waiting to be read (a slow printer pushes back on the sender). */
const HIGH_WATER = 64 * 1024;
/** A slow printer reads in this many slices a second. */
const TICKS_PER_SECOND = 10;

export class Connection {
  private readonly reader: StreamReader;
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
      this.receivedAt ??= new Date();
      this.incoming.push(chunk);
      this.queued += chunk.length;
      // Past the high-water mark the socket stops reading, so a slow printer pushes back on the sender.
      if (this.queued > HIGH_WATER) socket.pause();
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
    if (printer.state.offline === 'silent') socket.pause();
  }

  private send(bytes: Uint8Array): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(bytes);
  }

  /** Feeds the reader what has arrived, at the printer's speed; silent: reads nothing at all. */
  pump(): void {
    if (this.printer.closed) return;
    const { state } = this.printer;
    if (state.offline === 'silent') {
      if (!this.socket.destroyed) this.socket.pause();
      return;
    }
    if (this.timer) return;
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
    if (this.queued > HIGH_WATER) this.socket.pause();
    else if (!this.socket.destroyed) this.socket.resume();
    if (!this.incoming.length && this.ended && !this.finished) {
      const by = this.ended;
      this.finished = true;
      this.reader.end(by);
      if (by === 'close' && !this.socket.destroyed) this.socket.end();
    }
  }
}
