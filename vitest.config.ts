// `npm test`'s vitest config. Three projects:
// - `compiler`: the compiler's tests (vitest.compiler.ts), in one module graph per worker;
// - `sqlite`: every other test, the service ones on SQLite (the default store);
// - `postgres`: the service suite again on PostgreSQL (BOBINA_TEST_STORE=postgres, read by
//   test/support/store-target.ts), each test on a schema of its own in database `test`.
// PostgreSQL is looked for at BOBINA_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test).
// When it does not answer, the `postgres` project is left out with one line saying so — except
// under BOBINA_CI=1 (.ci/run), where it runs and its tests fail saying why.
// StrykerJS's sandbox copies (.stryker-tmp*/) and reports are not tests of this tree.
import { Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { COMPILER_SETUP, compilerTests } from './vitest.compiler.js';

const exclude = [...configDefaults.exclude, '.stryker-tmp*/**', 'reports/**'];

/** Tests of several instances on one database: PostgreSQL only (SQLite serves from one process). */
const POSTGRES_ONLY = ['test/server/instances.test.ts', 'test/server/postgres-instances.test.ts', 'test/server/store-postgres.test.ts', 'test/server/database-unavailable.test.ts', 'test/server/postgres-connection-drops.test.ts', 'test/cli/postgres.test.ts', 'test/delivery/cluster.test.ts'];
/** The service tests that hold on either store: everything built on the harness or a served process. */
const SERVICE_SUITE = ['test/server/**/*.test.ts', 'test/delivery/service-faults.test.ts', 'test/delivery/lease.test.ts', 'test/delivery/relink.test.ts', 'test/delivery/restart.test.ts', 'test/delivery/agent-transport.test.ts', 'test/delivery/fleet-agent.test.ts', 'test/cli/accounts.test.ts', 'test/cli/jobs.test.ts', ...POSTGRES_ONLY];
/** Service tests of SQLite itself (files, WAL, its migrations) or of no store at all. */
const NOT_ON_POSTGRES = ['wal', 'migrations', 'migration-4', 'webhooks-migration', 'workers', 'compile-pool', 'compile-budget', 'fair-queue', 'request-deadline', 'address-gate', 'dns-gate', 'playground', 'console-page', 'client-errors', 'webhook-log'].map((n) => `test/server/${n}.test.ts`);

/** The compiler's test files (vitest.compiler.ts): the `compiler` project's, left out of `sqlite`. */
const compiler = compilerTests(fileURLToPath(new URL('.', import.meta.url)));

const url = new URL(process.env.BOBINA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');

function answers(host: string, port: number, ms = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

export default defineConfig(async () => {
  const ci = process.env.BOBINA_CI === '1';
  const reachable = await answers(url.hostname, Number(url.port || 5432));
  // vitest loads this config once more for the projects that extend it: say it once.
  const said = globalThis as { bobinaPgNotice?: boolean };
  if (!reachable && !ci && !said.bobinaPgNotice) {
    said.bobinaPgNotice = true;
    console.log(`PostgreSQL does not answer at ${url.host}: the service suite runs on SQLite only (set BOBINA_CI=1 to make this a failure)`);
  }
  return {
    test: {
      exclude,
      // Every core, two at least: vitest's default (cores − 1) ran one file at a time on 2 cores,
      // where most service tests wait on sockets, timers and child processes, so two files at once
      // take about two thirds of the time (814.5 s → 522.8 s). With two at once a test may take
      // several times its quiet-machine time, so the default per-test and per-hook bounds (5 s,
      // 10 s) are raised: they bound a hung test, they do not time one (tests never assert on wall
      // time; a test that needs a tighter bound sets its own).
      maxWorkers: Math.max(2, availableParallelism() - 1),
      minWorkers: 1,
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // The pools' options are the whole run's, not a project's: only the `compiler` project runs
      // in threads, so only its files share a module graph (a worker's files, one after another).
      poolOptions: { threads: { isolate: false } },
      projects: [
        // The compiler's tests in one module graph per worker, as `npm run mutation` runs them
        // (vitest.compiler.ts); after the other projects, not beside them (vitest runs each pool's
        // files at once), so no more than two files ever run at a time.
        { extends: true, test: { name: 'compiler', include: compiler, setupFiles: COMPILER_SETUP, pool: 'threads', sequence: { groupOrder: 1 } } },
        { extends: true, test: { name: 'sqlite', exclude: [...exclude, ...POSTGRES_ONLY, ...compiler] } },
        ...(reachable || ci
          ? [{ extends: true, test: { name: 'postgres', include: SERVICE_SUITE, exclude: [...exclude, ...NOT_ON_POSTGRES], env: { BOBINA_TEST_STORE: 'postgres' } } }]
          : []),
      ],
    },
  };
});
