// @ts-check
// Mutation testing of the compiler (issue 14 §4): `npm run mutation`. Not part of `npm test`.
// Report summary: bench/MUTATION.md. HTML/JSON reports and the sandbox go to reports/ and
// .stryker-tmp/ (both git-ignored).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: {
    // Only the compiler's tests (see that file); `related: false` because the per-test coverage
    // below already picks the tests that reach each mutant.
    configFile: 'vitest.mutation.config.ts',
    related: false,
  },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/parse/**/*.ts',
    'src/lower/**/*.ts',
    'src/emit/**/*.ts',
    'src/text/**/*.ts',
    'src/profiles/**/*.ts',
    // Generated from upstream data by scripts/ (codepages from iconv-lite, the profile checker from
    // TypeBox); their tests compare them with those sources, not mutate them.
    '!src/**/*.generated.ts',
  ],
  // The machine has 2 cores shared with other work: one test-runner process.
  concurrency: 1,
  // A mutant in code that runs when a module loads (tables, top-level constants) is "static": no
  // per-test coverage, so it would run all ~310 tests (~100 s) alone. Skipped; their count is in
  // bench/MUTATION.md.
  ignoreStatic: true,
  // A mutant that loops (parser, sanitiser) is stopped after its tests' dry-run time × 1.5 + this.
  timeoutMS: 5_000,
  // The initial run (every compiler test once, with per-test coverage) takes 2–4 minutes on 2 idle
  // cores and longer beside other work; Stryker's default limit for it is 5 minutes.
  dryRunTimeoutMinutes: 30,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // Re-runs only the mutants whose code or covering tests changed since the last run.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
};
