// `npm run mutation` (StrykerJS, stryker.config.mjs) runs this config for every mutant: only the
// compiler's tests, the ones that can see a change in src/parse, src/lower, src/emit, src/text,
// src/profiles. No service, process, CLI-child or browser tests: those run the built dist/ (which
// Stryker does not mutate) or start processes, and would only make each mutant's run longer.
// Not used by `npm test`, which runs every test with the default config.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every test of the compiler's stages: each sees the bytes, diagnostics or values of its stage
    // in process (a few read barcodes back with zbarimg). The list was written out file by file
    // until 2026-11-28, and the tests issue 21 added (barcodes, images, layout, attributes,
    // containers, the lexer oracle, the builder, …) were never in it: their code was judged by
    // the older tests alone.
    // stages-safety.test.ts: the stage API with hand-built nodes and ops (src/lower/hand-built.ts,
    // shape.ts), added 2026-11-28 after the src/lower run below it in bench/MUTATION.md.
    include: ['test/{compile,parse,lower,emit,text,profiles,inspect,builder}/*.test.ts', 'test/stages-safety.test.ts'],
    // fallback.test.ts: its vi.mock of the TypeBox loader would leak into the other files of the
    // shared module graph (isolate: false below). inspect/cli.test.ts runs the built CLI as child
    // processes: dist/, which Stryker does not mutate (and a sandbox has no build).
    exclude: ['test/profiles/fallback.test.ts', 'test/inspect/cli.test.ts'],
    // Every test starts with the compiler's caches empty (see that file).
    setupFiles: ['test/support/fresh-caches.ts'],
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
