// The service on PostgreSQL when the database goes away and comes back, for real: the store
// reaches PostgreSQL through a TCP relay the test cuts (every connection reset, nothing listening)
// and restores. Meanwhile requests get 503 `database-unavailable` with Retry-After: 1 and the
// usual JSON problem body, the log names no password, and once the database is back the pool
// reconnects by itself.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { sha256 } from '../../src/server/auth/secrets.js';
import { openPostgresStore } from '../../src/server/store/postgres.js';
import type { Store } from '../../src/server/store/repositories.js';
import { freePort } from '../support/net.js';
import { dropSchema, freshSchemaUrl, havePostgres } from '../support/postgres.js';

/** A relay from `port` to PostgreSQL that can be cut (and restored on the same port). */
function relay(port: number) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const up = () => new Promise<void>((resolve, reject) => {
    server = createServer((client) => {
      const db = connect(5432, '127.0.0.1');
      for (const s of [client, db]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => sockets.delete(s));
      }
      client.on('close', () => db.destroy());
      db.on('close', () => client.destroy());
      client.pipe(db).pipe(client);
    });
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const down = () => new Promise<void>((resolve) => {
    for (const s of sockets) s.resetAndDestroy();
    server?.close(() => resolve());
  });
  return { up, down };
}

const suite = havePostgres ? describe : describe.skip;

suite('the service when PostgreSQL goes away', () => {
  const key = 'bob_unavailable_test_key';
  let url: string;
  let store: Store;
  let app: FastifyInstance;
  let logs = '';
  let cut: ReturnType<typeof relay>;

  beforeAll(async () => {
    const port = await freePort();
    cut = relay(port);
    await cut.up();
    // A password in the URL (trust auth ignores it) that must never reach a log line.
    url = freshSchemaUrl();
    store = await openPostgresStore(url.replace('postgres@127.0.0.1:5432', `postgres:pw-never-logged@127.0.0.1:${port}`), { connectTimeoutMs: 2000 });
    const account = await store.accounts.create({ email: 'ana@example.com', name: 'Ana', passwordHash: 'h', metadata: [], roles: [] });
    await store.credentials.createApiKey({ accountId: account.id, name: 'pos', keyHash: sha256(key), prefix: 'bob_unavai' });
    const logStream = new Writable({ write(chunk, _enc, done) { logs += chunk.toString(); done(); } });
    app = await buildApp({ store, logStream, logLevel: 'info' });
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await cut?.up().catch(() => undefined);
    await app?.close();
    await store?.close();
    await dropSchema(url);
  }, 30_000);

  const templates = () => app.inject({ url: '/ImpressoraTemplate/GetTemplates', headers: { authorization: `Bearer ${key}` } });

  it('answers 503 database-unavailable with Retry-After while it is away, and serves again once it is back', async () => {
    expect((await templates()).statusCode).toBe(200);

    await cut.down();
    const away = await templates();
    expect(away.statusCode).toBe(503);
    expect(away.headers['retry-after']).toBe('1');
    expect(away.headers['content-type']).toMatch(/^application\/json/);
    expect(away.json()).toEqual({ message: 'The database is unavailable; retry shortly', code: 'database-unavailable', requestId: expect.any(String) });
    // A second request, on a fresh connection attempt that is refused, is answered the same way.
    expect((await templates()).statusCode).toBe(503);
    expect(logs).toContain('database unavailable');
    expect(logs).not.toContain('pw-never-logged');
    expect(away.body).not.toMatch(/\bat\s.+:\d+:\d+/);

    await cut.up();
    // The pool reconnects by itself; a request or two may still meet a connection cut before.
    await expect.poll(async () => (await templates()).statusCode, { timeout: 15_000, interval: 200 }).toBe(200);
  }, 60_000);
});
