// `npm run mutation` (StrykerJS, stryker.config.mjs) runs this config for every mutant: only the
// compiler's tests, the ones that can see a change in src/parse, src/lower, src/emit, src/text,
// src/profiles. No service, process, CLI-child or browser tests: those run the built dist/ (which
// Stryker does not mutate) or start processes, and would only make each mutant's run longer.
// Not used by `npm test`, which runs every test with the default config.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      // The same files the mutation score was measured with (bench/MUTATION.md): the tests of
      // each compiler stage that see its bytes or diagnostics in process.
      'test/compile/golden.test.ts',
      'test/compile/limits.test.ts',
      'test/compile/properties.test.ts',
      'test/parse/parse.test.ts',
      'test/parse/grammar.test.ts',
      'test/lower/lower.test.ts',
      'test/lower/failure.test.ts',
      'test/lower/synthetic.test.ts',
      'test/emit/*.test.ts',
      'test/text/*.test.ts',
      'test/profiles/profiles.test.ts',
      'test/profiles/check.test.ts',
      'test/profiles/data.test.ts',
      'test/profiles/schema-interpreter.test.ts',
      'test/profiles/printers-doc.test.ts',
      // Not test/profiles/fallback.test.ts: its vi.mock of the TypeBox loader would leak into the
      // other files of the shared module graph (isolate: false below).
      'test/inspect/disassemble.test.ts',
      'test/inspect/preview.test.ts',
      'test/inspect/preview-notes.test.ts',
      'test/inspect/selftest.test.ts',
    ],
    // Every test starts with the compiler's caches empty (see that file).
    setupFiles: ['test/support/fresh-caches.ts'],
    // A mutant can make a property test loop far longer than the code it tests; Stryker's own
    // timeout (timeoutMS/timeoutFactor) then marks it "Timeout" (killed).
    testTimeout: 30_000,
    // One module graph for all the files of a run: each file no longer re-imports the compiler
    // (profiles, lexer) for itself, which made a mutant's run ~4× longer. Stryker switches mutants
    // at run time (no re-import needed); the compiler's tests share no state between files.
    isolate: false,
  },
});
