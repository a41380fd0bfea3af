// The compile an account's job gets, wherever it is asked for (Insert, Recompilar, Reimprimir, and
// `bobina jobs reprint`): with the account's tag set (`bobina users set --tags`), on the compiler
// given (the pool takes accounts in turn), refused as a problem when it runs past its time budget
// (422 compile-timeout) or the content has errors (422 content-invalid, with its diagnostics).
import { hasErrors, type Diagnostic, type TagSet } from '../index.js';
import { CompileTimeout, type CompileTask, type Compiler } from './compiler.js';
import { Problem } from './errors.js';
import { diagnosticView } from './routes/intention-view.js';
import type { Store } from './store/repositories.js';

/** Who a compile is for: an account's principal carries its tag set (read with its key); otherwise it is looked up. */
export interface CompileOwner {
  accountId: string;
  tags?: TagSet;
}

/** Compiles for an account; the caller decides what errors in the content mean (Insert: a 422). */
export async function compileFor(compiler: Compiler, store: Store, owner: CompileOwner, task: Omit<CompileTask, 'tags'>) {
  const tags = owner.tags ?? (await store.accounts.findById(owner.accountId))?.tags ?? 'all';
  try {
    return await compiler.run({ ...task, tags }, owner.accountId);
  } catch (err) {
    if (err instanceof CompileTimeout) throw new Problem('compile-timeout', { budgetMs: err.budgetMs }, `The content took longer than ${err.budgetMs} ms to compile; nothing was stored`);
    throw err;
  }
}

/** A job compiled again (Recompilar, Reimprimir): its bytes and diagnostics, or 422 content-invalid. */
export function compileJob(compiler: Compiler, store: Store, owner: CompileOwner) {
  return async (conteudo: string, printer: number): Promise<{ bytes: Uint8Array; diagnostics: Diagnostic[] }> => {
    const { bytes, diagnostics } = await compileFor(compiler, store, owner, { conteudo, printer });
    if (hasErrors(diagnostics)) throw new Problem('content-invalid', { diagnostics: diagnostics.map(diagnosticView) });
    return { bytes, diagnostics };
  };
}
