// Event-loop benchmark (not a test): how long `/health` waits while one worst-case Insert runs
// against a real `bobina serve` process. Writes bench/EVENT-LOOP.md (or the file named by --out).
// Run `npm run build` first; BOBINA_CLI=/path/to/cli.js measures another build (e.g. an older one).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } });
const CLI = process.env.BOBINA_CLI ? resolve(process.env.BOBINA_CLI) : new URL('../dist/cli.js', import.meta.url).pathname;
const OUT = flags.out ? resolve(flags.out) : new URL('./EVENT-LOOP.md', import.meta.url).pathname;
const BODY = 2 * 1024 * 1024 - 256; // just under the service's 2 MiB body limit, JSON wrapping included
const HEALTH_GAP_MS = 5;
const dir = mkdtempSync(join(tmpdir(), 'bobina-evloop-'));
const db = join(dir, 'bench.sqlite');
const env = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' };

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--db', db], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.stderr}`);
}

const freePort = () =>
  new Promise((ok, fail) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });

/** Repeats `unit` to fill about `bytes` of JSON string (JSON.stringify's escapes and UTF-8 counted). */
const fill = (unit, bytes = BODY) => unit.repeat(Math.floor(bytes / (Buffer.byteLength(JSON.stringify(unit)) - 2)));

/** The worst cases of issue 10, item 1, each one request at the body limit. */
const CASES = [
  { name: '`<qrcode>a</qrcode>` spam, DR800 (raster ESC *)', printer: 3, conteudo: () => fill('<qrcode>a</qrcode>') },
  { name: '`<qrcode>a</qrcode>` spam, T20 (raster GS v 0)', printer: 5, conteudo: () => fill('<qrcode>a</qrcode>') },
  { name: 'huge QR payloads (2,300 bytes each), DR800', printer: 3, conteudo: () => fill(`<qrcode>${'a'.repeat(2300)}</qrcode>`) },
  { name: '16 QR codes of 2,300 bytes (the most allowed), DR800', printer: 3, conteudo: () => `<qrcode>${'a'.repeat(2300)}</qrcode>\n`.repeat(16) },
  { name: '`<b>` spam (one warning each), T20', printer: 5, conteudo: () => fill('<b>') },
  { name: '`<x` spam (no tag ever closes), T20', printer: 5, conteudo: () => fill('<x') },
  { name: 'ESC spam (one control-removed each), T20', printer: 5, conteudo: () => fill('\x1b') },
  { name: '2 MiB plain text, T20', printer: 5, conteudo: () => fill('Cupom fiscal linha de texto 0123456789\n') },
  { name: 'one letter and 2 MiB of alternating combining marks (issue 20), T20', printer: 5, conteudo: () => `a${fill('\u0301\u0327', BODY - 8)}` },
  { name: '`<` spam (a lone `<` after another), T20', printer: 5, conteudo: () => fill('<') },
  { name: '`ŝ` spam (a letter CP850 lacks, transliterated each time), T20', printer: 5, conteudo: () => fill('ŝ') },
  { name: '768 KiB `<b>` spam then GetById of it, T20', printer: 5, conteudo: () => fill('<b>', 768 * 1024), getById: true },
];

// The same build's library, to time each compile alone, in this process, with its default limits.
const { compile } = await import(new URL('./index.js', pathToFileURL(CLI)).href);
function compileAloneMs(conteudo, printer) {
  const timeOne = () => {
    const t = performance.now();
    compile(conteudo, { printer });
    return performance.now() - t;
  };
  const first = timeOne();
  return first > 1000 ? first : timeOne(); // a warm second run, unless the first took seconds
}

function pct(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Polls /health one request at a time until `done` resolves; returns each latency in ms. */
async function pollHealth(base, done) {
  const latencies = [];
  let finished = false;
  done.then(() => (finished = true), () => (finished = true));
  while (!finished) {
    const t = performance.now();
    const ok = await fetch(`${base}/health`).then((r) => r.arrayBuffer(), () => false);
    if (ok === false) break; // the server is gone: the request's own row says how
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, HEALTH_GAP_MS));
  }
  return latencies.sort((a, b) => a - b);
}

/** Peak resident memory of the server process so far (Linux), in MB. */
function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

async function timed(run) {
  const t = performance.now();
  try {
    const res = await run();
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, bytes: body.length, ms: performance.now() - t, body };
  } catch (error) {
    return { status: 'failed', bytes: 0, ms: performance.now() - t, error: String(error.cause?.message ?? error.message) };
  }
}

/** Starts `bobina serve` and logs in; `stderr()` is what the server wrote so far (a crash, say). */
async function startServer() {
  const port = await freePort();
  const proc = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  await new Promise((ok, fail) => {
    proc.stderr.on('data', (d) => {
      err += d;
      if (err.includes('listening on')) ok();
    });
    proc.on('exit', (code) => fail(new Error(`serve exited ${code}: ${err}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/auth/reconciliation/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-pw', grant_type: 'password' }),
  });
  const { access_token: key } = await login.json();
  // Warm-up: the first compiles load the compiler (and start its workers, if any).
  for (const printer of [3, 5]) {
    await fetch(`${base}/IntencaoImpressao/Insert?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ conteudo: '<qrcode>warm</qrcode>', impressoraId: printer }) });
  }
  return { proc, base, key, stderr: () => err };
}

