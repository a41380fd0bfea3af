// Async transactions on one synchronous connection. better-sqlite3 runs every statement on the
// one connection, so while a transaction is open (BEGIN IMMEDIATE … awaiting fn … COMMIT) any
// other caller's statement would run inside it. The gate queues them (FIFO) until it ends; the
// WAL checkpointer uses the same queue to get a moment with no writes.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Runs a synchronous statement function and hands back its result as a promise. */
export type Runner = <T>(fn: () => T) => Promise<T>;

export interface TransactionSteps {
  begin(): void;
  commit(): void;
  rollback(): void;
}

const settle = <T>(fn: () => T): Promise<T> => {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
};

export class Gate {
  private locked = false;
  private readonly waiting: Array<() => void> = [];
  private readonly context = new AsyncLocalStorage<object>();
  private owner: object | undefined;

  /** `settled` is told after every statement or transaction outside the gate's hold (the checkpointer watches the WAL there). */
  constructor(private readonly settled: () => void = () => {}) {}

  /** Whether a statement, transaction or the checkpointer holds the connection now. */
  get busy(): boolean {
    return this.locked;
  }

  /** Callers waiting for the connection. */
  get queued(): number {
    return this.waiting.length;
  }

  /** A statement outside any transaction: it runs at once, or after the open transaction ends. */
  readonly run: Runner = (fn) => {
    if (!this.locked) {
      const result = settle(fn);
      this.settled();
      return result;
    }
    return this.refuseFromInside().then(() => this.take()).then(() => {
      try {
        return fn();
      } finally {
        this.release();
        this.settled();
      }
    });
  };

  /** Runs `fn` between begin and commit (rollback if it throws), with a runner bound to this transaction. */
  async transaction<T>(steps: TransactionSteps, fn: (run: Runner) => Promise<T>): Promise<T> {
    await this.refuseFromInside();
    await this.take();
    const token = {};
    let open = true;
    const run: Runner = (statement) => {
      if (!open) return Promise.reject(new Error('store: this transaction has already ended'));
      return settle(statement);
    };
    this.owner = token;
    try {
      steps.begin();
      let result: T;
      try {
        result = await this.context.run(token, () => fn(run));
        steps.commit();
      } catch (err) {
        steps.rollback();
        throw err;
      }
      return result;
    } finally {
      open = false;
      this.owner = undefined;
      this.release();
      this.settled();
    }
  }

  /**
   * Holds every statement on this connection back (asynchronously: the event loop goes on) until
   * the returned release is called: how the WAL checkpointer gets a gap between writes.
   */
  async exclusive(): Promise<() => void> {
    await this.refuseFromInside();
    await this.take();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release();
    };
  }

  private refuseFromInside(): Promise<void> {
    if (this.owner !== undefined && this.context.getStore() === this.owner) {
      return Promise.reject(new Error("store: inside transaction(fn) use the repositories fn receives, not the store's own (they would wait for this transaction)"));
    }
    return Promise.resolve();
  }

  /**
   * Takes the lock, waiting for it when it is held. Checked here, when the caller's turn comes, not
   * earlier: a lock held when a statement was queued may have been released with nobody waiting since.
   */
  private take(): Promise<void> {
    if (this.locked) return this.acquire();
    this.locked = true;
    return Promise.resolve();
  }

  /** Waits for the lock; release() hands it over directly, so it never looks free to a newcomer meanwhile. */
  private acquire(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.locked = false;
  }
}
