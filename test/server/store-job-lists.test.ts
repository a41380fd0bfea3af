// The store contract for job lists and reprints (issue 23 §2, §4), on the store this run tests
// (both projects): a page is newest first on (createdAt, id), each filter narrows it, the account
// bounds it, and a walk through the pages by `after` sees every job that existed when it began
// exactly once, whatever is inserted between its pages (jobs made in the same millisecond, and jobs
// whose createdAt is older than the page already read, as a slow Insert's is, included).
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/server/store/repositories.js';
import type { IntentionSummary, JobFilter, NewIntention } from '../../src/server/store/types.js';
import { freshDatabase, STORE_KIND, type TestDatabase } from '../support/store-target.js';

let database: TestDatabase;
let store: Store;
let alice: string;
let bob: string;

const draft = (accountId: string, o: Partial<NewIntention> & { at: number }): NewIntention => ({
  accountId, referencia: null, conteudo: 'x', terminalId: null, impressoraId: 1, codigoImpressora: 'MAKER1MP4200',
  aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada', bytes: new Uint8Array([0x1b, 0x40, 0x41]), diagnostics: [],
  ...o, createdAt: new Date(o.at),
});

/** Every page of a filter, `limit` at a time, as a caller of GetAll walks them; `between` runs after each page. */
async function walk(filter: Omit<JobFilter, 'after'>, limit: number, between: () => Promise<void> = async () => {}): Promise<IntentionSummary[]> {
  const seen: IntentionSummary[] = [];
  let after: JobFilter['after'];
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.intentions.page({ ...filter, ...(after ? { after } : {}) }, limit);
    seen.push(...page);
    if (page.length < limit) return seen;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
    await between();
  }
  throw new Error('walk: too many pages');
}

const newestFirst = (a: IntentionSummary, b: IntentionSummary) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;

