// One compile, as the task a compile worker thread runs (piscina calls the default export) and as
// the inline compiler calls it. Built as its own entry, dist/compile-worker.js.
import { parentPort } from 'node:worker_threads';
import { compile, type CompileResult, type TagSet } from '../index.js';

export interface CompileTask {
  conteudo: string;
  /** A built-in template id (the route has resolved it). */
  printer: number;
  /** Which tags are commands: the account's setting (`bobina users set --tags`); default 'all'. */
  tags?: TagSet;
  /**
   * On a worker thread: the pool's number for this task, posted back as `{ compileStarted }` when
   * the compile begins, so that its time budget counts the compile and not a thread's start-up.
   */
  ticket?: number;
}

/** Compiles with the compiler's DEFAULT_LIMITS. */
export default function compileTask({ conteudo, printer, tags, ticket }: CompileTask): CompileResult {
  if (ticket !== undefined) parentPort?.postMessage({ compileStarted: ticket });
  return compile(conteudo, tags === 'partner' ? { printer, tags } : { printer });
}
