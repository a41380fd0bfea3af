// Delivery benchmark (not a test): insert → last byte at a virtual printer, p50/p99, through
// `bobina agent`'s long-poll and through the service's direct delivery, at 1, 10 and 100 jobs/s;
// jobs/s through one agent to a fast printer; and Insert throughput against a baseline build
// (`--baseline <git ref>`, default main: exported with git archive into a temp dir, built with this
// checkout's node_modules). Writes bench/DELIVERY.md (DELIVERY.postgres.md with --store postgres).
// Run `npm run build` first.
//
//   npm run bench:delivery                   # everything, baseline main
//   npm run bench:delivery -- --no-baseline  # without the Insert comparison
//   npm run bench:delivery -- --only-inserts # only the Insert comparison
//   npm run bench:delivery -- --store postgres # the latency runs on PostgreSQL (bench/lib/stores.mjs)
//   BOBINA_BASELINE_CLI=/path/to/dist/cli.js  # a baseline already built (skips git archive + build)
import autocannon from 'autocannon';
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchPrinter, latency } from './lib/latency.mjs';
import { start, stop, stopAll } from './lib/processes.mjs';
import { account, benchEnv as env, CLI, serve } from './lib/service.mjs';
import { dropStores, freshStore } from './lib/stores.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const storeKind = args.includes('--store') ? args[args.indexOf('--store') + 1] : 'sqlite';
const baselineRef = args.includes('--no-baseline') ? undefined : (args.includes('--baseline') ? args[args.indexOf('--baseline') + 1] : 'main');
const onlyInserts = args.includes('--only-inserts');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PRINTER = process.env.BENCH_PRINTER ?? 'MAKER5T20';
const RATES = [1, 10, 100];
const SECONDS = { 1: 20, 10: 10, 100: 5 };
const dir = mkdtempSync(join(tmpdir(), 'bobina-bench-delivery-'));
const conteudo = readFileSync(join(ROOT, 'fixtures', 'nfce.txt'), 'utf8');

/**
 * A fresh service with one account, its API key, and terminals as asked ([id, flags, printer?]), on
 * a fresh store of `kind` (the baseline comparison stays on SQLite: older builds have no PostgreSQL).
 */
async function service(cliPath, name, terminals, kind = storeKind) {
  const store = freshStore(kind, dir);
  const { apiKey, keys } = account(cliPath, store, terminals, PRINTER);
  // (A baseline build from before delivery has no --state-dir.)
  const stateDir = cliPath === CLI ? ['--state-dir', join(dir, `${name}.delivery`)] : [];
  const { base, proc } = await serve(cliPath, store, stateDir);
  return { base, apiKey, keys, proc, store };
}

const printer = () => benchPrinter(PRINTER);

/**
 * One delivery path to `terminal`: a warm-up (which also lets direct delivery find the terminal),
 * latency at each of RATES, then a burst as fast as Insert takes it (jobs/s through one client).
 */
async function measurePath(path, tag, s, vp, terminal) {
  let n = 0;
  await latency(s, vp, terminal, 10, 10, n, conteudo);
  n += 10;
  for (const rate of RATES) {
    const r = await latency(s, vp, terminal, rate, rate * SECONDS[rate], n, conteudo);
    n += r.jobs;
    results.latency.push({ path, rate, ...r });
    console.log(`${tag} ${rate} jobs/s: p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms (${r.jobs} jobs)`);
  }
  const burst = 300;
  const t0 = performance.now();
  const r = await latency(s, vp, terminal, 10_000, burst, n, conteudo);
  const secs = (performance.now() - t0) / 1000;
  results.throughput.push({ path, jobs: burst, jobsPerSecond: burst / secs });
  console.log(`${tag} burst of ${burst}: ${(burst / secs).toFixed(0)} jobs/s (p99 ${r.p99.toFixed(0)} ms)`);
}

const results = { latency: [], throughput: [], inserts: [] };
const loadAtStart = loadavg()[0];

