// The compiler's test files, listed once for the two configs that run them in one module graph:
// vitest.config.ts's `compiler` project (`npm test`) and vitest.mutation.config.ts (`npm run
// mutation`). Each sees the bytes, diagnostics or values of its stage in process and shares no
// state with the others, so one import of the compiler (profiles, lexer, code pages) serves every
// file of a worker: about half the CPU of a fresh import per file (2 cores: 30 s against 67 s).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The folders of the compiler's stages (test/README.md). */
const FOLDERS = ['compile', 'parse', 'lower', 'emit', 'text', 'profiles', 'inspect', 'builder'];

/**
 * Left to a module graph of their own: fallback.test.ts's vi.mock of the TypeBox loader would
 * leak into the other files, and inspect/cli.test.ts runs the built CLI as child processes (dist/,
 * which Stryker does not mutate, and a sandbox has no build).
 */
export const ISOLATED = ['test/profiles/fallback.test.ts', 'test/inspect/cli.test.ts'];

/** Every `*.test.ts` of those folders (and the stage API's hand-built nodes) but ISOLATED, under `root`. */
export function compilerTests(root: string): string[] {
  const files = FOLDERS.flatMap((folder) => readdirSync(join(root, 'test', folder)).filter((f) => f.endsWith('.test.ts')).map((f) => `test/${folder}/${f}`));
  return [...files, 'test/stages-safety.test.ts'].filter((f) => !ISOLATED.includes(f));
}

/** Every test starts with the compiler's caches empty (test/support/fresh-caches.ts). */
export const COMPILER_SETUP = ['test/support/fresh-caches.ts'];
