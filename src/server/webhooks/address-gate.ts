// At most `perAddress` webhook posts in flight to one IP address from this process, whatever the
// endpoints, accounts or host names behind them (500 endpoints on one receiver, or many names that
// resolve to one address). The outbox already limits each origin (outbox.ts, claimDue); this holds
// for the address the sender actually connects to, which is known only after DNS.

export class AddressGate {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(readonly limit: number) {}

  /** Waits for a free slot to `address` (aborted by `signal`); resolves with the function that frees it. */
  acquire(address: string, signal?: AbortSignal): Promise<() => void> {
    const release = this.releaser(address);
    if ((this.busy.get(address) ?? 0) < this.limit) {
      this.busy.set(address, (this.busy.get(address) ?? 0) + 1);
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(address) ?? [];
      this.waiting.set(address, queue);
      const onAbort = () => {
        const i = queue.indexOf(admit);
        if (i >= 0) queue.splice(i, 1);
        if (queue.length === 0 && this.waiting.get(address) === queue) this.waiting.delete(address);
        reject(signal!.reason);
      };
      // Handed a slot by release(): the slot's count moves to this waiter unchanged.
      const admit = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(release);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(admit);
    });
  }

  /** Posts in flight to `address` now. */
  inFlight(address: string): number {
    return this.busy.get(address) ?? 0;
  }

  private releaser(address: string): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const queue = this.waiting.get(address);
      const next = queue?.shift();
      if (queue && queue.length === 0) this.waiting.delete(address);
      if (next) return next();
      const left = (this.busy.get(address) ?? 1) - 1;
      if (left === 0) this.busy.delete(address);
      else this.busy.set(address, left);
    };
  }
}
