// Bytes the printer sends back (status replies, confirmations), buffered until delivery asks for
// them. Every wait has a deadline; a lost connection ends every wait at once.
import { concatBytes, indexOfBytes } from './hex.js';

interface Waiter {
  ready: () => boolean;
  wake: () => void;
}

export class Inbox {
  private buffered: Uint8Array = new Uint8Array(0);
  private closed: Error | undefined;
  private waiters = new Set<Waiter>();

  /** Bytes arrived from the device. */
  push(chunk: Uint8Array): void {
    this.buffered = this.buffered.length ? concatBytes([this.buffered, chunk]) : Uint8Array.from(chunk);
    this.poke();
  }

  /** The device can send nothing more (closed, reset, gone). */
  end(reason: Error): void {
    this.closed ??= reason;
    this.poke();
  }

  /** Forgets what has arrived so far (stale replies, unsolicited status). */
  clear(): void {
    this.buffered = new Uint8Array(0);
  }

  get size(): number {
    return this.buffered.length;
  }

  /** The next `n` bytes, or undefined if they do not arrive within `timeoutMs` or the device closes. */
  async take(n: number, timeoutMs: number): Promise<Uint8Array | undefined> {
    await this.until(() => this.buffered.length >= n, timeoutMs);
    if (this.buffered.length < n) return undefined;
    const out = this.buffered.slice(0, n);
    this.buffered = this.buffered.slice(n);
    return out;
  }

  /**
   * Waits for `pattern` anywhere in what arrives (other bytes before it are skipped) and consumes up
   * to its end. 'found', or 'timeout', or 'closed' when the device closed first.
   */
  async find(pattern: Uint8Array, timeoutMs: number): Promise<'found' | 'timeout' | 'closed'> {
    await this.until(() => indexOfBytes(this.buffered, pattern) >= 0, timeoutMs);
    const at = indexOfBytes(this.buffered, pattern);
    if (at >= 0) {
      this.buffered = this.buffered.slice(at + pattern.length);
      return 'found';
    }
    return this.closed ? 'closed' : 'timeout';
  }

  private until(ready: () => boolean, timeoutMs: number): Promise<void> {
    if (ready() || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        ready,
        wake: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private poke(): void {
    for (const w of [...this.waiters]) if (this.closed || w.ready()) w.wake();
  }
}
