// The client's heartbeat: every `everyMs` (never two at once) it runs `beat` — the loop reads the
// printer if no job is in hand, then tells the service (Sinal) — so a terminal parked in a long
// poll still says it is there. And what a delivery's own status reads said of the printer.
import type { DeliveryResult } from './deliver.js';
import type { PrinterHealth } from './protocol.js';
import { isPrinterReason, stopsPrinting, type StatusReason } from './reasons.js';

export class Heartbeat {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private stopped = false;
  /** A failure was said; the next one of the same streak is not. */
  private failing = false;

  constructor(private readonly everyMs: number, private readonly beat: () => Promise<void>, private readonly onError: (err: Error) => void) {}

  start(): void {
    if (this.everyMs > 0) this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
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
    }, this.everyMs);
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
