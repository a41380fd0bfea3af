// WAL soak (not a test): `bobina serve` on a fresh SQLite file under full insert load for
// BENCH_SOAK_SECONDS (default 300), the size of the write-ahead log sampled every 250 ms, then how
// long the idle service takes to cut it back to zero. Writes bench/SOAK-RESULTS.md, or
// bench/out/SOAK-RESULTS.<label>.md when BOBINA_CLI points at another build's cli.js (an A/B).
// Run `npm run build` first.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './lib/processes.mjs';

const CLI = process.env.BOBINA_CLI ? resolve(process.env.BOBINA_CLI) : new URL('../dist/cli.js', import.meta.url).pathname;
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 300);
const CONNECTIONS = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 32);
/** The checkpointer's default limit (src/server/store/sqlite/checkpointer.ts) and the bound it promises. */
const LIMIT = 64 * 1024 * 1024;
const BOUND = 2 * LIMIT + 8 * 1024 * 1024;
const IDLE_WAIT_MS = 30_000;
const MB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'bobina-soak-'));
const db = join(dir, 'soak.sqlite');
const env = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' };
const size = (file) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

function cli(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--db', db], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.stderr}`);
}

cli('users', 'add', '--email', 'soak@example.com', '--password', 'soak-pw', '--name', 'Soak');
cli('terminals', 'add', '--email', 'soak@example.com', '--terminal', 'PDV', '--printer', 'MAKER1MP4200');
const port = await freePort();
const server = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db], { env, stdio: ['ignore', 'ignore', 'pipe'] });
const killServer = () => server.exitCode === null && server.kill('SIGKILL');
process.on('exit', killServer);
await new Promise((ok, fail) => {
  let err = '';
  server.stderr.on('data', (d) => {
    err += d;
    if (err.includes('listening on')) ok();
  });
  server.on('exit', (code) => fail(new Error(`serve exited with ${code}: ${err}`)));
});

const base = `http://127.0.0.1:${port}`;
const { access_token } = await (await fetch(`${base}/auth/reconciliation/token`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'soak@example.com', password: 'soak-pw', grant_type: 'password' }),
})).json();
const conteudo = readFileSync(new URL('../fixtures/nfce.txt', import.meta.url), 'utf8');

const samples = [];
const t0 = Date.now();
const sampler = setInterval(() => samples.push({ t: Date.now() - t0, wal: size(`${db}-wal`), db: size(db) }), 250);
const load = await new Promise((ok, fail) => autocannon({
  url: `${base}/IntencaoImpressao/Insert?key=${access_token}`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ referencia: 'soak', conteudo, terminalId: 'PDV' }),
  connections: CONNECTIONS,
  duration: SECONDS,
}, (e, r) => (e ? fail(e) : ok(r))));
clearInterval(sampler);

// Idle: how long until the WAL is cut to zero (or still there after IDLE_WAIT_MS).
const idleFrom = Date.now();
let idleMs;
while (Date.now() - idleFrom < IDLE_WAIT_MS) {
  if (size(`${db}-wal`) === 0) {
    idleMs = Date.now() - idleFrom;
    break;
  }
  await new Promise((r) => setTimeout(r, 100));
}
const walAfterIdle = size(`${db}-wal`);
const health = await fetch(`${base}/health`).then((r) => r.status, () => 'no answer');
killServer();
await new Promise((r) => (server.exitCode === null ? server.on('exit', r) : r()));
const finalDb = size(db);
rmSync(dir, { recursive: true, force: true });

const wal = samples.map((s) => s.wal).sort((a, b) => a - b);
const pct = (p) => wal[Math.min(wal.length - 1, Math.floor((p / 100) * wal.length))] ?? 0;
const max = wal.at(-1) ?? 0;
const perMinute = [];
for (let m = 0; m * 60_000 < SECONDS * 1000; m++) {
  const inMinute = samples.filter((s) => s.t >= m * 60_000 && s.t < (m + 1) * 60_000);
  if (inMinute.length) perMinute.push(`| ${m + 1} | ${(Math.max(...inMinute.map((s) => s.wal)) / MB).toFixed(1)} | ${(inMinute.at(-1).db / MB).toFixed(0)} |`);
}
const ok = max <= BOUND && walAfterIdle === 0;
const label = process.env.BOBINA_CLI ? `\`${process.env.BOBINA_CLI}\` (BOBINA_CLI), not dist/` : 'dist/ of this tree';

const md = `# WAL soak

Measured by \`${process.env.BOBINA_CLI ? 'BOBINA_CLI=… ' : ''}${SECONDS === 300 ? '' : `BENCH_SOAK_SECONDS=${SECONDS} `}npm run bench:soak\` (bench/soak.mjs) on
${new Date().toISOString().slice(0, 10)}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Build: ${label}.
\`bobina serve\` on a fresh SQLite file (WAL, synchronous=NORMAL); autocannon with ${CONNECTIONS} connections
inserting fixtures/nfce.txt for the MP4200 as fast as the service answers, for ${SECONDS} s; the WAL
file's size sampled every 250 ms (${samples.length} samples). Client and server share the machine.

**Result: ${ok ? 'PASS' : 'FAIL'}** — largest WAL ${(max / MB).toFixed(1)} MiB against the stated bound of
${(BOUND / MB).toFixed(0)} MiB (twice the 64 MiB truncation limit, plus the statements between two
looks at the file), and ${walAfterIdle === 0 ? `cut to 0 bytes ${idleMs} ms after the load stopped` : `still ${(walAfterIdle / MB).toFixed(1)} MiB ${IDLE_WAIT_MS / 1000} s after the load stopped`}.

| measure | value |
|---|---:|
| inserts answered 2xx | ${load['2xx']} |
| non-2xx, errors, timeouts | ${load.non2xx} / ${load.errors} / ${load.timeouts} |
| inserts/s (mean) | ${Math.round(load.requests.average)} |
| latency p50 / p99 / max, ms | ${load.latency.p50} / ${load.latency.p99} / ${load.latency.max} |
| WAL p50 / p99 / max, MiB | ${(pct(50) / MB).toFixed(1)} / ${(pct(99) / MB).toFixed(1)} / ${(max / MB).toFixed(1)} |
| WAL after idle | ${walAfterIdle === 0 ? `0 bytes after ${idleMs} ms` : `${(walAfterIdle / MB).toFixed(1)} MiB after ${IDLE_WAIT_MS} ms`} |
| database file at the end, MiB | ${(finalDb / MB).toFixed(0)} |
| /health after the run | ${health} |

Largest WAL per minute:

| minute | WAL max, MiB | database, MiB |
|---:|---:|---:|
${perMinute.join('\n')}
`;
const out = process.env.BOBINA_CLI
  ? new URL(`./out/SOAK-RESULTS.${process.env.BENCH_SOAK_LABEL ?? 'ab'}.md`, import.meta.url)
  : new URL('./SOAK-RESULTS.md', import.meta.url);
if (process.env.BOBINA_CLI) mkdirSync(new URL('./out/', import.meta.url), { recursive: true });
writeFileSync(out, md);
console.log(md);
process.exitCode = ok ? 0 : 1;