async function stopServer(server) {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  server.proc.kill('SIGTERM');
  await new Promise((r) => server.proc.on('exit', r));
}

/** What a failed request left behind: the server's fate and the last line it wrote. */
async function failure(server, r) {
  await new Promise((ok) => setTimeout(ok, 500));
  const { exitCode, signalCode } = server.proc;
  const last = server.stderr().trim().split('\n').filter((l) => !l.startsWith('    at ')).pop() ?? '';
  const fate = exitCode !== null || signalCode !== null ? `server died (${signalCode ?? `exit ${exitCode}`}): ${last.slice(0, 120)}` : 'connection closed';
  return `failed: ${r.error}; ${fate}`;
}

const statusOf = (r) => (r.status === 200 ? '200' : r.status === 'failed' ? r.error : `${r.status} ${JSON.parse(r.body).code}`);

cli('users', 'add', '--email', 'bench@example.com', '--password', 'bench-pw', '--name', 'Bench');
const loadBefore = loadavg()[0];
const rows = [];
let idle;
let server = await startServer();
try {
  idle = await pollHealth(server.base, new Promise((r) => setTimeout(r, 1000)));
  for (const c of CASES.filter((c) => !flags.only || c.name.includes(flags.only))) {
    const { base, key } = server;
    const conteudo = c.conteudo();
    const body = JSON.stringify({ referencia: 'evloop', conteudo, impressoraId: c.printer });
    const insert = timed(() => fetch(`${base}/IntencaoImpressao/Insert?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    const health = await pollHealth(base, insert);
    const r = await insert;
    if (r.status === 'failed') r.error = await failure(server, r);
    rows.push({ name: `Insert: ${c.name}`, case: c, ...r, sent: Buffer.byteLength(body), health, rss: peakRssMb(server.proc.pid), status: statusOf(r), diags: r.status === 200 ? JSON.parse(r.body).intencaoImpressao.diagnostics.length : '' });
    console.error(`${c.name}: ${statusOf(r)} in ${r.ms.toFixed(0)} ms, ${r.bytes} bytes; /health max ${pct(health, 100).toFixed(1)} ms`);
    if (r.status === 'failed') {
      await stopServer(server);
      server = await startServer();
      continue;
    }
    if (c.getById && r.status === 200) {
      const id = JSON.parse(r.body).intencaoImpressao.id;
      const get = timed(() => fetch(`${base}/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${id}`));
      const gh = await pollHealth(base, get);
      const g = await get;
      rows.push({ name: `GetById of the job above`, ...g, sent: 0, health: gh, rss: peakRssMb(server.proc.pid), status: statusOf(g), diags: g.status === 200 ? JSON.parse(g.body).intencaoImpressao.diagnostics.length : '' });
      console.error(`  GetById: ${statusOf(g)} in ${g.ms.toFixed(0)} ms, ${g.bytes} bytes; /health max ${pct(gh, 100).toFixed(1)} ms`);
    }
  }
} finally {
  await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}
// Only now, with the server gone: a compile of tens of seconds here would leave the client's
// keep-alive sockets to time out mid-run.
for (const row of rows) if (row.case) row.alone = compileAloneMs(row.case.conteudo(), row.case.printer);

const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');
const kb = (n) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`);
const table = [
  '| request | body | status | answer | diagnostics | compile alone ms | request ms | /health n | /health p50 ms | /health p99 ms | /health max ms | server peak RSS MB |',
  '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.name} | ${r.sent ? kb(r.sent) : '–'} | ${r.status} | ${kb(r.bytes)} | ${r.diags} | ${r.alone === undefined ? '–' : ms(r.alone)} | ${ms(r.ms)} | ${r.health.length} | ${ms(pct(r.health, 50))} | ${ms(pct(r.health, 99))} | ${ms(pct(r.health, 100))} | ${r.rss} |`),
].join('\n');
const md = `# Event loop under worst-case requests

Measured by \`npm run bench:event-loop\` (bench/event-loop.mjs) on ${new Date().toISOString().slice(0, 10)}:
${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, build \`${CLI}\`; 1-minute load average
${loadBefore.toFixed(1)} when the run began and ${loadavg()[0].toFixed(1)} when it ended (other work on the machine competes for its cores).

One real \`bobina serve\` process (SQLite, LOG_LEVEL=warn). For each row, one worst-case Insert is
sent, and while it runs a second client asks \`GET /health\` again and again (one at a time, ${HEALTH_GAP_MS} ms
apart). The /health latency is how long any other request would wait. With nothing else running,
/health answers in p50 ${ms(pct(idle, 50))} ms, p99 ${ms(pct(idle, 99))} ms, max ${ms(pct(idle, 100))} ms (${idle.length} requests over 1 s).
"Compile alone" is the same content compiled by the same build's \`compile()\` in the benchmark's own
process (second of two runs, or the first if it took over a second), with the build's default limits: what the event loop would be blocked
for if the service compiled on its main thread.

${table}

The client runs on the same 2-core machine as the server. Timings on a shared VM move between runs;
the point is the order of magnitude: whether /health waits for the whole compile or not. A request
that fails is listed with the server's last words, and the server is started again for the next row.
`;
writeFileSync(OUT, md);
console.log(md);
