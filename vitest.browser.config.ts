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
    // expect.poll waits for a page after real round trips (a login hashes its password with scrypt):
    // its default bound of 1 s was once too short on a loaded 2-core machine (the console's first
    // test, waiting for the focus after logging in). A bound, not a timing: a poll ends when it holds.
    expect: { poll: { timeout: 10_000 } },
  },
});
