// PostgreSQL benchmark (not a test), issue 13. In one run, rounds alternated so every setup shares
// the machine's mood:
// - Insert throughput (req/s) and latency percentiles with one `bobina serve` on SQLite, one on
//   PostgreSQL, and two on one PostgreSQL schema with the load split across both (autocannon, the
//   same connections in total; percentiles over every response of the setup);
// - Insert → last byte at a virtual printer through `bobina agent`'s long-poll at 10 jobs/s, on
//   SQLite, on PostgreSQL, and on two PostgreSQL instances with the inserts on one and the agent
//   waiting on the other (the wake-up crosses instances by LISTEN/NOTIFY).
// Each setup gets a fresh SQLite file or PostgreSQL schema; the schemas are dropped at the end
// (bench/lib/stores.mjs). Writes bench/POSTGRES.md. Run `npm run build` first.
//
//   npm run bench:postgres
//   BENCH_ROUNDS=3 BENCH_SECONDS=8 npm run bench:postgres
//   BOBINA_BENCH_DATABASE_URL=postgres://user@host:5432/db npm run bench:postgres
//   npm run bench:postgres -- --only inserts    # or --only delivery
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchPrinter, latency, pct } from './lib/latency.mjs';
import { start, stop, stopAll } from './lib/processes.mjs';
import { account, benchEnv, CLI, serve } from './lib/service.mjs';
import { dropStores, freshStore, PG_URL, postgresVersion, waitSampler } from './lib/stores.mjs';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const RATE = 10;
const JOBS = 100;
/** Inserts for an Elgin i9 (native QR): the compile is cheap, so what the store costs shows. */
const INSERT_PRINTER = 'MAKER4I9';
/** Delivery as bench/delivery.mjs measures it: the T20 (raster QR), to compare with DELIVERY.md. */
const DELIVERY_PRINTER = 'MAKER5T20';
const conteudo = readFileSync(new URL('../fixtures/nfce.txt', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'bobina-bench-postgres-'));

const INSERT_SETUPS = [
  { name: 'SQLite, 1 instance', kind: 'sqlite', instances: 1 },
  { name: 'PostgreSQL, 1 instance', kind: 'postgres', instances: 1 },
  { name: 'PostgreSQL, 2 instances (load split)', kind: 'postgres', instances: 2 },
];
const DELIVERY_SETUPS = [
  { name: 'SQLite, 1 instance', kind: 'sqlite', instances: 1 },
  { name: 'PostgreSQL, 1 instance', kind: 'postgres', instances: 1 },
  { name: 'PostgreSQL, 2 instances (insert on A, agent on B)', kind: 'postgres', instances: 2 },
];

/** Instances of `bobina serve` on one fresh store, with the account and `terminals` set up. */
async function cluster(kind, instances, terminals, printer) {
  const store = freshStore(kind, dir);
  const { apiKey, keys } = account(CLI, store, terminals, printer);
  const served = [];
  for (let i = 0; i < instances; i++) served.push(await serve(CLI, store, ['--state-dir', join(dir, `${store.schema ?? 'sqlite'}-${i}.delivery`)]));
  return { store, apiKey, keys, served, stop: () => Promise.all(served.map((s) => stop(s.proc))) };
}

