// One compile, as the task a compile worker thread runs (piscina calls the default export) and as
// the inline compiler calls it. Built as its own entry, dist/compile-worker.js.
import { compile, type CompileResult } from '../index.js';

export interface CompileTask {
  conteudo: string;
  /** A built-in template id (the route has resolved it). */
  printer: number;
}

/** Compiles with the compiler's DEFAULT_LIMITS. */
export default function compileTask({ conteudo, printer }: CompileTask): CompileResult {
  return compile(conteudo, { printer });
}
