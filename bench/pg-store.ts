// `npm run bench:pg-store`: a rough look at the PostgreSQL store against SQLite, not a test:
// opening (and migrating) a fresh store, inserting jobs one by one, and claiming them all with 4
// concurrent claimers (on PostgreSQL over two pools, as two instances would). Needs the local
// PostgreSQL (127.0.0.1:5432, user postgres, database test); uses and drops its own schema.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { openPostgresStore } from '../src/server/store/postgres.js';
import type { Store } from '../src/server/store/repositories.js';
import { openSqliteStore } from '../src/server/store/sqlite.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 2000);
const BASE = process.env.BOBINA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function run(name: string, open: () => Promise<[Store, Store]>) {
  let t = performance.now();
  const [a, b] = await open();
  const openMs = performance.now() - t;
  const accountId = (await a.accounts.create({ email: 'bench@example.com', name: 'B', passwordHash: 'h', metadata: [], roles: [] })).id;
  t = performance.now();
  for (let n = 0; n < JOBS; n++) {
    await a.intentions.insert({
      accountId, referencia: null, conteudo: 'x', terminalId: 'T', impressoraId: 1, codigoImpressora: 'MAKER1MP4200',
      aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada', bytes: new Uint8Array(64), diagnostics: [], createdAt: new Date(),
    });
  }
  const insertMs = performance.now() - t;
  const route = { accountId, terminalId: 'T', templateJobs: false, printerId: null };
  const claimer = async (s: Store) => {
    let n = 0;
    while (await s.intentions.claim(route, ['queued'], { estado: 'acquired', status: 'ImpressaoEnviada', leasedTo: 'T', leaseToken: randomUUID() })) n++;
    return n;
  };
  t = performance.now();
  const counts = await Promise.all([claimer(a), claimer(b), claimer(a), claimer(b)]);
  const claimMs = performance.now() - t;
  await Promise.all(a === b ? [a.close()] : [a.close(), b.close()]);
  const total = counts.reduce((x, y) => x + y, 0);
  console.log(`${name.padEnd(10)} open ${openMs.toFixed(0).padStart(5)} ms | ${JOBS} inserts ${(JOBS / (insertMs / 1000)).toFixed(0).padStart(6)}/s | claims ${(total / (claimMs / 1000)).toFixed(0).padStart(6)}/s (${counts.join('+')} = ${total})`);
}

const dir = mkdtempSync(join(tmpdir(), 'bobina-bench-'));
try {
  await run('SQLite', async () => {
    const s = openSqliteStore(join(dir, 'db.sqlite'));
    return [s, s];
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const schema = `bobina_b_${randomBytes(6).toString('hex')}`;
try {
  await run('PostgreSQL', async () => Promise.all([openPostgresStore(`${BASE}?schema=${schema}`), openPostgresStore(`${BASE}?schema=${schema}`)]));
} finally {
  const c = new pg.Client({ connectionString: BASE });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await c.end();
}
