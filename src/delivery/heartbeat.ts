// The client's heartbeat: every `everyMs` (never two at once) it runs `beat` — the loop reads the
// printer if no job is in hand, then tells the service (Sinal) — so a terminal parked in a long
// poll still says it is there; as often as the service asks, if that is more often (follow). And
// what a delivery's own status reads said of the printer.
import type { DeliveryResult } from './deliver.js';
import type { PrinterHealth } from './protocol.js';
import { isPrinterReason, stopsPrinting, type StatusReason } from './reasons.js';

/** The shortest interval a service may ask for: a service that says 0 (or 0.001) does not make the client beat without pause. */
export const MIN_HEARTBEAT_MS = 1000;

export class Heartbeat {
  private timer: NodeJS.Timeout | undefined;
  /** When the pending beat was scheduled from (the last beat's end, or the start). */
  private since = 0;
  private beating: Promise<void> | undefined;
  private stopped = false;
  /** A failure was said; the next one of the same streak is not. */
  private failing = false;
  /** The interval in use: `maxMs`, or shorter when the service asks for less (follow). */
  private everyMs: number;

  /** `maxMs`: the client's own interval, the longest it waits between beats (0: no heartbeat). */
  constructor(private readonly maxMs: number, private readonly beat: () => Promise<void>, private readonly onError: (err: Error) => void) {
    this.everyMs = maxMs;
  }

  start(): void {
    if (this.everyMs > 0) this.schedule();
  }

  /**
   * The interval the service expects (ObterProxima's `intervaloSegundos`): the client beats at
   * least that often, and at least as often as its own interval; what a service asks is taken as
   * one second at the least. A pending beat due later than the new interval allows is brought forward.
   */
  follow(serviceMs: number): void {
    if (this.maxMs <= 0 || !(serviceMs > 0)) return;
    const everyMs = Math.min(this.maxMs, Math.max(MIN_HEARTBEAT_MS, serviceMs));
    if (everyMs === this.everyMs) return;
    this.everyMs = everyMs;
    if (this.timer !== undefined && this.beating === undefined) {
      clearTimeout(this.timer);
      this.schedule(this.since);
    }
  }

  private schedule(since = Date.now()): void {
    if (this.stopped) return;
    this.since = since;
    this.timer = setTimeout(() => {
      this.beating = this.beat().then(() => {
        this.failing = false;
      }, (err: Error) => {
        if (!this.failing) this.onError(err);
        this.failing = true;
      }).finally(() => {
        this.beating = undefined;
        this.schedule();
      });
    }, Math.max(0, since + this.everyMs - Date.now()));
  }

  /** No more beats; waits for the one in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.beating;
  }
}

/**
 * The printer as a delivery found it, from the reads deliver() already made (before writing, after
 * the confirmation): the printer's own reasons (not `outcome-unknown` and other client words).
 */
export function printerHealthOf(result: DeliveryResult): PrinterHealth {
  const reasons = result.motivos.filter(isPrinterReason);
  const ready = result.outcome === 'stopped' ? false : !stopsPrinting(reasons as StatusReason[]);
  return { ready, reasons: [...new Set(reasons)] };
}
