// `npm run test:browser`: the tests that drive Debian's Chromium with playwright-core (the bundle
// in a page and in a Web Worker, the playground end to end, the API docs page under its policy). They are not part of `npm test`,
// which needs no browser; `.ci/run` runs both.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One Chromium at a time on a 2-core machine.
    fileParallelism: false,
  },
});
