// `npm run bench:instructions`: the same comparisons as `npm run bench`, counted in CPU
// instructions instead of seconds, so the ratios repeat to a fraction of a percent on a shared VM
// (where timings move by 2× between runs). Writes bench/INSTRUCTIONS.md.
//
// How: valgrind's cachegrind (no cache simulation) counts the instructions of a whole node process
// running under V8's --predictable mode (single-threaded, fixed seeds: the same count each run).
// Each system runs on one receipt N, 2N and 3N times in separate processes; the count between N
// and 3N over 2N is one receipt's steady-state cost (start-up and JIT warm-up cancel out), and
// the two halves must agree, which shows the JIT had settled by N.
// Instructions are not time (memory stalls, and native code vs JIT, weigh differently), so
// `npm run bench` stays the measurement of record; this is the noise-free cross-check.
// BOBINA_DIST=<path to a built index.js> counts another build of the library (an A/B of a change)
// and writes bench/out/INSTRUCTIONS.ab.md instead. Exits 1 when a count has not settled.
// BENCH_ONLY=throughput counts only the throughput rows (a few minutes instead of 15+), and
// BENCH_ONLY=throughput:bobina only bobina's; BENCH_ONLY=startup only the start-up and cold-start
// rows. Either writes bench/out/INSTRUCTIONS.only.md (or .ab.only.md) with the tables it counted.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeColdStartOps } from './lib/embed.mjs';
import { benchDir, buildLibrary, installBenchPackage, step } from './lib/setup.mjs';

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('bench:instructions needs valgrind (Debian: apt-get install valgrind).');
  process.exit(1);
}

// An A/B build is given as a path from where the command runs; the children get it as a URL.
const abBuild = process.env.BOBINA_DIST;
if (abBuild) process.env.BOBINA_DIST = pathToFileURL(resolve(abBuild)).href;
// BENCH_ONLY: `group` or `group:system`, comma-separated (see the header).
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((item) => item.trim().split(':')) : undefined;
const wanted = (group, system) => !only || only.some(([g, s]) => g === group && (s === undefined || s === system));
const reportPath = `${abBuild ? `${benchDir}out/INSTRUCTIONS.ab` : only ? `${benchDir}out/INSTRUCTIONS` : `${benchDir}INSTRUCTIONS`}${only ? '.only' : ''}.md`;

installBenchPackage();
buildLibrary();

mkdirSync(`${benchDir}out`, { recursive: true });
writeColdStartOps();

const NODE_FLAGS = ['--single-threaded', '--predictable', '--random-seed=1', '--hash-seed=1'];
const VALGRIND = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', '--smc-check=all-non-file'];

const running = new Set();

/** Instructions executed by one `node lib/icount-child.mjs …args` process (or another script's). */
function count(args, script = 'lib/icount-child.mjs') {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', [...VALGRIND, process.execPath, ...NODE_FLAGS, script, ...args.map(String)], { cwd: benchDir });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    running.add(child);
    child.on('error', reject);
    child.on('close', (code) => {
      running.delete(child);
      const m = /I\s+refs:\s+([\d,]+)/.exec(err);
      if (code !== 0 || !m) reject(new Error(`valgrind node ${script} ${args.join(' ')} failed (${code}):\n${err.slice(-2000)}`));
      else resolve(Number(m[1].replaceAll(',', '')));
    });
  });
}

/** Runs thunks `width` at a time (one valgrind per core). */
async function pool(thunks, width) {
  const results = new Array(thunks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < thunks.length) {
        const i = next++;
        results[i] = await thunks[i]();
      }
    }),
  );
  return results;
}

/** The three runs (n, 2n and 3n receipts) that give the per-receipt count of `system` on `fixture`. */
function runsOf(system, fixture, n) {
  return [n, 2 * n, 3 * n].map((k) => () => count([system, fixture, k]));
}

// Receipts per step: enough for the JIT and the GC rhythm to settle (the check at the end).
const N = { small: 10000, nfce: 5000, report: 3000 };
const SYSTEMS = ['bobina', 'reference', 'esc-pos-encoder@2'];
const jobs = [];
for (const fixture of Object.keys(N)) for (const system of SYSTEMS) jobs.push({ group: 'throughput', system, fixture, n: N[fixture] });
jobs.push({ group: 'raster', system: 'bobina-raster', fixture: 'nfce', n: 300 });
// The styled receipt beside receipt-printer-encoder@4, and the dithering of the 576×300 image (lib/styled.mjs).
const STYLED_SYSTEMS = ['bobina-styled', 'rpe-styled'];
for (const system of STYLED_SYSTEMS) jobs.push({ group: 'styled', system, fixture: 'styled', n: 100 });
const DITHERS = ['floyd-steinberg', 'atkinson', 'threshold'];
for (const method of DITHERS) for (const system of ['bobina-dither', 'rpe-dither']) jobs.push({ group: 'dither', system, fixture: method, n: 20 });
jobs.push({ group: 'raster', system: 'qrcode-create', fixture: 'nfce', n: 300 });
const counted = jobs.filter((j) => wanted(j.group, j.system));
jobs.splice(0, jobs.length, ...counted);

