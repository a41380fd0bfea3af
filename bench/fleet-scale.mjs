// The fleet at scale (issue 23, "How it is checked"; not a test), for SQLite and PostgreSQL:
//  1. what heartbeats cost: `POST /TerminalImpressao/Sinal` from 1,000 terminals, paced at the rate
//     1,000 terminals send at the default heartbeat (1000 / 15 s = 67 req/s), then as fast as 16
//     connections go; the CPU the `bobina serve` process spent (/proc/PID/stat), less its idle CPU
//     over as long, per Sinal, and on PostgreSQL its backends' CPU too;
//  2. one instance holding a simulated fleet (bench/lib/fleet-sim.mjs, in a few client processes
//     with many keep-alive sockets): each terminal a parked long-poll ObterProxima (espera 30 s, as
//     `bobina agent` waits) plus its heartbeat every 15 s, while Insert's p99 is measured at a paced
//     rate and compared with the same instance's Insert p99 without a fleet (before and after).
// `--cycle` measures only the CPU of one Sinal and of one poll that finds nothing (see cycle()).
// Terminals and their keys are made in bulk through the store (run by tsx: it imports src/). The
// service runs with --max-connections 0 --max-connections-per-address 0 (the defaults, 512 and 64,
// cannot hold a fleet connecting from one address: see FLEET.md) and --metrics-port, whose
// event-loop lag, open fds and memory are read after each phase. Writes its section of
// bench/FLEET.md. Run `npm run build` first.
//
//   npm run bench:fleet
//   BENCH_FLEETS=1000,5000 npm run bench:fleet -- --only sqlite
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import autocannon from 'autocannon';
import { freePort, stop } from './lib/processes.mjs';
import { writeSection } from './lib/section.mjs';
import { account, CLI, serve } from './lib/service.mjs';
import { dropStores, freshStore, PG_URL, postgresVersion } from './lib/stores.mjs';
import { newTerminalKey, sha256 } from '../src/server/auth/secrets.ts';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const FLEETS = (process.env.BENCH_FLEETS ?? '2500,10000').split(',').map(Number);
const SIM_PROCESSES = Number(process.env.BENCH_SIM_PROCESSES ?? 4);
const HEARTBEAT_MS = 15_000;
const ESPERA = 30;
const INSERT_RATE = Number(process.env.BENCH_INSERT_RATE ?? 50);
const INSERT_SECONDS = Number(process.env.BENCH_INSERT_SECONDS ?? 20);
const BEAT_TERMINALS = 1000;
const TICK_MS = 1000 / 100; // CLK_TCK
const dir = mkdtempSync(join(tmpdir(), 'bobina-bench-fleet-'));
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load1 = () => loadavg()[0];

/** The CPU time (ms, user + system) process `pid` has used, or 0 when it is gone. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving this store (told apart by application_name). */
async function backendPids(store) {
  if (store.kind !== 'postgres') return [];
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return (await client.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [store.schema])).rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** CPU of the service and of its backends, from now until the returned function is called. */
async function cpuMeter(proc, store) {
  const pids = await backendPids(store);
  const s0 = cpuMs(proc.pid);
  const b0 = pids.map(cpuMs);
  const t0 = performance.now();
  return () => ({
    service: cpuMs(proc.pid) - s0,
    backends: pids.reduce((sum, pid, i) => sum + Math.max(0, cpuMs(pid) - b0[i]), 0),
    wall: performance.now() - t0,
  });
}

