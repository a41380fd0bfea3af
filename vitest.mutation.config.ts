// `npm run mutation` (StrykerJS, stryker.config.mjs) runs this config for every mutant: only the
// compiler's tests, the ones that can see a change in src/parse, src/lower, src/emit, src/text,
// src/profiles. No service, process, CLI-child or browser tests: those run the built dist/ (which
// Stryker does not mutate) or start processes, and would only make each mutant's run longer.
// `npm test` runs the same files the same way in vitest.config.ts's `compiler` project.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { COMPILER_SETUP, compilerTests } from './vitest.compiler.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  test: {
    // Every test of the compiler's stages (vitest.compiler.ts, which npm test's `compiler`
    // project runs too): each sees the bytes, diagnostics or values of its stage in process (a few
    // read barcodes back with zbarimg). The list was written out file by file until 2026-11-28,
    // and the tests issue 21 added (barcodes, images, layout, attributes, containers, the lexer
    // oracle, the builder, …) were never in it: their code was judged by the older tests alone.
    // Every test starts with the compiler's caches empty (see test/support/fresh-caches.ts).
    include: compilerTests(ROOT),
    setupFiles: COMPILER_SETUP,
    // A mutant can make a property test loop far longer than the code it tests; Stryker's own
    // timeout (timeoutMS/timeoutFactor) then marks it "Timeout" (killed). This bound is only for
    // the initial (dry) run, where Stryker's coverage counters slow every statement: there the
    // 1 MiB ESC * image test (test/emit/escpos.test.ts) took over 30 s on 2 cores shared by six runs.
    testTimeout: 120_000,
    // One module graph for all the files of a run: each file no longer re-imports the compiler
    // (profiles, lexer) for itself, which made a mutant's run ~4× longer. Stryker switches mutants
    // at run time (no re-import needed); the compiler's tests share no state between files.
    isolate: false,
  },
});