const withStartup = wanted('startup');
const startupRuns = withStartup ? [['empty'], ['import'], ['startup', 'native'], ['startup', 'raster']] : [];
// Cold start beside esc-pos-encoder@2: whole processes of lib/cold-start.mjs (as `npm run bench` times them).
const coldRuns = withStartup ? ['empty', 'bobina', 'esc-pos-encoder@2'] : [];
step(`counting instructions (${jobs.length * 3 + startupRuns.length + coldRuns.length} valgrind runs, ${availableParallelism()} at a time; about 15 minutes on 2 cores)`);
const thunks = [
  ...jobs.flatMap((j) => runsOf(j.system, j.fixture, j.n)),
  ...startupRuns.map((args) => () => count(args)),
  ...coldRuns.map((system) => () => count([system], 'lib/cold-start.mjs')),
];
let counts;
try {
  counts = await pool(thunks, availableParallelism());
} catch (error) {
  for (const child of running) child.kill(); // the other runs would go on for minutes
  throw error;
}

const rows = jobs.map((job, i) => {
  const [a, b, c] = counts.slice(3 * i, 3 * i + 3);
  const first = (b - a) / job.n;
  const second = (c - b) / job.n;
  return { ...job, perReceipt: (c - a) / (2 * job.n), halvesDiffer: Math.abs(first - second) / Math.max(first, second) };
});
const [empty, importOnly, startNative, startRaster] = counts.slice(jobs.length * 3, jobs.length * 3 + startupRuns.length);
const cold = Object.fromEntries(coldRuns.map((system, i) => [system, counts[jobs.length * 3 + startupRuns.length + i]]));
const startup = {
  bobinaImport: importOnly - empty,
  firstCompileNative: startNative - importOnly,
  firstCompileRaster: startRaster - importOnly,
  emptyProcess: empty,
};

