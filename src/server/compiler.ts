// Where the service compiles a job: inline on the request thread (tests, embedding), or in a pool
// of worker threads (`bobina serve`), so that one slow compile never stalls the other requests.
// Both run compile-worker.ts, with the compiler's DEFAULT_LIMITS.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { CompileResult } from '../index.js';
import compileTask, { type CompileTask } from './compile-worker.js';

export type { CompileTask };

export interface Compiler {
  run(task: CompileTask): Promise<CompileResult>;
  close(): Promise<void>;
}

export const inlineCompiler: Compiler = {
  run: async (task) => compileTask(task),
  close: async () => {},
};

/**
 * A piscina pool running compile-worker.js (built beside this module in dist/). One thread is
 * kept warm; more start under load, up to one per core, and stop after 30 s idle.
 */
export function workerCompiler(filename: URL = new URL('./compile-worker.js', import.meta.url)): Compiler {
  const pool = new Piscina<CompileTask, CompileResult>({
    filename: filename.href,
    minThreads: 1,
    maxThreads: Math.max(1, availableParallelism()),
    idleTimeout: 30_000,
  });
  return { run: (task) => pool.run(task), close: () => pool.destroy() };
}
