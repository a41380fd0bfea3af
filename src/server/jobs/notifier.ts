// In-process wake-ups for long-polling clients: a job that becomes queued bumps its queue's
// version and wakes whoever waits on it. A waiter passes the versions it saw before looking for
// a job, so a job queued between its look and its wait is never missed. Across service instances
// (PostgreSQL) the store's signals carry the same keys (context.ts), and a gap in them wakes everyone.

export class QueueNotifier {
  private readonly versions = new Map<string, number>();
  private readonly waiters = new Map<string, Set<(woken: boolean) => void>>();
  private closed = false;

  /** A terminal's own queue. */
  static terminal(accountId: string, terminalId: string): string {
    return `t\u0000${accountId}\u0000${terminalId}`;
  }

  /** An account's jobs without a terminal (taken by its template-jobs terminals). */
  static templates(accountId: string): string {
    return `a\u0000${accountId}`;
  }

  version(key: string): number {
    return this.versions.get(key) ?? 0;
  }

  snapshot(keys: readonly string[]): number[] {
    return keys.map((k) => this.version(k));
  }

  notify(key: string): void {
    this.versions.set(key, this.version(key) + 1);
    const set = this.waiters.get(key);
    if (!set) return;
    this.waiters.delete(key);
    for (const wake of set) wake(true);
  }

  /** Wakes every waiter (each re-checks its queue): notices from other instances may have been missed. */
  notifyAll(): void {
    for (const key of [...this.waiters.keys()]) this.notify(key);
  }

  /**
   * Resolves true when one of `keys` moved past `seen` (at once if it already has), false after
   * `ms`, when `signal` aborts, or when the notifier is closed.
   */
  wait(keys: readonly string[], seen: readonly number[], ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.closed || signal?.aborted) return Promise.resolve(false);
    if (keys.some((k, i) => this.version(k) !== seen[i])) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        for (const k of keys) this.waiters.get(k)?.delete(wake);
        resolve(woken);
      };
      const wake = (woken: boolean) => done(woken);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      for (const k of keys) {
        let set = this.waiters.get(k);
        if (!set) this.waiters.set(k, (set = new Set()));
        set.add(wake);
      }
    });
  }

  /** Ends every wait (false) and refuses new ones: the app is closing. */
  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    for (const set of [...this.waiters.values()]) for (const wake of [...set]) wake(false);
    this.waiters.clear();
  }
}
