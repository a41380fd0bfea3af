// PostgreSQL ending the store's connections while they are busy (an administrator's
// pg_terminate_backend, a failover): callers get StoreUnavailableError and retry, and the process
// never throws an unhandled 'error' event. pg hands a pooled client to a waiting caller after
// removing the pool's own listener, and the caller adds its listener only after its await: a
// "terminating connection" read in between had no listener and crashed the process (found by a
// probe with three instances; 5 of 5 runs of this kind of load crashed within three rounds).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/server/store/postgres.js';
import type { Store } from '../../src/server/store/repositories.js';
import { StoreUnavailableError } from '../../src/server/store/types.js';
import { dropSchema, freshSchemaUrl, PG_BASE_URL } from '../support/postgres.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the PostgreSQL store when the server ends its connections under load', () => {
  let url: string;
  let store: Store;
  let admin: pg.Client;
  const name = `bobina_drops_${process.pid}`;

  beforeAll(async () => {
    url = freshSchemaUrl();
    store = await openPostgresStore(`${url}&application_name=${name}`, { onIdleError: () => undefined });
    admin = new pg.Client({ connectionString: PG_BASE_URL });
    admin.on('error', () => undefined);
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await store?.close().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    await dropSchema(url);
  }, 30_000);

  it('answers StoreUnavailableError and never throws from an error event', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    const account = (await store.accounts.create({ email: 'drops@example.com', name: 'D', passwordHash: 'h', metadata: [], roles: [] })).id;
    let running = true;
    const failures = new Set<string>();
    let done = 0;
    // Three workers per pooled connection: callers wait for clients, so clients are handed over all the time.
    const workers = Array.from({ length: 30 }, async (_, w) => {
      for (let i = 0; running; i++) {
        try {
          if (w % 2) await store.transaction(async (r) => { await r.intentions.findIdempotent(account, `k${w}-${i}`); await r.accounts.list(); });
          else await store.accounts.list();
          done++;
        } catch (err) {
          failures.add(err instanceof StoreUnavailableError ? 'unavailable' : String(err));
          await sleep(20);
        }
      }
    });
    try {
      for (let round = 0; round < 12 && uncaught.length === 0; round++) {
        await sleep(150 + ((round * 97) % 300));
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
      }
    } finally {
      running = false;
      await Promise.all(workers);
      process.removeListener('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect([...failures]).toEqual(['unavailable']);
    // And the pool serves again once the server lets it.
    await expect.poll(async () => (await store.accounts.findById(account))?.id, { timeout: 15_000, interval: 200 }).toBe(account);
    expect(done).toBeGreaterThan(0);
  }, 120_000);
});