try {
  // ---- through bobina agent, then direct delivery (the service is the terminal's client)
  if (!onlyInserts) {
    {
      const vp = await printer();
      const s = await service(CLI, 'agent', [['PDV-AGENT', ['--print-key']]]);
      const agent = await start([CLI, 'agent', '--url', s.base, '--key', s.keys['PDV-AGENT'], '--terminal', 'PDV-AGENT', '--device', vp.vp.address, '--state-dir', join(dir, 'agent-state')], 'taking jobs', env);
      await measurePath('agent (HTTP long-poll)', 'agent ', s, vp, 'PDV-AGENT');
      await stop(agent);
      await stop(s.proc);
      await vp.vp.close();
    }
    {
      const vp = await printer();
      const s = await service(CLI, 'direct', [['PDV-DIRECT', ['--device', vp.vp.address]]]);
      await measurePath('direct (in the service)', 'direct', s, vp, 'PDV-DIRECT');
      await stop(s.proc);
      await vp.vp.close();
    }
  }

  // ---- Insert throughput, this build against the baseline, alternated to share the machine's mood
  if (baselineRef) {
    let baselineCli = process.env.BOBINA_BASELINE_CLI;
    if (!baselineCli) {
      const base = join(dir, 'baseline');
      execSync(`mkdir -p ${base} && git -C ${ROOT} archive ${baselineRef} | tar -x -C ${base}`);
      symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'));
      execSync('npx tsup --silent', { cwd: base, stdio: 'ignore' });
      baselineCli = join(base, 'dist', 'cli.js');
    }
    const builds = { [`baseline (${process.env.BOBINA_BASELINE_CLI ? 'BOBINA_BASELINE_CLI' : baselineRef})`]: baselineCli, 'this build': CLI };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, cliPath] of Object.entries(builds)) {
        const s = await service(cliPath, `insert-${round}-${name.replace(/\W+/g, '-')}`, [['PDV-1', [], 'MAKER1MP4200']], 'sqlite');
        const opts = {
          url: `${s.base}/IntencaoImpressao/Insert`, method: 'POST',
          headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ referencia: 'bench', conteudo, terminalId: 'PDV-1' }), connections: 32,
        };
        const run = (duration) => new Promise((resolve, reject) => autocannon({ ...opts, duration }, (e, r) => (e ? reject(e) : resolve(r))));
        await run(2); // warm-up
        const r = await run(Number(process.env.BENCH_SECONDS ?? 8));
        results.inserts.push({ build: name, round, rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts });
        console.log(`insert ${name} round ${round + 1}: ${r.requests.average.toFixed(0)} req/s p99 ${r.latency.p99} ms`);
        await stop(s.proc);
      }
    }
  }
} finally {
  stopAll();
  await dropStores();
  rmSync(dir, { recursive: true, force: true });
}

const ms = (x) => x.toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const latencyTable = [
  '| path | rate | jobs | p50 ms | p99 ms | max ms |',
  '|---|---:|---:|---:|---:|---:|',
  ...results.latency.map((r) => `| ${r.path} | ${r.rate} jobs/s | ${r.jobs} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} |`),
].join('\n');
const throughputTable = [
  '| path | jobs | jobs/s |',
  '|---|---:|---:|',
  ...results.throughput.map((r) => `| ${r.path} | ${r.jobs} | ${r.jobsPerSecond.toFixed(0)} |`),
].join('\n');
const byBuild = {};
for (const r of results.inserts) (byBuild[r.build] ??= []).push(r);
const insertTable = results.inserts.length
  ? [
      '| build | rounds (req/s) | median req/s | p99 ms (last round) | errors |',
      '|---|---|---:|---:|---:|',
      ...Object.entries(byBuild).map(([b, rs]) => `| ${b} | ${rs.map((r) => r.rps.toFixed(0)).join(', ')} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${rs.at(-1).p99} | ${rs.reduce((a, r) => a + r.bad, 0)} |`),
    ].join('\n')
  : '(not run: --no-baseline)';
const md = `# Delivery benchmark

Measured by \`npm run bench:delivery\` (bench/delivery.mjs${args.length ? ` ${args.join(' ')}` : ''}) on ${new Date().toISOString().slice(0, 10)}:
${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; 1-minute load average ${loadAtStart.toFixed(1)} at the start,
${loadavg()[0].toFixed(1)} at the end (above ${cpus().length}, other work was competing for the cores). Everything on one machine (the
service, the agent, the virtual printer and the load generator share its cores), on a fresh ${storeKind === 'postgres' ? 'PostgreSQL schema (local server, 127.0.0.1)' : 'SQLite\nfile'} per run. Printer: a virtual ${PRINTER} (status query before each job; end-of-print confirmation
with GS ( H, then a status after it). Job: fixtures/nfce.txt with a marker line (${'~'}${Buffer.byteLength(conteudo)} bytes of
content; the T20 rasterises the QR code).

## Insert → last byte at the printer

Clock: from just before the Insert request leaves the load generator to the virtual printer
having read the job's last byte (its "printed" event), matched per job by the marker line.

${latencyTable}

Target: p99 ≤ 100 ms at 10 jobs/s. The agent waits on a long-poll that the service answers as soon
as the job is committed (an in-process notifier, no periodic polling).

## Jobs/s through one terminal

A burst of jobs inserted as fast as the service takes them, through one client, to a printer that
reads as fast as it can (one job after another: a terminal prints in insert order).

${throughputTable}

## Insert throughput against the baseline

autocannon, 32 connections, ${ROUNDS} rounds of ${process.env.BENCH_SECONDS ?? 8} s each after a 2 s warm-up, the NFC-e
fixture for a terminal printing on a MAKER1MP4200 (native QR: the compile is cheap, so the service's own
cost shows), builds alternated. The baseline is built from its git ref with
this checkout's node_modules. What delivery adds to an Insert: the job's first history row and,
for a job without a terminal, a look for a terminal taking template jobs; then a wake-up for the
terminal's long-poll after the commit.

${insertTable}

Target: not lower than the baseline by more than 10%. The machine is shared with other work; rerun
for numbers of your own.
`;
// A run on PostgreSQL does not replace the SQLite numbers the README quotes.
writeFileSync(new URL(storeKind === 'postgres' ? './DELIVERY.postgres.md' : './DELIVERY.md', import.meta.url), md);
console.log(md);