describe(`job lists on the ${STORE_KIND} store`, () => {
  beforeEach(async () => {
    database = await freshDatabase('bobina-lists-');
    store = await database.open();
    alice = (await store.accounts.create({ email: 'alice@example.com', name: 'A', passwordHash: 'h', metadata: [], roles: [] })).id;
    bob = (await store.accounts.create({ email: 'bob@example.com', name: 'B', passwordHash: 'h', metadata: [], roles: [] })).id;
  }, 30_000);
  afterEach(async () => {
    await store.close();
    await database.drop();
  }, 30_000);

  it('lists newest first by (createdAt, id), filtered by state, terminal, referencia and time, within one account', async () => {
    const a = await store.intentions.insert(draft(alice, { at: 1000, terminalId: 'T1', referencia: 'pedido-1', estado: 'held' }));
    const b = await store.intentions.insert(draft(alice, { at: 3000, terminalId: 'T2', referencia: 'pedido-2' }));
    const c = await store.intentions.insert(draft(alice, { at: 2000, terminalId: 'T1', referencia: 'pedido-1' }));
    const d = await store.intentions.insert(draft(alice, { at: 2000, terminalId: 'T1', referencia: `${'r'.repeat(64)}-longer` }));
    const e = await store.intentions.insert(draft(alice, { at: 2000, terminalId: 'T1', referencia: `${'r'.repeat(64)}-other` }));
    await store.intentions.insert(draft(bob, { at: 5000, terminalId: 'T1', referencia: 'pedido-1' }));
    const ids = async (f: Partial<JobFilter>) => (await store.intentions.page({ accountId: alice, ...f }, 100)).map((j) => j.id);
    expect(await ids({})).toEqual([b.id, e.id, d.id, c.id, a.id]);
    expect(await ids({ estado: 'held' })).toEqual([a.id]);
    expect(await ids({ terminalId: 'T1' })).toEqual([e.id, d.id, c.id, a.id]);
    expect(await ids({ referencia: 'pedido-1' })).toEqual([c.id, a.id]);
    // Two references sharing their first 64 characters (the index's key) are still told apart.
    expect(await ids({ referencia: `${'r'.repeat(64)}-longer` })).toEqual([d.id]);
    expect(await ids({ since: new Date(2000), until: new Date(2000) })).toEqual([e.id, d.id, c.id]);
    expect(await ids({ since: new Date(2001) })).toEqual([b.id]);
    expect(await ids({ terminalId: 'T1', referencia: 'pedido-1', estado: 'queued' })).toEqual([c.id]);
    expect(await ids({ terminalId: 'NONE' })).toEqual([]);
    // Every account's (the operator's CLI) only when asked for with accountId null.
    expect((await store.intentions.page({ accountId: null, referencia: 'pedido-1' }, 100)).map((j) => j.accountId)).toEqual([bob, alice, alice]);
    const row = (await store.intentions.page({ accountId: alice, estado: 'held' }, 1))[0]!;
    expect(row).toMatchObject({ id: a.id, size: 3, reprintOf: null, reprints: 0, terminalId: 'T1', referencia: 'pedido-1' });
    expect(row).not.toHaveProperty('bytes');
    expect(row).not.toHaveProperty('conteudo');
  });

  it('links a reprint to its original and counts it, only within the original\'s account', async () => {
    const original = await store.intentions.insert(draft(alice, { at: 1000 }));
    const copy = await store.intentions.insert(draft(alice, { at: 2000, reprintOf: original.id }));
    expect(copy).toMatchObject({ reprintOf: original.id, reprints: 0 });
    expect(await store.intentions.countReprint({ accountId: alice, id: original.id })).toBe(true);
    expect(await store.intentions.countReprint({ accountId: bob, id: original.id })).toBe(false);
    expect(await store.intentions.countReprint({ accountId: alice, id: 999_999 })).toBe(false);
    expect(await store.intentions.get(alice, original.id)).toMatchObject({ reprintOf: null, reprints: 1 });
    expect(await store.intentions.get(alice, copy.id)).toMatchObject({ reprintOf: original.id, reprints: 0 });
    expect(await store.intentions.ownerOf(copy.id)).toBe(alice);
    expect(await store.intentions.ownerOf(999_999)).toBeUndefined();
  });

  it('never shows a job twice nor skips one that existed when the walk began, whatever is inserted between pages', async () => {
    // Times from a small range: many jobs share a millisecond, and a job inserted later may carry an
    // older createdAt than jobs already listed (an Insert's time is taken before its transaction commits).
    const at = fc.integer({ min: 0, max: 20 }).map((ms) => 1_000_000 + ms);
    const scenario = fc.record({
      before: fc.array(fc.record({ at, held: fc.boolean() }), { maxLength: 30 }),
      during: fc.array(fc.array(fc.record({ at, held: fc.boolean() }), { maxLength: 4 }), { maxLength: 12 }),
      limit: fc.integer({ min: 1, max: 7 }),
      filter: fc.constantFrom<Partial<JobFilter>>({}, { estado: 'held' }, { since: new Date(1_000_005) }),
    });
    await fc.assert(fc.asyncProperty(scenario, async ({ before, during, limit, filter }) => {
      const account = (await store.accounts.create({ email: `p${Math.random()}@example.com`, name: 'P', passwordHash: 'h', metadata: [], roles: [] })).id;
      const add = (j: { at: number; held: boolean }) => store.intentions.insert(draft(account, { at: j.at, ...(j.held ? { estado: 'held' } : {}) }));
      for (const j of before) await add(j);
      const existing = await walk({ accountId: account, ...filter }, 1000);
      let burst = 0;
      const seen = await walk({ accountId: account, ...filter }, limit, async () => {
        for (const j of during[burst++] ?? []) await add(j);
      });
      const ids = seen.map((j) => j.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const j of existing) expect(ids).toContain(j.id);
      expect([...seen].sort(newestFirst)).toEqual(seen);
    }), { numRuns: STORE_KIND === 'postgres' ? 15 : 40 });
  }, 60_000);
});
