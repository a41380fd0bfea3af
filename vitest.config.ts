// `npm test`'s vitest config: the defaults, except that StrykerJS's sandbox copies of the project
// (.stryker-tmp*/, left behind by an interrupted `npm run mutation`) are not tests of this tree.
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, '.stryker-tmp*/**', 'reports/**'],
  },
});
