// Setup file of vitest.mutation.config.ts: every test starts with the compiler's caches empty
// (src/caches.ts), so the code that builds a profile, a code page or the profile check runs inside
// the test. Stryker then counts that test as covering it, and a mutant there takes effect in it;
// without this, the first test of the run built the cache and every later mutant met that build.
import { beforeEach } from 'vitest';
import { clearCaches } from '../../src/caches.js';

beforeEach(() => {
  clearCaches();
});