// Report.
const M = (n) => `${(n / 1e6).toFixed(1)} M`;
const K = (n) => Math.round(n).toLocaleString('en-US');
const x = (n) => `${n.toFixed(2)}×`;
const find = (system, fixture) => rows.find((r) => r.system === system && r.fixture === fixture);
/** Whether every row named was counted (BENCH_ONLY leaves some out). */
const has = (...pairs) => pairs.every(([system, fixture]) => find(system, fixture));
/** A count per receipt, or — when BENCH_ONLY left it out. */
const per = (system, fixture) => find(system, fixture)?.perReceipt;
const Kx = (n) => (n === undefined ? '—' : K(n));
const ratio = (a, b) => (a === undefined || b === undefined ? '—' : x(a / b));
const L = ['# bobina instruction counts', ''];
L.push('Generated by `npm run bench:instructions` (`node bench/instructions.mjs`). Do not edit by hand.', '');
if (abBuild) L.push(`- **Build counted: \`${abBuild}\`** (BOBINA_DIST), not dist/.`);
L.push(`- Node ${process.version}, valgrind ${execFileSync('valgrind', ['--version'], { encoding: 'utf8' }).trim().replace(/^valgrind-/, '')} (cachegrind, no cache simulation), V8 flags \`${NODE_FLAGS.join(' ')}\``);
L.push('- One receipt = (instructions of a process compiling it 3N times − the same for N times) ÷ 2N, so process start-up and JIT warm-up cancel out. The same code gives the same counts on every run; instructions are not time, so `bench/RESULTS.md` stays the record and this is the cross-check the noise cannot move.', '');
L.push('## Throughput: instructions per receipt (native QR)', '', '| receipt | bobina | reference | esc-pos-encoder@2 | esc-pos-encoder@2 ÷ bobina (target ≥ 3×) | reference ÷ bobina (target ≥ 0.50×) | esc-pos-encoder@2 ÷ reference (the ceiling of the first ratio) |', '|---|---:|---:|---:|---:|---:|---:|');
for (const fixture of Object.keys(N)) {
  if (!SYSTEMS.some((s) => find(s, fixture))) continue;
  const [bob, ref, enc] = SYSTEMS.map((s) => per(s, fixture));
  L.push(`| ${fixture} | ${Kx(bob)} | ${Kx(ref)} | ${Kx(enc)} | ${ratio(enc, bob)} | ${ratio(ref, bob)} | ${ratio(enc, ref)} |`);
}
L.push('', 'A ratio of counts reads like a ratio of speeds: "esc-pos-encoder@2 ÷ bobina = 3×" means bobina runs a third of its instructions.', '');
if (has(['bobina-raster', 'nfce'], ['qrcode-create', 'nfce'])) {
const rasterBob = find('bobina-raster', 'nfce').perReceipt;
const floor = find('qrcode-create', 'nfce').perReceipt;
L.push('## Raster QR path on nfce', '', '| system | instructions per receipt | ÷ floor |', '|---|---:|---:|');
L.push(`| bobina, T20 default (raster QR) | ${K(rasterBob)} | ${x(rasterBob / floor)} (target ≤ 1.30×) |`);
L.push(`| qrcode \`QRCode.create()\` alone (floor) | ${K(floor)} | — |`, '');
}
if (has(['bobina-styled', 'styled'], ['rpe-styled', 'styled'])) {
const styledBob = find('bobina-styled', 'styled').perReceipt;
const styledRpe = find('rpe-styled', 'styled').perReceipt;
L.push('## The styled receipt beside receipt-printer-encoder@4 (issue 21 §6)', '', 'bench/fixtures/styled.txt (logo PNG decoded and dithered per receipt, styles, sizes, rows, rules, EAN-13, CODE128, native QR) and the same receipt through receipt-printer-encoder@4\'s API (bench/lib/styled.mjs; it gets the logo\'s pixels decoded once).', '', '| system | instructions per receipt | receipt-printer-encoder@4 ÷ system (target for bobina ≥ 2×) |', '|---|---:|---:|');
L.push(`| bobina | ${K(styledBob)} | ${x(styledRpe / styledBob)} |`);
L.push(`| receipt-printer-encoder@4 | ${K(styledRpe)} | — |`, '');
}
if (has(...DITHERS.flatMap((method) => [['bobina-dither', method], ['rpe-dither', method]]))) {
L.push('## Dithering a 576×300 grey image (bobina `<image>` from PNG, receipt-printer-encoder@4 `image()` from RGBA)', '', '| method | bobina | receipt-printer-encoder@4 | receipt-printer-encoder@4 ÷ bobina |', '|---|---:|---:|---:|');
for (const method of DITHERS) {
  const bob = find('bobina-dither', method).perReceipt;
  const rpe = find('rpe-dither', method).perReceipt;
  L.push(`| ${method} | ${K(bob)} | ${K(rpe)} | ${x(rpe / bob)} |`);
}
L.push('');
}
if (withStartup) {
L.push('## Start-up: import + first compile of nfce in a fresh process', '', '| part | instructions |', '|---|---:|');
L.push(`| a node process that reads (b) and exits (the baseline, subtracted below) | ${M(startup.emptyProcess)} |`);
L.push(`| import of bobina (bundle load, lexer built) | ${M(startup.bobinaImport)} |`);
L.push(`| first compile, native QR | ${M(startup.firstCompileNative)} |`);
L.push(`| first compile, raster QR (loads qrcode) | ${M(startup.firstCompileRaster)} |`);
L.push(`| **import + first compile, native QR** | **${M(startup.bobinaImport + startup.firstCompileNative)}** |`, '');
L.push('## Cold start beside esc-pos-encoder@2: whole processes of `bench/lib/cold-start.mjs`', '', '| process | instructions | over the empty process |', '|---|---:|---:|');
for (const [system, n] of Object.entries(cold)) L.push(`| ${system === 'empty' ? 'empty (reads the same file)' : system} | ${M(n)} | ${system === 'empty' ? '—' : M(n - cold.empty)} |`);
L.push('', `bobina ÷ esc-pos-encoder@2, whole processes: **${x(cold.bobina / cold['esc-pos-encoder@2'])}** (issue 15's target, on timed medians: ≤ 1.00×); what each adds to an empty process: ${x((cold.bobina - cold.empty) / (cold['esc-pos-encoder@2'] - cold.empty))}.`, '');
}
const unsettled = rows.filter((r) => r.halvesDiffer > 0.02);
L.push('## Check', '');
L.push(
  unsettled.length === 0
    ? `For every row, the cost of receipts N…2N and of 2N…3N agree within 2% (largest gap ${(Math.max(0, ...rows.map((r) => r.halvesDiffer)) * 100).toFixed(2)}%): the JIT had settled.`
    : `**Not settled** (N…2N and 2N…3N differ by more than 2%): ${unsettled.map((r) => `${r.system} on ${r.fixture} (${(r.halvesDiffer * 100).toFixed(1)}%)`).join(', ')}. Raise N for those.`,
  '',
);
writeFileSync(reportPath, L.join('\n'));
writeFileSync(`${benchDir}out/instructions${abBuild ? '.ab' : ''}${only ? '.only' : ''}.json`, JSON.stringify({ build: abBuild ?? 'dist/', rows, startup, cold }, null, 2));
console.log(L.join('\n'));
step(`wrote ${reportPath}`);
if (unsettled.length > 0) process.exitCode = 1;
