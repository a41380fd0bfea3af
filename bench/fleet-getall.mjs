// GET /IntencaoImpressao/GetAll at one million jobs (issue 23 §2; not a test): for SQLite and for
// PostgreSQL, a fresh store (bench/lib/stores.mjs) is migrated and set up by the CLI, filled with
// BENCH_JOBS jobs (default 1,000,000) by one bulk INSERT … SELECT (not through Insert: the point is
// the list, not a day of Inserts), then a real `bobina serve` on it is asked, one request at a
// time, BENCH_REQUESTS times (default 200) per filter, with parameters drawn at random per request
// (each time from just before the request to the whole answer read), and the store's own query
// is timed as often in process (run by tsx: it imports src/server/store). Writes its section of
// bench/FLEET.md. Run `npm run build` first.
//
//   npm run bench:getall
//   BENCH_JOBS=100000 BENCH_REQUESTS=100 npm run bench:getall -- --only sqlite
//
// The jobs: 6 in 7 are the measured account's (the rest another account's), one every 2.6 s over
// 30 days, on 500 terminals, each with its own referencia (`pedido-N`); states as a busy fleet has
// them (97 % completed, the rest failed, canceled, expired, stopped, queued, held); 64 bytes each (the
// rows are light: the bytes' length is read, never the bytes). SQLite is not ANALYZEd (the service
// never does); PostgreSQL is, as its autovacuum would after such a load.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { stop } from './lib/processes.mjs';
import { writeSection } from './lib/section.mjs';
import { account, CLI, cli, serve } from './lib/service.mjs';
import { dropStores, freshStore, PG_URL, postgresVersion } from './lib/stores.mjs';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const TERMINALS = 500;
const STEP_MS = 2600;
const T0 = Date.UTC(2026, 9, 1);
const dir = mkdtempSync(join(tmpdir(), 'bobina-bench-getall-'));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const pick = (n) => Math.floor(Math.random() * n);

/** Job i's state, by i % 1000: as a busy fleet has them. */
const STATE_SQL = `CASE WHEN i % 1000 < 2 THEN 'held' WHEN i % 1000 < 5 THEN 'queued' WHEN i % 1000 < 10 THEN 'stopped'
  WHEN i % 1000 < 20 THEN 'failed' WHEN i % 1000 < 25 THEN 'canceled' WHEN i % 1000 < 30 THEN 'expired' ELSE 'completed' END`;
const STATUS_SQL = `CASE WHEN i % 1000 < 10 THEN 'ImpressaoEnviada' WHEN i % 1000 < 20 THEN 'FalhaImpressao' WHEN i % 1000 < 25 THEN 'Cancelado'
  WHEN i % 1000 < 30 THEN 'Expirado' ELSE 'Impresso' END`;
const STATES = ['held', 'queued', 'stopped', 'failed', 'canceled', 'expired', 'completed'];

