// Shared set-up for the service tests: a fresh SQLite file in the OS temp dir, two accounts with
// terminals, captured logs, and a login helper.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { hashPassword } from '../../src/server/auth/secrets.js';
import { openSqliteStore } from '../../src/server/store/sqlite.js';
import type { Store } from '../../src/server/store/types.js';

export const ALICE = { email: 'alice@example.com', password: 'alice-secret-pw', name: 'Alice' };
export const BOB = { email: 'bob@example.com', password: 'bob-secret-pw', name: 'Bob' };

export interface Harness {
  app: FastifyInstance;
  store: Store;
  dir: string;
  logs: () => string;
  close: () => Promise<void>;
}

export async function harness(options: Partial<AppOptions> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'bobina-test-'));
  const store = openSqliteStore(join(dir, 'db.sqlite'));
  const alice = await store.createUser({
    ...ALICE, passwordHash: await hashPassword(ALICE.password),
    metadata: [{ key: 'documentNumber', value: '12345678000199' }, { key: 'whitelabel', value: 'acme' }], roles: ['RECONCILIATION_CONCILIATOR'],
  });
  const bob = await store.createUser({ ...BOB, passwordHash: await hashPassword(BOB.password), metadata: [], roles: [] });
  await store.putTerminal({ userId: alice.id, terminalId: 'CAIXA-01', printerId: 1, enabled: true });
  await store.putTerminal({ userId: alice.id, terminalId: 'CAIXA-OFF', printerId: 1, enabled: false });
  await store.putTerminal({ userId: alice.id, terminalId: 'ANDROID', printerId: 0, enabled: true });
  await store.putTerminal({ userId: bob.id, terminalId: 'BOB-01', printerId: 5, enabled: true });
  let captured = '';
  const logStream = new Writable({ write(chunk, _enc, done) { captured += chunk.toString(); done(); } });
  const app = await buildApp({ store, logStream, logLevel: 'info', ...options });
  await app.ready();
  return {
    app, store, dir, logs: () => captured,
    close: async () => {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function login(app: FastifyInstance, who: { email: string; password: string } = ALICE) {
  const res = await app.inject({ method: 'POST', url: '/auth/reconciliation/token', payload: { email: who.email, password: who.password, grant_type: 'password' } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string };
}
