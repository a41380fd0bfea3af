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