/** The account's id from the store (the CLI made it). */
async function ids(store) {
  if (store.kind === 'sqlite') {
    const db = new Database(store.flags[1], { readonly: true });
    try {
      return Object.fromEntries(db.prepare('SELECT email, id FROM users').all().map((r) => [r.email, r.id]));
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return Object.fromEntries((await client.query(`SELECT email, id FROM "${store.schema}".users`)).rows.map((r) => [r.email, r.id]));
  } finally {
    await client.end();
  }
}

/** Job i is the other account's when i % 7 = 3. */
async function fill(store, bench, other) {
  const started = performance.now();
  if (store.kind === 'sqlite') {
    const db = new Database(store.flags[1]);
    try {
      db.pragma('journal_mode = WAL');
      db.prepare(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
        INSERT INTO intentions (user_id, referencia, conteudo, terminal_id, impressora_id, codigo_impressora, aguardar, status, bytes, diagnostics,
          created_at, estado, motivos, tentativas, confirmacao, expires_at)
        SELECT CASE WHEN i % 7 = 3 THEN ? ELSE ? END, 'pedido-' || i, 'Cupom ' || i, 'T' || printf('%04d', i % ${TERMINALS}), 5, 'MAKER5T20',
          CASE WHEN i % 1000 < 2 THEN 1 ELSE 0 END, ${STATUS_SQL}, zeroblob(64), '[]', ? + i * ${STEP_MS}, ${STATE_SQL}, '[]', 1, 'sent', NULL
        FROM n`).run(JOBS, other, bench, T0);
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    return { seconds: (performance.now() - started) / 1000, size: `${(statSync(store.flags[1]).size / 2 ** 20).toFixed(0)} MiB` };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${store.schema}"`);
    await client.query(`INSERT INTO intentions (user_id, referencia, conteudo, terminal_id, impressora_id, codigo_impressora, aguardar, status, bytes, diagnostics,
        created_at, estado, motivos, tentativas, confirmacao, expires_at)
      SELECT CASE WHEN i % 7 = 3 THEN $2 ELSE $3 END, convert_to('pedido-' || i, 'UTF8'), convert_to('Cupom ' || i, 'UTF8'),
        'T' || lpad((i % ${TERMINALS})::text, 4, '0'), 5, 'MAKER5T20', i % 1000 < 2, ${STATUS_SQL}, decode(repeat('00', 64), 'hex'), '[]',
        $4::bigint + i::bigint * ${STEP_MS}, ${STATE_SQL}, '[]', 1, 'sent', NULL
      FROM generate_series(0, $1::int - 1) AS g(i)`, [JOBS, other, bench, T0]);
    await client.query('ANALYZE intentions');
    const size = (await client.query("SELECT pg_size_pretty(pg_total_relation_size('intentions')) AS s")).rows[0].s;
    return { seconds: (performance.now() - started) / 1000, size };
  } finally {
    await client.end();
  }
}

const iso = (ms) => new Date(ms).toISOString();
const cursorAt = (i) => Buffer.from(`${T0 + i * STEP_MS}.${i + 1}`).toString('base64url');
const terminal = () => `T${String(pick(TERMINALS)).padStart(4, '0')}`;
/** A job of the measured account (i % 7 ≠ 3). */
const benchJob = () => {
  const i = pick(JOBS);
  return i % 7 === 3 ? i + 1 : i;
};

/** The filters measured: a name, and one request's parameters (drawn anew each time), as GetAll's query takes them. */
const FILTERS = [
  ['first page, no filter', () => ({})],
  ['a page deep in the list (cursor)', () => ({ cursor: cursorAt(benchJob()) })],
  ['limite=500', () => ({ limite: '500' })],
  ['estado (any of 7)', () => ({ estado: STATES[pick(STATES.length)] })],
  ['estado=held (0.2 %)', () => ({ estado: 'held' })],
  ['estado=completed, deep (cursor)', () => ({ estado: 'completed', cursor: cursorAt(benchJob()) })],
  ['terminalId', () => ({ terminalId: terminal() })],
  ['terminalId, deep (cursor)', () => ({ terminalId: terminal(), cursor: cursorAt(benchJob()) })],
  ['referencia', () => ({ referencia: `pedido-${benchJob()}` })],
  ['desde + ate (a 1-hour window)', () => {
    const from = T0 + pick(JOBS) * STEP_MS;
    return { desde: iso(from), ate: iso(from + 3_600_000) };
  }],
  ['desde only', () => ({ desde: iso(T0 + pick(JOBS) * STEP_MS) })],
  ['estado=held + terminalId', () => ({ estado: 'held', terminalId: terminal() })],
  ['estado=failed + desde + ate (1 day)', () => {
    const from = T0 + pick(JOBS) * STEP_MS;
    return { estado: 'failed', desde: iso(from), ate: iso(from + 86_400_000) };
  }],
];

/** The same parameters as the store's JobFilter and page size (what the route hands PartnerJobs.list). */
function storeQuery(accountId, q) {
  const after = q.cursor ? Buffer.from(q.cursor, 'base64url').toString().split('.').map(Number) : undefined;
  return {
    filter: {
      accountId,
      ...(q.estado ? { estado: q.estado } : {}), ...(q.terminalId ? { terminalId: q.terminalId } : {}), ...(q.referencia ? { referencia: q.referencia } : {}),
      ...(q.desde ? { since: new Date(q.desde) } : {}), ...(q.ate ? { until: new Date(q.ate) } : {}),
      ...(after ? { after: { createdAt: new Date(after[0]), id: after[1] } } : {}),
    },
    limit: Number(q.limite ?? 50) + 1,
  };
}

const summary = (times) => {
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), max: times.at(-1) };
};

/** Over HTTP: a real `bobina serve`, one request at a time. */
async function measureHttp(base, apiKey) {
  const results = [];
  // Warm-up: the first requests compile the route's code and load pages into the cache.
  for (let i = 0; i < 20; i++) await (await fetch(`${base}/IntencaoImpressao/GetAll?key=${apiKey}`)).arrayBuffer();
  for (const [name, params] of FILTERS) {
    const times = [];
    let rows = 0;
    for (let n = 0; n < REQUESTS; n++) {
      const q = new URLSearchParams(params()).toString();
      const t = performance.now();
      const res = await fetch(`${base}/IntencaoImpressao/GetAll?key=${apiKey}${q ? `&${q}` : ''}`);
      const body = await res.json();
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`GetAll ?${q}: ${res.status} ${JSON.stringify(body)}`);
      rows += body.intencoes.length;
    }
    results.push({ name, http: summary(times), rows: rows / REQUESTS });
  }
  return results;
}