/** N terminals of the account, each with its own key, through the store (not the CLI: one process, one statement each). */
async function makeTerminals(store, n) {
  const opened = store.kind === 'sqlite'
    ? (await import('../src/server/store/sqlite.ts')).openSqliteStore(store.flags[1])
    : await (await import('../src/server/store/postgres.ts')).openPostgresStore(store.flags[1]);
  try {
    const user = await opened.accounts.findByEmail('bench@example.com');
    const keys = [];
    const one = async (i) => {
      const terminalId = `SIM${String(i).padStart(5, '0')}`;
      const key = newTerminalKey();
      await opened.terminals.put({ accountId: user.id, terminalId, printerId: 5, enabled: true, device: null, templateJobs: false });
      await opened.credentials.setTerminalKey(user.id, terminalId, sha256(key), key.slice(0, 11));
      keys[i] = key;
    };
    for (let i = 0; i < n; i += 16) await Promise.all(Array.from({ length: Math.min(16, n - i) }, (_, j) => one(i + j)));
    return keys;
  } finally {
    await opened.close();
  }
}

/** The service's own view, from its /metrics: event-loop lag p99 (since the last scrape), open fds, resident memory. */
async function scrape(metricsBase) {
  const text = await (await fetch(`${metricsBase}/metrics`)).text();
  const get = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return { lagP99: get('nodejs_eventloop_lag_p99_seconds') * 1000, lagMax: get('nodejs_eventloop_lag_max_seconds') * 1000, fds: get('process_open_fds'), rssMiB: get('process_resident_memory_bytes') / 2 ** 20 };
}

/** Sinal from `keys` in turn (each terminal's last contact over a second old: a real write each), paced at `rate`/s or as fast as `connections` go. */
async function signals(base, keys, { rate, connections = 16, seconds, path = '/TerminalImpressao/Sinal' }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const body = JSON.stringify({ impressora: { pronta: true, motivos: [] }, versaoAgente: 'bench-sim' });
  const lat = [];
  let errors = 0;
  let next = 0;
  const one = () => new Promise((resolve) => {
    const key = keys[next++ % keys.length];
    const t = performance.now();
    const req = http.request(`${base}${path}`, {
      method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) lat.push(performance.now() - t);
        else errors++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end(body);
  });
  const until = performance.now() + seconds * 1000;
  if (rate) {
    const pending = [];
    const t0 = performance.now();
    for (let i = 0; performance.now() < until; i++) {
      const due = t0 + (i * 1000) / rate;
      if (due > performance.now()) await sleep(due - performance.now());
      pending.push(one());
    }
    await Promise.all(pending);
  } else {
    await Promise.all(Array.from({ length: connections }, async () => {
      while (performance.now() < until) await one();
    }));
  }
  agent.destroy();
  lat.sort((a, b) => a - b);
  return { count: lat.length, errors, p50: pct(lat, 50), p99: pct(lat, 99) };
}

/** Inserts to a terminal nobody polls (jobs queue), paced at INSERT_RATE/s for INSERT_SECONDS. */
function inserts(base, apiKey, seconds = INSERT_SECONDS) {
  const conteudo = readFileSync(new URL('../fixtures/nfce.txt', import.meta.url), 'utf8');
  return new Promise((resolve, reject) => autocannon({
    url: `${base}/IntencaoImpressao/Insert`, method: 'POST', connections: 8, overallRate: INSERT_RATE, duration: seconds,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ referencia: 'bench', conteudo, terminalId: 'PDV-INSERT' }),
  }, (e, r) => (e ? reject(e) : resolve({ p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], bad: r.non2xx + r.errors + r.timeouts }))));
}

/** The simulator processes running, killed by pid if this process exits first. */
const simulators = new Set();
process.on('exit', () => {
  for (const c of simulators) if (c.exitCode === null && c.signalCode === null) process.kill(c.pid, 'SIGKILL');
});

