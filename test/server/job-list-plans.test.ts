// A job list's referencia filter reads the jobs with that reference by index, however long a prefix
// the account's references share (on the store this run tests). It was indexed by the first 64
// characters: the API probe's 400,000 references of 64 "x" and a number made each lookup of one
// that matched none read all 400,000 (0.2 s on SQLite, whose one connection the other accounts
// waited on: their GetById went from 2 ms to 1.3–2.5 s).
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POSTGRES } from '../../src/server/store/postgres/dialect.js';
import { parsePostgresUrl, quoteIdent } from '../../src/server/store/postgres/url.js';
import type { Store } from '../../src/server/store/repositories.js';
import type { Exec } from '../../src/server/store/sql/exec.js';
import { intentions } from '../../src/server/store/sql/intentions.js';
import { render, type Rendered, type Sql } from '../../src/server/store/sql/statement.js';
import { SQLITE } from '../../src/server/store/sqlite/dialect.js';
import type { NewIntention } from '../../src/server/store/types.js';
import { freshDatabase, STORE_KIND, type TestDatabase } from '../support/store-target.js';

let database: TestDatabase;
let store: Store;
let alice: string;

const PREFIX = 'x'.repeat(64);
const draft = (accountId: string, referencia: string, at: number): NewIntention => ({
  accountId, referencia, conteudo: 'x', terminalId: null, impressoraId: 1, codigoImpressora: 'MAKER1MP4200',
  aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada', bytes: new Uint8Array([0x1b, 0x40]), diagnostics: [], createdAt: new Date(at),
});

/** The statement the repository runs for a page of this referencia, as this store's dialect writes it (not run). */
async function pageStatement(referencia: string): Promise<Rendered> {
  const dialect = STORE_KIND === 'postgres' ? POSTGRES : SQLITE;
  let seen: Rendered | undefined;
  const x = {
    dialect, inTransaction: false,
    async all(statement: Sql) {
      seen = render(statement, dialect);
      return [];
    },
  } as unknown as Exec;
  await intentions(x).page({ accountId: alice, referencia }, 50);
  return seen!;
}

/** The plan of a statement on this run's database: on PostgreSQL with sequential scans off, so any index that matches the statement is used. */
async function planOf(s: Rendered): Promise<string> {
  if (STORE_KIND === 'sqlite') {
    const db = new Database(database.location, { readonly: true });
    try {
      return (db.prepare(`EXPLAIN QUERY PLAN ${s.text}`).all(...s.values) as { detail: string }[]).map((r) => r.detail).join(' | ');
    } finally {
      db.close();
    }
  }
  const target = parsePostgresUrl(database.location);
  const client = new pg.Client({ connectionString: target.connectionString });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${quoteIdent(target.schema!)}`);
    await client.query('SET enable_seqscan = off');
    return (await client.query(`EXPLAIN ${s.text}`, s.values)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join(' | ');
  } finally {
    await client.end();
  }
}

describe(`a job list's referencia filter on the ${STORE_KIND} store`, () => {
  beforeEach(async () => {
    database = await freshDatabase('bobina-list-plans-');
    store = await database.open();
    alice = (await store.accounts.create({ email: 'alice@example.com', name: 'A', passwordHash: 'h', metadata: [], roles: [] })).id;
  }, 30_000);
  afterEach(async () => {
    await store.close();
    await database.drop();
  }, 30_000);

  it('finds a reference by its whole value, on the index of whole references, whatever prefix the others share', async () => {
    for (let i = 0; i < 20; i++) await store.intentions.insert(draft(alice, `${PREFIX}${i}`, 1_000 + i));
    expect((await store.intentions.page({ accountId: alice, referencia: `${PREFIX}7` }, 50)).map((j) => j.referencia)).toEqual([`${PREFIX}7`]);
    expect(await store.intentions.page({ accountId: alice, referencia: `${PREFIX}nope` }, 50)).toEqual([]);
    expect(await store.intentions.page({ accountId: alice, referencia: PREFIX }, 50)).toEqual([]);
    const plan = await planOf(await pageStatement(`${PREFIX}nope`));
    expect(plan).toContain('intentions_list_referencia_whole');
    // The whole reference is in the index's search, not only the account.
    expect(plan).toMatch(STORE_KIND === 'sqlite' ? /intentions_list_referencia_whole \(user_id=\? AND referencia=\?\)/ : /Index Cond: \(\(user_id = .*\) AND \(sha256\(referencia\) = /);
  }, 30_000);
});