/** In process: the store's own query (IntentionRepository.page), without HTTP. */
async function measureStore(store, accountId, results) {
  const opened = store.kind === 'sqlite'
    ? (await import('../src/server/store/sqlite.ts')).openSqliteStore(store.flags[1])
    : await (await import('../src/server/store/postgres.ts')).openPostgresStore(store.flags[1]);
  try {
    for (let i = 0; i < 20; i++) await opened.intentions.page({ accountId }, 51);
    for (const r of results) {
      const [, params] = FILTERS.find(([name]) => name === r.name);
      const times = [];
      for (let n = 0; n < REQUESTS; n++) {
        const { filter, limit } = storeQuery(accountId, params());
        const t = performance.now();
        await opened.intentions.page(filter, limit);
        times.push(performance.now() - t);
      }
      r.store = summary(times);
    }
  } finally {
    await opened.close();
  }
}

async function runStore(kind) {
  const store = freshStore(kind, dir);
  const { apiKey } = account(CLI, store, [['T0000', []]]);
  cli(CLI, store, 'users', 'add', '--email', 'other@example.com', '--password', 'other-pw', '--name', 'Other');
  const users = await ids(store);
  const filled = await fill(store, users['bench@example.com'], users['other@example.com']);
  console.error(`${kind}: ${JOBS} jobs in ${filled.seconds.toFixed(0)} s (${filled.size}); measuring`);
  const load = loadavg()[0];
  const served = await serve(CLI, store);
  let results;
  try {
    results = await measureHttp(served.base, apiKey);
  } finally {
    await stop(served.proc);
  }
  await measureStore(store, users['bench@example.com'], results);
  return { kind, filled, results, load: [load, loadavg()[0]] };
}

const ms = (v) => v.toFixed(1);

try {
  const kinds = only ? [only] : ['sqlite', 'postgres'];
  let pgVersion = '';
  if (kinds.includes('postgres')) pgVersion = await postgresVersion();
  const runs = [];
  for (const kind of kinds) {
    const r = await runStore(kind);
    runs.push(r);
    for (const x of r.results) console.error(`${kind}: ${x.name}: HTTP p99 ${ms(x.http.p99)} ms, store p99 ${ms(x.store.p99)} ms`);
  }
  const lines = [
    '## GetAll at one million jobs',
    '',
    `\`npm run build && npm run bench:getall\` (bench/fleet-getall.mjs), ${new Date().toISOString().slice(0, 10)}: ${JOBS.toLocaleString('en')} jobs in the database,`,
    `${REQUESTS} requests per filter, one at a time, to a real \`bobina serve\` on 127.0.0.1 (HTTP: from just before`,
    'the request to the whole answer read: authentication, the query, serialising 50 light rows), then as many calls of the',
    'store\'s own query in process (store: `IntentionRepository.page`, the statement GetAll runs). Parameters are drawn at',
    'random per request (a terminal of 500, a job\'s referencia, a cursor at a random job, a window at a random time).',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}${pgVersion ? `, PostgreSQL ${pgVersion}` : ''}; shared with other`,
    'work, so the load average is given per store (1-minute, before and after its measurement).',
    '',
  ];
  for (const r of runs) {
    lines.push(`### ${r.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, '');
    lines.push(`Filled in ${r.filled.seconds.toFixed(0)} s (one INSERT … SELECT, the migrations' indexes in place); ${r.kind === 'sqlite' ? 'database file' : 'intentions with its indexes'}: ${r.filled.size}. Load average ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}.`, '');
    lines.push('| filter | HTTP p50 ms | HTTP p99 ms | HTTP max ms | store p50 ms | store p99 ms | rows per answer |', '|---|---:|---:|---:|---:|---:|---:|');
    for (const x of r.results) lines.push(`| ${x.name} | ${ms(x.http.p50)} | ${ms(x.http.p99)} | ${ms(x.http.max)} | ${ms(x.store.p50)} | ${ms(x.store.p99)} | ${x.rows.toFixed(1)} |`);
    lines.push('');
  }
  const out = lines.join('\n');
  process.stdout.write(`${out}\n`);
  if (!process.env.BENCH_NO_WRITE) writeSection(new URL('./FLEET.md', import.meta.url), 'getall', out);
} finally {
  await dropStores().catch((err) => console.error(`could not drop the bench schemas: ${err.message}`));
  rmSync(dir, { recursive: true, force: true });
}