/** Starts the simulated fleet of `keys` in SIM_PROCESSES children; `{ stats(), stop() }`. */
function startFleet(base, keys, rampMs) {
  const sims = Array.from({ length: SIM_PROCESSES }, () => fork(new URL('./lib/fleet-sim.mjs', import.meta.url).pathname, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  for (const c of sims) {
    simulators.add(c);
    c.once('exit', () => simulators.delete(c));
  }
  const share = Math.ceil(keys.length / SIM_PROCESSES);
  sims.forEach((c, i) => c.send({ start: { base, keys: keys.slice(i * share, (i + 1) * share), espera: ESPERA, heartbeatMs: HEARTBEAT_MS, rampMs } }));
  const ask = (c) => new Promise((resolve) => {
    c.once('message', resolve);
    c.send({ stats: true });
  });
  return {
    async stats() {
      const all = await Promise.all(sims.map(ask));
      const lat = all.flatMap((x) => x.lat).sort((a, b) => a - b);
      const errors = {};
      for (const x of all) for (const [k, v] of Object.entries(x.errors)) errors[k] = (errors[k] ?? 0) + v;
      const sum = (f) => all.reduce((n, x) => n + x[f], 0);
      return { parked: sum('parked'), polls: sum('polls'), pollErrors: sum('pollErrors'), beats: sum('beats'), beatErrors: sum('beatErrors'), beatP50: pct(lat, 50), beatP99: pct(lat, 99), errors };
    },
    async stop() {
      await Promise.all(sims.map((c) => new Promise((resolve) => {
        if (c.exitCode !== null) return resolve();
        const t = setTimeout(() => {
          process.kill(c.pid, 'SIGKILL');
        }, 5000);
        c.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        c.send({ stop: true });
      })));
    },
  };
}

async function runStore(kind) {
  const store = freshStore(kind, dir);
  const { apiKey } = account(CLI, store, [['PDV-INSERT', []]]);
  const most = Math.max(BEAT_TERMINALS, ...FLEETS);
  let t = performance.now();
  const keys = await makeTerminals(store, most);
  console.error(`${kind}: ${most} terminals with keys in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  const metricsPort = await freePort();
  const served = await serve(CLI, store, ['--max-connections', '0', '--max-connections-per-address', '0', '--metrics-port', String(metricsPort)]);
  const metricsBase = `http://127.0.0.1:${metricsPort}`;
  const out = { kind, beats: [], fleets: [] };
  try {
    const { base, proc } = served;
    // Warm-up: every one of the 1,000 terminals' first contact (online, its printer announced) and the JIT.
    await signals(base, keys, { connections: 16, seconds: 5 });
    await sleep(1500);
    // 1. Heartbeats: the idle service's own CPU first, over as long as each measurement.
    const IDLE_S = 10;
    let meter = await cpuMeter(proc, store);
    let l0 = load1();
    await sleep(IDLE_S * 1000);
    const idle = meter();
    out.idle = { ...idle, load: [l0, load1()] };
    for (const [name, opts, from] of [
      [`paced, ${Math.round(BEAT_TERMINALS / 15)} req/s (1,000 terminals at the 15 s heartbeat)`, { rate: BEAT_TERMINALS / 15, seconds: 20 }, keys.slice(0, BEAT_TERMINALS)],
      [`as fast as 16 connections go, from ${keys.length.toLocaleString('en')} terminals in turn`, { connections: 16, seconds: 10 }, keys],
      ['as fast as 16 connections go, from 100 terminals (each again within 1 s: not written, the service\'s throttle)', { connections: 16, seconds: 10 }, keys.slice(0, 100)],
    ]) {
      l0 = load1();
      meter = await cpuMeter(proc, store);
      const r = await signals(base, from, opts);
      const c = meter();
      const idleShare = (idle.service / idle.wall) * c.wall;
      const idleBackends = (idle.backends / idle.wall) * c.wall;
      out.beats.push({ name, ...r, rps: r.count / (c.wall / 1000), cpuPer: (c.service - idleShare) / r.count, cpuRaw: c.service / r.count, backendsPer: (c.backends - idleBackends) / r.count, cpuShare: c.service / c.wall, load: [l0, load1()] });
      console.error(`${kind}: Sinal ${name}: ${JSON.stringify(out.beats.at(-1))}`);
      await sleep(1500);
    }
    // 2. Insert without a fleet, then with each fleet, then without again.
    const quiet = async (label) => {
      l0 = load1();
      await scrape(metricsBase);
      const r = await inserts(base, apiKey);
      const m = await scrape(metricsBase);
      out.fleets.push({ terminals: 0, label, insert: r, metrics: m, load: [l0, load1()] });
      console.error(`${kind}: Insert, ${label}: ${JSON.stringify(out.fleets.at(-1))}`);
    };
    await inserts(base, apiKey, 5); // warm-up
    await quiet('no fleet (before)');
    for (const n of FLEETS) {
      // Started over one poll's wait, so the polls' ends (and new polls) are spread as a running fleet's are.
      const rampMs = Math.max(ESPERA * 1000, n * 2);
      const fleet = startFleet(base, keys.slice(0, n), rampMs);
      try {
        t = performance.now();
        // Wait for every poll to be parked (bounded), then a heartbeat round to settle.
        let st = await fleet.stats();
        while (st.parked < n && performance.now() - t < rampMs + 30_000) {
          await sleep(1000);
          st = await fleet.stats();
        }
        const rampS = (performance.now() - t) / 1000;
        // A heartbeat round with nothing else: what holding the fleet costs the service.
        const held = await cpuMeter(proc, store);
        const lh = load1();
        await sleep(HEARTBEAT_MS);
        const hc = held();
        const holding = { cores: hc.service / hc.wall, backendCores: hc.backends / hc.wall, load: [lh, load1()] };
        const before = await fleet.stats();
        l0 = load1();
        await scrape(metricsBase);
        const r = await inserts(base, apiKey);
        const m = await scrape(metricsBase);
        const after = await fleet.stats();
        const row = { terminals: n, label: `${n.toLocaleString('en')} terminals`, rampS, parkedAtStart: before.parked, holding, insert: r, metrics: m, load: [l0, load1()], fleet: after, beatsDuring: after.beats };
        out.fleets.push(row);
        console.error(`${kind}: Insert with ${n} terminals: ${JSON.stringify(row)}`);
      } finally {
        await fleet.stop();
      }
      await sleep(3000);
    }
    await quiet('no fleet (after)');
  } finally {
    await stop(served.proc);
  }
  // The default connection limits (512 in all, 64 per client address) against 1,000 terminals from one address.
  const limited = await serve(CLI, store);
  const fleet = startFleet(limited.base, keys.slice(0, 1000), 5000);
  try {
    await sleep(10_000);
    out.defaults = await fleet.stats();
    console.error(`${kind}: default limits, 1,000 terminals: ${JSON.stringify(out.defaults)}`);
  } finally {
    await fleet.stop();
    await stop(limited.proc);
  }
  return out;
}

/**
 * `--cycle`: the service CPU one terminal's contacts cost, without holding a fleet: a Sinal, and a
 * poll that finds nothing (`ObterProxima?espera=0`: its contact, the look for a job, the answer with
 * the terminal's view), from 1,000 terminals in turn as fast as 16 connections go, with no jobs
 * queued in the account and with CYCLE_QUEUED jobs queued to another terminal of it (as the fleet
 * run's Inserts leave them). Printed, not written to FLEET.md.
 */
async function cycle(kind) {
  const store = freshStore(kind, dir);
  const { apiKey } = account(CLI, store, [['PDV-INSERT', []]]);
  const keys = await makeTerminals(store, BEAT_TERMINALS);
  const served = await serve(CLI, store, ['--max-connections', '0', '--max-connections-per-address', '0']);
  const rows = [];
  try {
    const { base, proc } = served;
    await signals(base, keys, { connections: 16, seconds: 3 });
    await sleep(1500);
    let meter = await cpuMeter(proc, store);
    await sleep(5000);
    const idle = meter();
    const measure = async (name, opts) => {
      const l0 = load1();
      meter = await cpuMeter(proc, store);
      const r = await signals(base, keys, { connections: 16, seconds: 10, ...opts });
      const c = meter();
      const per = (c.service - (idle.service / idle.wall) * c.wall) / r.count;
      const backends = (c.backends - (idle.backends / idle.wall) * c.wall) / r.count;
      rows.push({ name, rps: r.count / (c.wall / 1000), per, backends, errors: r.errors, load: [l0, load1()] });
      console.error(`${kind}: ${name}: ${JSON.stringify(rows.at(-1))}`);
      await sleep(1500);
    };
    const poll = { path: '/TerminalImpressao/ObterProxima?espera=0' };
    await measure('Sinal, as fast as they go (each terminal again within 1 s: not written)', {});
    await measure('Sinal, paced at 500/s (each terminal every 2 s: its contact written)', { rate: 500 });
    await measure('poll finding nothing, no job queued in the account', poll);
    const queued = Number(process.env.CYCLE_QUEUED ?? 5000);
    const conteudo = readFileSync(new URL('../fixtures/nfce.txt', import.meta.url), 'utf8');
    await new Promise((resolve, reject) => autocannon({
      url: `${base}/IntencaoImpressao/Insert`, method: 'POST', connections: 8, amount: queued,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ referencia: 'bench', conteudo, terminalId: 'PDV-INSERT' }),
    }, (e, r) => (e ? reject(e) : resolve(r))));
    await sleep(3000);
    await measure(`poll finding nothing, ${queued.toLocaleString('en')} jobs queued to another terminal of the account`, poll);
  } finally {
    await stop(served.proc);
  }
  const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const lines = [`${label} (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC): service CPU per request, less its idle rate; from 1,000 terminals in turn, 16 connections.`, '',
    `| request | per s | service CPU ms${kind === 'postgres' ? ' | backends CPU ms' : ''} | errors | load |`, `|---|---:|---:|${kind === 'postgres' ? '---:|' : ''}---:|---|`];
  for (const r of rows) lines.push(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.per.toFixed(3)} |${kind === 'postgres' ? ` ${r.backends.toFixed(3)} |` : ''} ${r.errors} | ${ld(r.load)} |`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const ld = (l) => `${l[0].toFixed(1)} → ${l[1].toFixed(1)}`;


try {
  const kinds = only ? [only] : ['sqlite', 'postgres'];
  if (args.includes('--cycle')) {
    try {
      for (const kind of kinds) await cycle(kind);
    } finally {
      await dropStores().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
    process.exit(0);
  }
  const pgVersion = kinds.includes('postgres') ? await postgresVersion() : '';
  const runs = [];
  for (const kind of kinds) runs.push(await runStore(kind));
  for (const r of runs) {
    const label = r.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const lines = [
      `## Heartbeats and a fleet of parked long-polls: ${label}`,
      '',
      `\`npm run build && BENCH_FLEETS=${FLEETS.join(',')} npm run bench:fleet -- --only ${r.kind}\` (bench/fleet-scale.mjs), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'},`,
      `Node ${process.version}${r.kind === 'postgres' ? `, PostgreSQL ${pgVersion}` : ''}; shared with other work: the 1-minute load average is given per row (before → after).`,
      `One \`bobina serve\` on 127.0.0.1 with \`--max-connections 0 --max-connections-per-address 0 --metrics-port P\`; fd limit (ulimit -n) ${process.env.BENCH_ULIMIT ?? 'as inherited'}.`,
      '',
    ];
    lines.push(`### ${label}: the cost of a heartbeat`, '');
    lines.push(`Sinal from terminals in turn, each with its own key (but in the last row, each terminal's last contact over a second old, so each is a real write of its contact). Idle service: ${ms(r.idle.service / (r.idle.wall / 1000))} ms CPU per second${r.kind === 'postgres' ? `, its backends ${ms(r.idle.backends / (r.idle.wall / 1000))}` : ''} (load ${ld(r.idle.load)}); CPU per Sinal is the service's CPU over the run less that idle rate.`, '');
    lines.push(`| run | Sinal/s | p50 ms | p99 ms | errors | service CPU per Sinal ms${r.kind === 'postgres' ? ' | PostgreSQL backends CPU per Sinal ms' : ''} | service CPU, cores | load |`);
    lines.push(`|---|---:|---:|---:|---:|---:|${r.kind === 'postgres' ? '---:|' : ''}---:|---|`);
    for (const b of r.beats) lines.push(`| ${b.name} | ${b.rps.toFixed(0)} | ${ms(b.p50)} | ${ms(b.p99)} | ${b.errors} | ${b.cpuPer.toFixed(3)} |${r.kind === 'postgres' ? ` ${b.backendsPer.toFixed(3)} |` : ''} ${b.cpuShare.toFixed(2)} | ${ld(b.load)} |`);
    lines.push('', `### ${label}: Insert beside a fleet`, '');
    lines.push(`Insert (NFC-e, to a terminal nobody polls) paced at ${INSERT_RATE}/s for ${INSERT_SECONDS} s by autocannon (8 connections), without a fleet and with N simulated terminals (${SIM_PROCESSES} client processes), each a parked \`ObterProxima?espera=${ESPERA}\` plus a Sinal every 15 s at its own phase; measured once every poll was parked and a heartbeat round had gone by. Lag, fds and memory from the service's /metrics over the Insert run.`, '');
    lines.push('Holding each fleet (a heartbeat round, 15 s, before the Insert run, nothing else sent):', '');
    for (const f of r.fleets.filter((x) => x.holding)) lines.push(`- ${f.label}: the service used ${f.holding.cores.toFixed(2)} cores${r.kind === 'postgres' ? `, its PostgreSQL backends ${f.holding.backendCores.toFixed(2)}` : ''} (load ${ld(f.holding.load)}); every poll parked within ${f.rampS.toFixed(0)} s of the first.`);
    lines.push('');
    lines.push('| fleet | Insert p50 ms | Insert p99 ms | Insert 2xx / bad | polls parked | Sinal p50 / p99 ms | poll / Sinal errors | event-loop lag p99 / max ms | open fds | RSS MiB | load |');
    lines.push('|---|---:|---:|---|---:|---|---|---|---:|---:|---|');
    for (const f of r.fleets) {
      const fl = f.fleet;
      lines.push(`| ${f.label} | ${f.insert.p50} | ${f.insert.p99} | ${f.insert.ok} / ${f.insert.bad} | ${fl ? fl.parked : '-'} | ${fl ? `${ms(fl.beatP50)} / ${ms(fl.beatP99)}` : '-'} | ${fl ? `${fl.pollErrors} / ${fl.beatErrors}${Object.keys(fl.errors).length ? ` (${Object.entries(fl.errors).map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}` : '-'} | ${ms(f.metrics.lagP99)} / ${ms(f.metrics.lagMax)} | ${f.metrics.fds} | ${f.metrics.rssMiB.toFixed(0)} | ${ld(f.load)} |`);
    }
    const d = r.defaults;
    lines.push('', `With the default connection limits (no --max-connections flags: 512 in all, 64 per client address), 1,000 terminals from 127.0.0.1 for 10 s: ${d.parked} polls in flight, ${d.polls} answered, ${d.pollErrors} poll and ${d.beatErrors} Sinal errors (${Object.entries(d.errors).map(([k, v]) => `${k}: ${v}`).join(', ') || 'none'}).`);
    lines.push('');
    const text = lines.join('\n');
    process.stdout.write(`${text}\n`);
    if (!process.env.BENCH_NO_WRITE) writeSection(new URL('./FLEET.md', import.meta.url), `fleet-${r.kind}`, text);
  }
} finally {
  await dropStores().catch((err) => console.error(`could not drop the bench schemas: ${err.message}`));
  rmSync(dir, { recursive: true, force: true });
}