/** autocannon on each instance at once, `CONNECTIONS` in all; every response's time is kept. */
async function inserts(c, seconds) {
  const times = [];
  let ok = 0;
  let bad = 0;
  const per = Math.max(1, Math.floor(CONNECTIONS / c.served.length));
  const t0 = performance.now();
  await Promise.all(c.served.map((s) => new Promise((resolve, reject) => {
    const instance = autocannon({
      url: `${s.base}/IntencaoImpressao/Insert`, method: 'POST', connections: per, duration: seconds,
      headers: { authorization: `Bearer ${c.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ referencia: 'bench', conteudo, terminalId: 'PDV-1' }),
    }, (e, r) => (e ? reject(e) : resolve(r)));
    instance.on('response', (_client, status, _bytes, ms) => {
      times.push(ms);
      if (status === 200) ok++;
      else bad++;
    });
    instance.on('reqError', () => bad++);
  })));
  const secs = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return { rps: ok / secs, p50: pct(times, 50), p99: pct(times, 99), ok, bad };
}

const results = { inserts: [], delivery: [] };
const loadAtStart = loadavg();
let version;
try {
  version = await postgresVersion();
} catch (err) {
  console.error(`bench:postgres needs PostgreSQL at ${new URL(PG_URL).host} (BOBINA_BENCH_DATABASE_URL): ${err.message}`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}

try {

  // ---- Insert throughput
  for (let round = 0; round < (only === 'delivery' ? 0 : ROUNDS); round++) {
    for (const setup of INSERT_SETUPS) {
      const c = await cluster(setup.kind, setup.instances, [['PDV-1', [], INSERT_PRINTER]], INSERT_PRINTER);
      try {
        await inserts(c, 2); // warm-up: JIT, pools, the first pages of the tables
        const sampling = c.store.kind === 'postgres' ? await waitSampler(c.store) : undefined;
        const r = await inserts(c, SECONDS);
        results.inserts.push({ setup: setup.name, round, ...r, waits: await sampling?.() });
        console.log(`insert ${setup.name} round ${round + 1}: ${r.rps.toFixed(0)} req/s p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms (${r.bad} errors)`);
      } finally {
        await c.stop();
      }
    }
  }

  // ---- Insert → last byte at the printer, through the agent's long-poll
  for (const setup of only === 'inserts' ? [] : DELIVERY_SETUPS) {
    const c = await cluster(setup.kind, setup.instances, [['PDV-AGENT', ['--print-key']]], DELIVERY_PRINTER);
    const printer = await benchPrinter(DELIVERY_PRINTER);
    let agent;
    try {
      const [insertOn, agentOn] = [c.served[0], c.served.at(-1)];
      agent = await start([CLI, 'agent', '--url', agentOn.base, '--key', c.keys['PDV-AGENT'], '--terminal', 'PDV-AGENT', '--device', printer.vp.address,
        '--state-dir', join(dir, `agent-${results.delivery.length}`)], 'taking jobs', benchEnv);
      const s = { base: insertOn.base, apiKey: c.apiKey };
      await latency(s, printer, 'PDV-AGENT', RATE, 10, 0, conteudo); // warm-up
      const r = await latency(s, printer, 'PDV-AGENT', RATE, JOBS, 10, conteudo);
      results.delivery.push({ setup: setup.name, ...r });
      console.log(`delivery ${setup.name}: p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms (${r.jobs} jobs)`);
    } catch (err) {
      results.delivery.push({ setup: setup.name, error: err.message });
      console.log(`delivery ${setup.name}: ${err.message}`);
    } finally {
      if (agent) await stop(agent);
      await c.stop();
      await printer.vp.close();
    }
  }
} finally {
  stopAll();
  await dropStores();
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bySetup = new Map();
for (const r of results.inserts) bySetup.set(r.setup, [...(bySetup.get(r.setup) ?? []), r]);
const insertTable = [
  '| setup | rounds (req/s) | median req/s | median p50 ms | median p99 ms | errors |',
  '|---|---|---:|---:|---:|---:|',
  ...[...bySetup].map(([name, rs]) => `| ${name} | ${rs.map((r) => r.rps.toFixed(0)).join(', ')} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${median(rs.map((r) => r.p50)).toFixed(1)} | ${median(rs.map((r) => r.p99)).toFixed(1)} | ${rs.reduce((a, r) => a + r.bad, 0)} |`),
].join('\n');
// What PostgreSQL's busy backends waited on, over every round of a setup.
const waitsOf = (rs) => {
  const sum = new Map();
  for (const r of rs) for (const w of r.waits ?? []) sum.set(w.wait, (sum.get(w.wait) ?? 0) + w.share / rs.length);
  return [...sum].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([w, share]) => `${w} ${(share * 100).toFixed(0)}%`).join(', ');
};
const waitLines = [...bySetup].filter(([, rs]) => rs[0].waits).map(([name, rs]) => `- ${name}: ${waitsOf(rs)}`).join('\n');
const deliveryTable = [
  '| setup | jobs | p50 ms | p99 ms | max ms |',
  '|---|---:|---:|---:|---:|',
  ...results.delivery.map((r) => (r.error ? `| ${r.setup} | – | – | – | failed: ${r.error} |` : `| ${r.setup} | ${r.jobs} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} |`)),
].join('\n');
const load = (l) => l.map((x) => x.toFixed(1)).join(' / ');
const md = `# PostgreSQL benchmark

Measured by \`npm run bench:postgres\` (bench/postgres.mjs${args.length ? ` ${args.join(' ')}` : ''}) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC:
${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, PostgreSQL ${version} on the same machine
(127.0.0.1, default settings). Load average (1 / 5 / 15 min) ${load(loadAtStart)} at the start, ${load(loadavg())} at
the end: above ${cpus().length}, other work was competing for the cores. Everything shares those cores: the
instances, PostgreSQL, the agent, the virtual printer and the load generator. Each setup runs on a
fresh SQLite file (WAL) or a fresh PostgreSQL schema (pool of 10 connections per instance), dropped
afterwards.

## Insert throughput

autocannon, ${CONNECTIONS} connections in all (split evenly across the instances of a setup), ${ROUNDS} rounds of ${SECONDS} s
after a 2 s warm-up, setups alternated within each round. Each Insert authenticates the API key,
compiles fixtures/nfce.txt for the Elgin i9 (${INSERT_PRINTER}, native QR: a cheap compile, so the store's cost shows)
and commits the job with its first history row before answering. Percentiles over every response of
the setup (both instances together).

${insertTable}

What PostgreSQL's busy backends (in a statement or a transaction) were waiting on, sampled every
100 ms during the measured runs: \`ClientRead\` is PostgreSQL waiting for bobina to send the next
statement of the transaction (the instance is the bottleneck), \`WALWrite\`/\`WALSync\` commits being
flushed, \`CPU\` working; a \`Lock\` would be instances contending for rows.

${waitLines}

## Insert → last byte at the printer

${JOBS} jobs at ${RATE} jobs/s (after 10 to warm up) for one terminal whose \`bobina agent\` long-polls the
service and prints to a virtual ${DELIVERY_PRINTER} (status query before each job, end-of-print
confirmation): from just before the Insert request to the printer having the job's last byte,
matched per job by a marker line (bench/lib/latency.mjs, as bench/delivery.mjs measures it). With two
instances the Insert goes to A while the agent waits on B, so the job reaches the agent through
PostgreSQL's LISTEN/NOTIFY.

${deliveryTable}
${results.delivery.some((r) => r.setup.includes('agent on B') && !r.error && r.p50 > 1000) ? `
Across instances the p50 is above a second: the Insert on A did not wake the agent's long-poll on B,
which found the job only when its wait (30 s, the agent's default) ended and it asked again. The
store this build runs on provided no signals (\`Store.signals\`) for the wake-up to cross instances.
` : ''}
The machine is shared with other work; rerun for numbers of your own.
`;
writeFileSync(new URL('./POSTGRES.md', import.meta.url), md);
console.log(md);
