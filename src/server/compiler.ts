// Where the service compiles a job: inline on the request thread (tests, embedding), or in a pool
// of worker threads (`bobina serve`), so that one slow compile never stalls the other requests.
// Both run compile-worker.ts, with the compiler's DEFAULT_LIMITS. The pool serves accounts in turn
// (fair-queue.ts) and ends a compile that runs past its time budget, thread and all.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { CompileResult } from '../index.js';
import compileTask, { type CompileTask } from './compile-worker.js';
import { FairQueue } from './fair-queue.js';

export type { CompileTask };

export interface Compiler {
  /** Compiles `task` for `owner` (the account: the pool takes owners in turn). */
  run(task: CompileTask, owner: string): Promise<CompileResult>;
  close(): Promise<void>;
  /** A pool's load now: compiles waiting for a thread, compiles running, threads it may use (the inline compiler has none). */
  load?(): { waiting: number; running: number; threads: number };
}

/** A compile ended because it ran past its time budget; its worker thread was ended with it. */
export class CompileTimeout extends Error {
  override name = 'CompileTimeout';
  constructor(readonly budgetMs: number) {
    super(`the compile ran past its budget of ${budgetMs} ms and was ended`);
  }
}

export const inlineCompiler: Compiler = {
  run: async (task) => compileTask(task),
  close: async () => {},
};

/** The most a compile may run on a worker before it is ended (README: Limits and the event loop). */
export const DEFAULT_COMPILE_BUDGET_MS = 10_000;

export interface WorkerCompilerOptions {
  /** The worker's module (default compile-worker.js, built beside this one in dist/). */
  filename?: URL;
  /** Threads (default one per core). */
  threads?: number;
  /** How long one compile may run once a thread has begun it (default 10 s). */
  budgetMs?: number;
}

/**
 * A piscina pool running compile-worker.js. One thread is kept warm; more start under load, up to
 * `threads`, and stop after 30 s idle. Tasks wait in a fair queue, one per thread at most in the
 * pool, so piscina's own queue stays empty and a free thread goes to the next account in turn.
 */
export function workerCompiler(o: WorkerCompilerOptions = {}): Compiler {
  const threads = o.threads ?? Math.max(1, availableParallelism());
  const budgetMs = o.budgetMs ?? DEFAULT_COMPILE_BUDGET_MS;
  const pool = new Piscina<CompileTask, CompileResult>({
    filename: (o.filename ?? new URL('./compile-worker.js', import.meta.url)).href,
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 30_000,
  });
  const queue = new FairQueue(threads);
  // Started compiles' budgets, by ticket: armed when the worker says the compile has begun.
  const budgets = new Map<number, () => void>();
  let tickets = 0;
  pool.on('message', (m: { compileStarted?: number }) => {
    if (typeof m?.compileStarted === 'number') budgets.get(m.compileStarted)?.();
  });

  async function runOnce(task: CompileTask): Promise<CompileResult> {
    const ticket = ++tickets;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    budgets.set(ticket, () => {
      timer = setTimeout(() => abort.abort(new CompileTimeout(budgetMs)), budgetMs);
    });
    try {
      return await pool.run({ ...task, ticket }, { signal: abort.signal });
    } catch (err) {
      // piscina rejects an aborted task with its own AbortError, having ended the thread.
      if (abort.signal.aborted) throw abort.signal.reason;
      throw err;
    } finally {
      clearTimeout(timer);
      budgets.delete(ticket);
    }
  }

  return {
    run: (task, owner) => queue.run(owner, () => runOnce(task)),
    load: () => ({ waiting: queue.size, running: queue.started, threads }),
    close: async () => {
      queue.close(new Error('the compiler is closed'));
      await pool.destroy();
    },
  };
}
