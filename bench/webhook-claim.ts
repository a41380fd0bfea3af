// One webhook claim behind a backlog (issue 20's "no tenant able to slow the others"): account A has
// N due messages to 8 receivers and its 16 in flight (its limit), account B one message. A sender
// claims at every event and after every delivery, and on SQLite a claim runs on the event loop, so
// its cost is every request's. Prints the median of 5 claims per backlog and store, and what they took;
// then the same behind BENCH_PAIRS (default 20,000) pairs of (account, receiver) with a retry pending.
//   usage: npm run bench:webhook-claim [-- N...]   (default 10000 50000 200000; PostgreSQL if BOBINA_TEST_PG_URL
//   or postgres://postgres@127.0.0.1:5432/test answers; its table analyzed first, as autovacuum does soon after a
//   backlog grows: BENCH_NO_ANALYZE=1 measures before that)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgresStore } from '../src/server/store/postgres.js';
import type { Store } from '../src/server/store/repositories.js';
import { openSqliteStore } from '../src/server/store/sqlite.js';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const PG_URL = process.env.BOBINA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function measure(store: Store, n: number, analyze?: () => Promise<unknown>): Promise<{ ms: number; took: string }> {
  const account = async (name: string) => (await store.accounts.create({ email: `${name}@example.com`, name, passwordHash: 'h', metadata: [], roles: [] })).id;
  const [a, b] = [await account('a'), await account('b')];
  const t0 = Date.now() - 3_600_000;
  const message = (owner: string, i: number, host: string) => ({
    id: `m_${owner}_${i}`, accountId: owner, endpointId: null, url: `https://${host}/h`, target: `origin:https://${host}`, eventType: 'intencao.completed',
    intencaoImpressaoId: i + 1, body: '{}', createdAt: new Date(t0 + i),
  });
  for (let i = 0; i < n; i += 1000) await store.webhooks.enqueue(Array.from({ length: Math.min(1000, n - i) }, (_, k) => message(a, i + k, `a${(i + k) % 8}.example`)));
  const lease = () => new Date(Date.now() + 600_000);
  await store.webhooks.claimDue(new Date(), lease(), 64, 4, 16);
  await store.webhooks.enqueue([message(b, 0, 'b.example')]);
  await analyze?.();
  const times: number[] = [];
  const took: string[] = [];
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    const claimed = await store.webhooks.claimDue(new Date(), lease(), 64, 4, 16);
    times.push(performance.now() - start);
    took.push(...claimed.map((m) => m.accountId === b ? 'B' : 'A'));
  }
  times.sort((x, y) => x - y);
  return { ms: times[2]!, took: took.join('') || '-' };
}

/**
 * The second look's worst case: 1,100 due messages to one receiver at its limit (they fill the first
 * look), and `pairs` (account, receiver) pairs with one retry each, not yet due, that the skip scan
 * passes; one message of B to a receiver of its own, found by a later claim when the second look's
 * random start leaves it out.
 */
async function measurePairs(store: Store, pairs: number, analyze?: () => Promise<unknown>): Promise<{ ms: number; took: string }> {
  // (Median of the claims made until B's message was taken, and how many that was.)
  const accounts: string[] = [];
  for (let n = 0; n < Math.ceil(pairs / 10); n++) accounts.push((await store.accounts.create({ email: `p${n}@example.com`, name: 'p', passwordHash: 'h', metadata: [], roles: [] })).id);
  const b = (await store.accounts.create({ email: 'b@example.com', name: 'b', passwordHash: 'h', metadata: [], roles: [] })).id;
  const t0 = Date.now() - 3_600_000;
  const message = (owner: string, id: string, host: string, at: number) => ({
    id, accountId: owner, endpointId: null, url: `https://${host}/`, target: `origin:https://${host}`, eventType: 'intencao.completed', intencaoImpressaoId: 1, body: '{}', createdAt: new Date(at),
  });
  const rows = [
    ...Array.from({ length: 1_100 }, (_, n) => message(accounts[n % accounts.length]!, `s${n}`, 'shared.example', t0 + n)),
    ...Array.from({ length: pairs }, (_, n) => message(accounts[n % accounts.length]!, `l${n}`, `t${Math.floor(n / accounts.length)}.example`, Date.now() + 3_600_000 + n)),
    message(b, 'b0', 'b.example', t0 + 2_000),
  ];
  for (let i = 0; i < rows.length; i += 1000) await store.webhooks.enqueue(rows.slice(i, i + 1000));
  const lease = () => new Date(Date.now() + 600_000);
  await store.webhooks.claimDue(new Date(), lease(), 64, 4, 16);
  await analyze?.();
  const times: number[] = [];
  let claims = 0;
  for (let found = false; !found && claims < 1_000; claims++) {
    const start = performance.now();
    found = (await store.webhooks.claimDue(new Date(), lease(), 64, 4, 16)).some((m) => m.accountId === b);
    times.push(performance.now() - start);
  }
  times.sort((x, y) => x - y);
  return { ms: times[Math.floor(times.length / 2)]!, took: String(claims) };
}

type Measure = (store: Store, analyze?: () => Promise<unknown>) => Promise<{ ms: number; took: string }>;

/** `measure` on a new SQLite file, then (when it answers) on a new PostgreSQL schema: a table row each, named `what`. */
async function onEachStore(what: string, id: string, measure: Measure): Promise<string[]> {
  const rows: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bobina-claim-'));
  const sqlite = await openSqliteStore(join(dir, 'b.sqlite'));
  try {
    const r = await measure(sqlite);
    rows.push(`| SQLite | ${what} | ${r.ms.toFixed(1)} | ${r.took} |`);
  } finally {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const admin = new pg.Client(PG_URL);
  if (!(await admin.connect().then(() => true, () => false))) return rows;
  const schema = `bench_claim_${process.pid}_${id}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const store = await openPostgresStore(`${PG_URL}?schema=${schema}`);
  try {
    // As autovacuum does within a minute of the backlog growing (BENCH_NO_ANALYZE=1: before it does).
    const r = await measure(store, process.env.BENCH_NO_ANALYZE ? undefined : () => admin.query(`ANALYZE ${schema}.webhook_messages`));
    rows.push(`| PostgreSQL | ${what} | ${r.ms.toFixed(1)} | ${r.took} |`);
  } finally {
    await store.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
  return rows;
}

const rows: string[] = ['| store | due messages of A | claim, median of 5 (ms) | taken |', '|---|---:|---:|---|'];
for (const n of sizes.length ? sizes : [10_000, 50_000, 200_000]) rows.push(...await onEachStore(n.toLocaleString('en'), String(n), (store, analyze) => measure(store, n, analyze)));
const PAIRS = Number(process.env.BENCH_PAIRS ?? 20_000);
rows.push('', `| store | (account, receiver) pairs with a retry pending, behind 1,100 due to one receiver at its limit | claim, median (ms) | claims until B's was taken |`, '|---|---:|---:|---|');
rows.push(...await onEachStore(PAIRS.toLocaleString('en'), 'pairs', (store, analyze) => measurePairs(store, PAIRS, analyze)));
console.log(rows.join('\n'));
