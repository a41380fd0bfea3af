// Two concurrent Inserts with one Idempotency-Key: both pass the early look-up (the key is not
// stored yet), so only the second look-up, inside the insert transaction, keeps them from
// inserting twice. A barrier makes that interleaving certain instead of lucky. Then an answer lost
// after its commit, and keys stored by earlier versions (a body, or none yet).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import type { Store } from '../../src/server/store/repositories.js';
import { insertRequestHash } from '../../src/server/routes/insert-request.js';
import { rawStatement } from '../support/raw-statement.js';
import { STORE_KIND } from '../support/store-target.js';
import { ALICE, harness, login, type Harness } from './helpers.js';

let h: Harness;
let app: FastifyInstance;
let key: string;

/** The store, with its outside-a-transaction findIdempotent held until `n` callers have reached it. */
function withBarrier(store: Store, n: number): Store {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return {
    ...store,
    intentions: {
      ...store.intentions,
      async findIdempotent(accountId, k) {
        if (++arrived >= n) open();
        await all;
        return store.intentions.findIdempotent(accountId, k);
      },
    },
  };
}

beforeEach(async () => {
  h = await harness();
  key = (await login(h.app)).access_token;
  app = await buildApp({ store: withBarrier(h.store, 2), logLevel: 'silent', storeWorkers: false });
});
afterEach(async () => {
  await app.close();
  await h.close();
});

describe('two concurrent Inserts with one Idempotency-Key', () => {
  it('insert one intention, and both answer with its exact bytes', async () => {
    const insert = () => app.inject({
      method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, headers: { 'idempotency-key': 'race-1' },
      payload: { referencia: 'r', conteudo: 'x', terminalId: 'CAIXA-01' },
    });
    const [a, b] = await Promise.all([insert(), insert()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.body).toBe(a.body);
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].filter(Boolean)).toEqual(['true']);
    const { id } = a.json().intencaoImpressao;
    expect((await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${id + 1}` })).statusCode).toBe(404);
  });
});

describe('an Insert whose answer was lost (the instance stopped after the commit, before it answered)', () => {
  it('answers every retry with the job it made, as the Insert made it, in the same bytes', async () => {
    let fails = 1;
    const store: Store = {
      ...h.store,
      async transaction(fn) {
        const result = await h.store.transaction(fn);
        if (fails-- > 0) throw new Error('the instance stopped here');
        return result;
      },
    };
    const stopped = await buildApp({ store, logLevel: 'silent', storeWorkers: false });
    try {
      const insert = () => stopped.inject({
        method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, headers: { 'idempotency-key': 'lost-1' },
        payload: { referencia: 'r', conteudo: 'x', terminalId: 'CAIXA-01' },
      });
      expect((await insert()).statusCode).toBe(500);
      const [a, b] = [await insert(), await insert()];
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']]).toEqual(['true', 'true']);
      expect(b.body).toBe(a.body);
      const { id } = a.json().intencaoImpressao;
      const now = await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${id}` });
      expect(a.json().intencaoImpressao).toEqual(now.json().intencaoImpressao);
      expect((await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${id + 1}` })).statusCode).toBe(404);
    } finally {
      await stopped.close();
    }
  });
});

describe('an Idempotency-Key an earlier version stored (before answers were kept)', () => {
  const payload = { referencia: 'r', conteudo: 'x', terminalId: 'CAIXA-01' };
  const insert = (k: string) => h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, headers: { 'idempotency-key': k }, payload });
  /** A key as those versions wrote it: with the body they answered with, or '' (the body never fixed). */
  async function storeLegacyKey(k: string, body: string, intentionId: number | null) {
    const accountId = (await h.store.findUserByEmail(ALICE.email))!.id;
    await rawStatement({ kind: STORE_KIND, location: h.file },
      'INSERT INTO idempotency (user_id, key, request_hash, status_code, body, intention_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [accountId, k, insertRequestHash(payload), 200, body, intentionId, Date.now()]);
  }

  it('answers with the body it stored, byte for byte, and inserts nothing', async () => {
    const stored = '{"data":"01/01/2026 00:00:00.000","intencaoImpressao":{"id":77,"conteudo":"from an earlier version"}}';
    await storeLegacyKey('old-1', stored, null);
    const [a, b] = [await insert('old-1'), await insert('old-1')];
    for (const r of [a, b]) {
      expect(r.statusCode).toBe(200);
      expect(r.headers['idempotent-replayed']).toBe('true');
      expect(r.body).toBe(stored);
    }
    expect((await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=1` })).statusCode).toBe(404);
  });

  it('answers one stored with its job but no body, the job since deleted (past --job-keep), 404 intention-not-found, not a 500', async () => {
    const made = (await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload })).json().intencaoImpressao;
    expect((await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Cancelar?key=${key}&intencaoImpressaoId=${made.id}` })).statusCode).toBe(200);
    expect(await h.app.jobs.sweeps.purgeEndedJobs(new Date(Date.now() + 31 * 24 * 3_600_000))).toBe(1);
    await storeLegacyKey('old-gone', '', made.id);
    const res = await insert('old-gone');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'intention-not-found', intencaoImpressaoId: made.id });
  });

  it('answers one stored with its job but no body with the job as it is then, and every later retry with those same bytes', async () => {
    const made = (await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload })).json().intencaoImpressao;
    await storeLegacyKey('old-2', '', made.id);
    const [a, b] = [await insert('old-2'), await insert('old-2')];
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']]).toEqual(['true', 'true']);
    expect(b.body).toBe(a.body);
    expect(a.json().intencaoImpressao).toEqual(made);
    expect((await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${made.id + 1}` })).statusCode).toBe(404);
  });
});
