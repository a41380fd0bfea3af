// Two concurrent Inserts with one Idempotency-Key: both pass the early look-up (the key is not
// stored yet), so only the second look-up, inside the insert transaction, keeps them from
// inserting twice. A barrier makes that interleaving certain instead of lucky.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import type { Store } from '../../src/server/store/repositories.js';
import { harness, login, type Harness } from './helpers.js';

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

describe("an Insert whose key's answer was never fixed (the instance stopped between the commit and fixing it)", () => {
  it('answers a retry with the job it made, as it is then, and every later retry with those same bytes', async () => {
    let fails = 1;
    const store: Store = {
      ...h.store,
      intentions: {
        ...h.store.intentions,
        async fixIdempotentBody(accountId, k, body) {
          if (fails-- > 0) throw new Error('the instance stopped here');
          return h.store.intentions.fixIdempotentBody(accountId, k, body);
        },
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
