// Background workers: long-running loops (the store's own, such as SQLite's WAL checkpointer; the
// job sweeps, direct delivery, the webhook sender) that the app starts when it is ready and stops
// when it closes.
// A worker keeps no state that must hold across instances: that lives in the store.

/** The logging a worker may do (pino's shape: an object, then a message). */
export interface WorkerLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface BackgroundWorker {
  /** A short stable name, used in logs. */
  readonly name: string;
  /** Starts the loop; resolves once it runs. Called once, from the app's onReady. */
  start(log: WorkerLog): void | Promise<void>;
  /** Stops the loop and waits for the work in hand to finish. Called once, when the app starts closing (preClose). */
  stop(): Promise<void>;
}

/**
 * A worker that runs `tick` every `everyMs`, never two ticks at once (the next one is scheduled
 * when the last ends). A failing tick is logged and the loop goes on; stop() waits for a running tick.
 *
 * @example
 * const sweeper = periodic('token-sweeper', 60_000, () => store.credentials.purgeExpired(new Date()));
 */
export function periodic(name: string, everyMs: number, tick: () => unknown): BackgroundWorker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let log: WorkerLog;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = (async () => {
        try {
          await tick();
        } catch (err) {
          log.warn({ err, worker: name }, 'background worker tick failed');
        }
      })().finally(() => {
        running = undefined;
        schedule();
      });
    }, everyMs);
    // A worker never keeps the process alive on its own: closing the app is what ends it.
    timer.unref();
  };

  return {
    name,
    start(l) {
      log = l;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * Works off a backlog in batches: `take(batch)` (which handles at most that many, and says how many
 * it found) until a call finds fewer, or `batches` calls were made; how many in all. The retention
 * purges and the lease and expiry sweeps use it: a large backlog goes over several ticks, never in
 * one long pause.
 */
export async function inBatches(take: (limit: number) => Promise<number>, batch: number, batches: number): Promise<number> {
  let count = 0;
  for (let i = 0; i < batches; i++) {
    const n = await take(batch);
    count += n;
    if (n < batch) break;
  }
  return count;
}
