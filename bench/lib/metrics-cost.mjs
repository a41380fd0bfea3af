// The cost of metrics on Insert throughput: two `bobina serve` on SQLite files seeded alike, one
// without metrics and one with (BOBINA_METRICS_TOKEN, scraped every BENCH_METRICS_SCRAPE_MS, default
// 15 s as a Prometheus job would), driven in turn at full speed, in the order A B B A A B B A … so
// that a drift of the machine's load weighs on both alike; then the CPU cost of one scrape, alone.
// The section of bench/SERVICE-RESULTS.md it returns gives every run, the medians, the differences
// and the load average before and after.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort, start, stop } from './processes.mjs';

export const METRICS_SECTION = '## The cost of metrics on Insert';

const SECONDS = Number(process.env.BENCH_METRICS_SECONDS ?? 10);
const SCRAPE_MS = Number(process.env.BENCH_METRICS_SCRAPE_MS ?? 15_000);
const SCRAPES_ALONE = 20;
const PAIRS = Number(process.env.BENCH_METRICS_PAIRS ?? 6);
const TOKEN = 'bench-metrics-token-0123456789';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => loadavg().map((l) => l.toFixed(1)).join(' / ');

async function serve(CLI, env, file, extraEnv) {
  const port = await freePort();
  const child = await start([CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', file], 'listening on', { ...env, ...extraEnv });
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/auth/reconciliation/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-pw', grant_type: 'password' }),
  });
  const { access_token } = await login.json();
  return { child, base, key: access_token };
}

/** The process's CPU time so far (all its threads: the compile pool's too), in clock ticks, from /proc (Linux). */
function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return NaN;
  }
}

const run = (opts) => new Promise((resolve, reject) => autocannon({ duration: SECONDS, connections: 32, ...opts }, (e, r) => (e ? reject(e) : resolve(r))));

export async function metricsCost({ CLI, env, seed, dir }) {
  const conteudo = readFileSync(new URL('../../fixtures/nfce.txt', import.meta.url), 'utf8');
  const servers = {};
  for (const [name, extra] of [['without', {}], ['with', { BOBINA_METRICS_TOKEN: TOKEN }]]) {
    const file = join(dir, `metrics-${name}.sqlite`);
    seed(file, 'users', 'add', '--email', 'bench@example.com', '--password', 'bench-pw', '--name', 'Bench');
    seed(file, 'terminals', 'add', '--email', 'bench@example.com', '--terminal', 'PDV-MP4200', '--printer', 'MAKER1MP4200');
    servers[name] = await serve(CLI, env, file, extra);
  }
  const insert = (s) => ({
    url: `${s.base}/IntencaoImpressao/Insert?key=${s.key}`, method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ referencia: 'bench', conteudo, terminalId: 'PDV-MP4200' }),
  });
  const scrapes = { ok: 0, failed: 0 };
  const scrape = async () => {
    const r = await fetch(`${servers.with.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).catch(() => undefined);
    if (r?.ok) {
      await r.text();
      scrapes.ok++;
    } else scrapes.failed++;
  };
  const runs = { without: [], with: [] };
  let scrapeMs = NaN;
  const before = load();
  try {
    // Warm-up of both (not reported): JIT, page cache, the first WAL checkpoints.
    for (const s of Object.values(servers)) await run({ ...insert(s), duration: 3 });
    for (let i = 0; i < PAIRS; i++) {
      for (const name of i % 2 ? ['with', 'without'] : ['without', 'with']) {
        // One scrape as the run starts, then every SCRAPE_MS.
        if (name === 'with') void scrape();
        const scraper = name === 'with' ? setInterval(scrape, SCRAPE_MS) : undefined;
        const ticks = cpuTicks(servers[name].child.pid);
        const r = await run(insert(servers[name]));
        const used = cpuTicks(servers[name].child.pid) - ticks;
        clearInterval(scraper);
        // CPU ms per Insert (a tick is 10 ms): what the service spends, whatever else competes for the cores.
        runs[name].push({ rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts, cpuMs: (used * 10) / Math.max(1, r['2xx']) });
      }
    }
    // The scrape alone, on the idle service: CPU ms per scrape (jobs by state over the backlog the runs left).
    const ticks = cpuTicks(servers.with.child.pid);
    for (let i = 0; i < SCRAPES_ALONE; i++) await scrape();
    scrapeMs = ((cpuTicks(servers.with.child.pid) - ticks) * 10) / SCRAPES_ALONE;
  } finally {
    for (const s of Object.values(servers)) await stop(s.child);
  }
  const after = load();
  const m = { without: median(runs.without.map((r) => r.rps)), with: median(runs.with.map((r) => r.rps)) };
  const cost = ((m.without - m.with) / m.without) * 100;
  const cpu = { without: median(runs.without.map((r) => r.cpuMs)), with: median(runs.with.map((r) => r.cpuMs)) };
  const cpuCost = ((cpu.with - cpu.without) / cpu.without) * 100;
  const rows = runs.without.map((w, i) => {
    const x = runs.with[i];
    return `| ${i + 1} | ${Math.round(w.rps)} | ${w.p99} | ${w.cpuMs.toFixed(3)} | ${Math.round(x.rps)} | ${x.p99} | ${x.cpuMs.toFixed(3)} |`;
  });
  return `${METRICS_SECTION}

Measured by \`npm run bench:service\` (bench/lib/metrics-cost.mjs; alone: \`BENCH_SERVICE_ONLY=metrics npm run bench:service\`)
on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}:
two \`bobina serve\` on SQLite files seeded alike, one without metrics and one with \`BOBINA_METRICS_TOKEN\`
set and \`/metrics\` scraped as each of its runs starts and every ${SCRAPE_MS / 1000} s (${scrapes.ok} scrapes, ${scrapes.failed} failed);
Insert NFC-e (MP4200) at full speed, 32 connections, ${SECONDS} s per run, ${PAIRS} pairs in the order A B, B A, A B, …
Load average (1 / 5 / 15 min) before: ${before}; after: ${after}.

| pair | without: req/s | p99 ms | CPU ms/Insert | with metrics: req/s | p99 ms | CPU ms/Insert |
|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

Medians: ${Math.round(m.without)} req/s without, ${Math.round(m.with)} req/s with: **${cost.toFixed(1)}%** less Insert throughput with metrics
(target ≤ 3%; negative: more with, i.e. noise). CPU time of the service per Insert (all its threads, from /proc; less
sensitive to what else runs on the machine): ${cpu.without.toFixed(3)} ms without, ${cpu.with.toFixed(3)} ms with: **${cpuCost.toFixed(1)}%** more with metrics.
One scrape alone (the service idle, ${SCRAPES_ALONE} in a row, after the runs left their queued jobs): ${scrapeMs.toFixed(1)} ms of CPU.
Errors or non-2xx: ${[...runs.without, ...runs.with].reduce((n, r) => n + r.bad, 0)}.
`;
}
