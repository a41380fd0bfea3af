// `npm run bench:startup`: the start-up of a fresh process that imports the PACKED package and
// compiles one receipt (nfce, native QR), beside the same with esc-pos-encoder@2 (issue 21 §6:
// "start-up must not get worse"). `npm pack`, then `npm install --offline` of the tarball into an
// empty project (scripts/offline-install.mjs, as a user installs it); then the processes, timed by
// wall time with the systems alternating round by round (ROUNDS, default 21), and each counted
// once in instructions with valgrind (the same process; instructions cannot see load, but the
// empty process dominates them). Writes the start-up section of bench/RESULTS.md and
// bench/out/startup.json.
//
//   node bench/startup.mjs [--no-build] [--root <checkout>] [--no-write]
//
// --root packs another checkout (built: dist/ present) instead of this one, to compare builds;
// --no-write only prints (and writes bench/out/startup.<name of the checkout>.json).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { packAndInstall } from '../scripts/offline-install.mjs';
import { writeColdStartOps } from './lib/embed.mjs';
import { benchDir, buildLibrary, installBenchPackage, rootDir, step, thisMachine } from './lib/setup.mjs';

const argv = process.argv.slice(2);
const rootArg = argv.includes('--root') ? resolve(argv[argv.indexOf('--root') + 1]) + '/' : undefined;
const root = rootArg ?? rootDir;
const write = !argv.includes('--no-write') && !rootArg;
const ROUNDS = Number(process.env.ROUNDS ?? 21);
const START = '<!-- startup:start (npm run bench:startup rewrites this section) -->';
const END = '<!-- startup:end -->';

installBenchPackage();
if (!rootArg && !argv.includes('--no-build')) buildLibrary();
mkdirSync(`${benchDir}out`, { recursive: true });
writeColdStartOps();

step(`packing ${root} and installing the tarball offline into an empty project`);
const work = mkdtempSync(join(tmpdir(), 'bobina-startup-'));
try {
  const { app } = packAndInstall(root, work);
  const nfce = join(rootDir, 'fixtures', 'nfce.txt');
  // The bobina process: what a user's script does, importing the installed package by name.
  writeFileSync(
    join(app, 'start-bobina.mjs'),
    `import { readFileSync } from 'node:fs';\nimport { compile } from 'bobina';\n` +
      `compile(readFileSync(${JSON.stringify(nfce)}, 'utf8'), { printer: { extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } } });\n`,
  );
  const coldStart = join(benchDir, 'lib', 'cold-start.mjs');
  const PROCESSES = {
    empty: { cwd: benchDir, args: [coldStart, 'empty'] },
    bobina: { cwd: app, args: ['start-bobina.mjs'] },
    'esc-pos-encoder@2': { cwd: benchDir, args: [coldStart, 'esc-pos-encoder@2'] },
  };

  const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
  step(`wall time: ${ROUNDS} rounds, the three processes alternating (load average ${loadBefore})`);
  const times = Object.fromEntries(Object.keys(PROCESSES).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const names = Object.keys(PROCESSES);
    for (const name of round % 2 ? names.reverse() : names) {
      const { cwd, args } = PROCESSES[name];
      const t0 = performance.now();
      const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${name} failed:\n${r.stderr}`);
      times[name].push(ms);
    }
  }
  const loadAfter = loadavg().map((l) => l.toFixed(2)).join(' ');
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const medianMs = Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, median(xs)]));
  console.log({ medianMs, loadBefore, loadAfter });

  step('instructions: each process once under valgrind (cachegrind, V8 --predictable)');
  const instructions = Object.fromEntries(await Promise.all(Object.entries(PROCESSES).map(async ([name, p]) => [name, await count(p)])));
  console.log(instructions);

  const result = { root, rounds: ROUNDS, medianMs, times, instructions, load: { before: loadBefore, after: loadAfter }, machine: thisMachine(), date: new Date().toISOString() };
  writeFileSync(`${benchDir}out/startup${rootArg ? `.${basename(root)}` : ''}.json`, JSON.stringify(result, null, 2));
  if (write) writeSection(result);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Instructions of one whole process (the count is the same on every run). */
function count({ cwd, args }) {
  const VALGRIND = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', '--smc-check=all-non-file'];
  const NODE_FLAGS = ['--single-threaded', '--predictable', '--random-seed=1', '--hash-seed=1'];
  return new Promise((done, fail) => {
    const child = spawn('valgrind', [...VALGRIND, process.execPath, ...NODE_FLAGS, ...args], { cwd });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => {
      const m = /I\s+refs:\s+([\d,]+)/.exec(err);
      if (code !== 0 || !m) fail(new Error(`valgrind node ${args.join(' ')} failed (${code}):\n${err.slice(-2000)}`));
      else done(Number(m[1].replaceAll(',', '')));
    });
  });
}

function writeSection({ rounds, medianMs: m, instructions: n, load, machine, date }) {
  const ms = (v) => `${v.toFixed(1)} ms`;
  const M = (v) => `${(v / 1e6).toFixed(1)} M`;
  const L = ['## Start-up of the packed package beside esc-pos-encoder@2 (issue 21 §6)', ''];
  L.push(`Run: \`npm run bench:startup\`, ${date.slice(0, 16).replace('T', ' ')} UTC, ${machine.nproc} cores, ${machine.cpuModel}, Node ${machine.node}; load average (1, 5, 15 min) ${load.before} before the timed rounds and ${load.after} after.`, '');
  L.push('Each process is fresh: bobina is `npm pack`ed and installed offline into an empty project, and its process imports `bobina` by name and compiles nfce (native QR) once; esc-pos-encoder@2 (canvas stubbed: it does not build here) encodes the same receipt\'s operations; the empty process reads the same ops file and imports nothing. Wall time is spawn to exit as the parent sees it, the three alternating round by round; instructions are valgrind\'s count of the same process (V8 `--predictable`), which no load moves.', '');
  L.push(`| process | wall time (median of ${rounds}) | over the empty process | instructions | over the empty process |`, '|---|---:|---:|---:|---:|');
  for (const name of Object.keys(m)) L.push(`| ${name === 'empty' ? 'empty (reads the ops file, imports nothing)' : name} | ${ms(m[name])} | ${name === 'empty' ? '—' : `+${ms(m[name] - m.empty)}`} | ${M(n[name])} | ${name === 'empty' ? '—' : `+${M(n[name] - n.empty)}`} |`);
  const wall = m.bobina / m['esc-pos-encoder@2'];
  const ins = n.bobina / n['esc-pos-encoder@2'];
  L.push('', `bobina ÷ esc-pos-encoder@2: **${wall.toFixed(2)}×** by wall time, **${ins.toFixed(2)}×** by instructions (whole processes). The issue's baseline: 1.25× by wall time (154 against 124 ms, 15 alternating runs each); the target is not worse than that.`, '');
  const section = `${START}\n${L.join('\n')}\n${END}`;
  const results = `${benchDir}RESULTS.md`;
  const text = readFileSync(results, 'utf8');
  const at = text.indexOf(START);
  writeFileSync(results, at >= 0 ? text.slice(0, at) + section + text.slice(text.indexOf(END) + END.length) : text.replace('\n## Throughput', `\n${section}\n\n## Throughput`));
  step('wrote the start-up section of bench/RESULTS.md');
}
