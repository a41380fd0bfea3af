// Webhook benchmark (not a test): time from a job's final state to the receiver's 2xx, p50/p99,
// at 10 and 100 jobs/s, against a real `bobina serve` (SQLite, its webhook sender) and a receiver
// on 127.0.0.1 that answers 200 at once. A job on the generic printer that does not wait for the
// client is final (completed) when Insert commits; its message carries that moment as `timestamp`
// (ms), and the receiver takes the time when the request has arrived (same clock, same machine).
// Writes bench/WEBHOOKS.md. Run `npm run build` first. BENCH_SECONDS (default 10) per rate;
// BENCH_NO_WEBHOOK=1 registers no endpoint (the inserts' own latency, for comparison);
// BENCH_PROF=DIR writes the server's CPU profile there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATES = [10, 100];
const TARGET_P99_MS = 500;
const dir = mkdtempSync(join(tmpdir(), 'bobina-bench-webhooks-'));
const db = join(dir, 'bench.sqlite');
const env = { ...process.env, DATABASE_URL: '', BOBINA_WEBHOOKS_ALLOW_PRIVATE: '1', BOBINA_WEBHOOKS_HTTP_HOSTS: '127.0.0.1', LOG_LEVEL: 'warn' };

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--db', db], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Receiver: records (job id → ms from final state to arrival), answers 200. */
const arrivals = new Map();
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    arrivals.set(body.data.intencaoImpressaoId, at - Date.parse(body.timestamp));
    res.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

cli('users', 'add', '--email', 'bench@example.com', '--password', 'bench-pw', '--name', 'Bench');
const key = cli('keys', 'create', '--email', 'bench@example.com');
if (!process.env.BENCH_NO_WEBHOOK) cli('webhooks', 'add', '--email', 'bench@example.com', '--url', receiverUrl);

const port = 18000 + Math.floor(Math.random() * 1000);
const server = spawn(process.execPath, [...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_PROF] : []), CLI, 'serve', '--port', String(port), '--db', db], { env, stdio: ['ignore', 'ignore', 'pipe'] });
await new Promise((resolve, reject) => {
  let err = '';
  server.stderr.on('data', (d) => {
    err += d;
    if (err.includes('listening on')) resolve();
  });
  server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
});
const base = `http://127.0.0.1:${port}`;

const insertMs = [];
async function insert(n) {
  const t0 = performance.now();
  const res = await fetch(`${base}/IntencaoImpressao/Insert?key=${key}`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ referencia: `bench-${n}`, conteudo: `Pedido ${n}<paperCutFull>`, codigoImpressora: 'GENERICA' }),
  });
  if (res.status !== 200) throw new Error(`insert ${res.status}: ${await res.text()}`);
  const id = (await res.json()).intencaoImpressao.id;
  insertMs.push(performance.now() - t0);
  return id;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Inserts at `rate` jobs/s for SECONDS, paced on a schedule (not waiting for answers), then waits for every notice. */
async function measure(rate) {
  const ids = [];
  const pending = [];
  const start = performance.now();
  const total = rate * SECONDS;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(insert(i).then((id) => ids.push(id)));
  }
  await Promise.all(pending);
  const deadline = Date.now() + 30_000;
  while (!process.env.BENCH_NO_WEBHOOK && ids.some((id) => !arrivals.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const inserts = insertMs.splice(0).sort((a, b) => a - b);
  const got = ids.filter((id) => arrivals.has(id)).map((id) => arrivals.get(id)).sort((a, b) => a - b);
  return { rate, jobs: ids.length, delivered: got.length, p50: pct(got, 50), p99: pct(got, 99), max: got.at(-1), insertP50: Math.round(pct(inserts, 50)), insertP99: Math.round(pct(inserts, 99)) };
}

const load = loadavg();
const results = [];
try {
  await measure(10); // warm-up: JIT, SQLite pages, keep-alive sockets
  arrivals.clear();
  for (const rate of RATES) {
    results.push(await measure(rate));
    process.stderr.write(`${JSON.stringify(results.at(-1))}\n`);
  }
} finally {
  server.kill('SIGTERM');
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}

const command = `npm run build && BENCH_SECONDS=${SECONDS} npm run bench:webhooks`;
const rows = results.map((r) => `| ${r.rate} | ${r.jobs} | ${r.delivered} | ${r.p50} | ${r.p99} | ${r.max} | ${r.p99 <= TARGET_P99_MS ? 'yes' : 'NO'} | ${r.insertP50} | ${r.insertP99} |`);
const md = `# Webhook latency: final state → receiver 2xx

Command: \`${command}\` (bench/webhooks.mjs)

Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; the machine was shared with
other work while this ran, so the figures are an upper bound of what it does idle.

Set-up: \`bobina serve\` on SQLite (one process, its webhook sender with the defaults: poll 500 ms, woken
by the outbox after each commit), one endpoint registered with \`bobina webhooks add\`, and a receiver on
127.0.0.1 answering 200 at once. Each job is an Insert on the generic printer without waiting for the
client, so it is final (\`completed\`) when Insert commits; latency is the receiver's arrival time minus
the message's \`timestamp\` (the moment of the final state, in ms). Inserts are paced on a fixed
schedule for ${SECONDS} s per rate, after a ${SECONDS} s warm-up at 10 jobs/s. Target: p99 ≤ ${TARGET_P99_MS} ms.

Load average when it started: ${load.map((l) => l.toFixed(1)).join(', ')} (1, 5, 15 min).

| jobs/s | jobs | delivered | p50 ms | p99 ms | max ms | p99 ≤ ${TARGET_P99_MS} ms | Insert p50 ms | Insert p99 ms |
|---:|---:|---:|---:|---:|---:|:---:|---:|---:|
${rows.join('\n')}
`;
// The hand-written notes, from "## Notes" on, are kept as they are.
const file = new URL('./WEBHOOKS.md', import.meta.url);
const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
writeFileSync(file, before.includes('\n## Notes') ? md + before.slice(before.indexOf('\n## Notes')) : md);
process.stdout.write(md);
if (results.some((r) => r.delivered !== r.jobs)) process.exitCode = 1;
