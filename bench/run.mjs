// `npm run bench`: installs the bench package (peers pinned in bench/package-lock.json, with
// --ignore-scripts because esc-pos-encoder@2 hard-depends on canvas, whose native build fails),
// builds the library, runs every suite in child node processes of the same kind, and writes
// bench/RESULTS.md. BENCH_TIME=<seconds per case> shortens or lengthens the run (default 1.5).
// `npm run bench -- --report-only` rewrites RESULTS.md from the last run's bench/out/ (after an
// edit of NOTES.md, which RESULTS.md carries), without measuring again.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { writeResults } from './lib/report.mjs';
import { bundleSizes, coldStart, libraryInstall } from './lib/embed.mjs';
import { benchDir, buildLibrary, installBenchPackage, step, thisMachine } from './lib/setup.mjs';

const bench = benchDir;

if (process.argv.includes('--report-only')) {
  if (!existsSync(`${bench}out/suites.json`) || !existsSync(`${bench}out/probes.json`)) {
    console.error('--report-only needs the bench/out/ of an earlier `npm run bench` on this checkout.');
    process.exit(1);
  }
  const { suites, probes } = readOut();
  const embed = existsSync(`${bench}out/embed.json`) ? JSON.parse(readFileSync(`${bench}out/embed.json`, 'utf8')) : undefined;
  writeResults(`${bench}RESULTS.md`, { suites, ...probes, machine: probes.machine ?? thisMachine(), embed });
  step('rewrote bench/RESULTS.md from bench/out/ (no new measurement)');
  process.exit(0);
}

function readOut() {
  const read = (name) => JSON.parse(readFileSync(`${bench}out/${name}.json`, 'utf8'));
  return { suites: read('suites'), probes: read('probes') };
}

installBenchPackage();
buildLibrary();

const node = (args, opts = {}) => {
  const r = spawnSync(process.execPath, args, { cwd: bench, encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
};

step('throughput, raster path, stages and linearity (benny)');
const suitesRun = spawnSync(process.execPath, ['lib/suites.mjs'], { cwd: bench, stdio: 'inherit' });
if (suitesRun.status !== 0) process.exit(suitesRun.status ?? 1);

step('JS heap allocated per receipt (--expose-gc, GC-free loops)');
const heap = JSON.parse(node(['--expose-gc', '--max-semi-space-size=256', '--min-semi-space-size=256', 'lib/heap.mjs']));
console.log(heap);

step('import + first compile in a fresh process (median of 11)');
const startup = {};
for (const path of ['native', 'raster']) {
  const runs = [];
  for (let i = 0; i < 11; i++) {
    const t0 = performance.now();
    const inner = JSON.parse(node(['lib/startup.mjs', path]));
    runs.push({ ...inner, processMs: performance.now() - t0 });
  }
  const empty = [];
  for (let i = 0; i < 11; i++) {
    const t0 = performance.now();
    node(['-e', '0']);
    empty.push(performance.now() - t0);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  startup[path] = {
    importMs: median(runs.map((r) => r.importMs)),
    firstCompileMs: median(runs.map((r) => r.firstCompileMs)),
    totalMs: median(runs.map((r) => r.totalMs)),
    processMs: median(runs.map((r) => r.processMs)),
    emptyNodeProcessMs: median(empty),
  };
}
console.log(startup);

step('for the people who embed it: library-only install, browser bundles, cold start beside esc-pos-encoder@2');
const embed = { install: libraryInstall(), bundles: await bundleSizes(), cold: coldStart(), machine: thisMachine(), date: new Date().toISOString().slice(0, 10) };
console.log(embed);
writeFileSync(`${bench}out/embed.json`, JSON.stringify(embed, null, 2));

const machine = thisMachine();
writeFileSync(`${bench}out/probes.json`, JSON.stringify({ heap, startup, machine }, null, 2));
writeResults(`${bench}RESULTS.md`, { suites: readOut().suites, heap, startup, machine, embed });
step('wrote bench/RESULTS.md');

// The styled receipt and the dithering beside receipt-printer-encoder@4 (its own section of RESULTS.md).
const styledRun = spawnSync(process.execPath, ['styled.mjs', '--no-build'], { cwd: bench, stdio: 'inherit' });
if (styledRun.status !== 0) process.exit(styledRun.status ?? 1);
