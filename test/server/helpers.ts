// Shared set-up for the service tests: a fresh database on the store this run tests (a SQLite file,
// or a PostgreSQL schema: support/store-target.ts), or an existing one as a second process would
// open it; two accounts with terminals, captured logs, and a login helper.
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { hashPassword } from '../../src/server/auth/secrets.js';
import type { Store } from '../../src/server/store/repositories.js';
import type { Account } from '../../src/server/store/types.js';
import { freshDatabase, sameDatabase } from '../support/store-target.js';

export const ALICE = { email: 'alice@example.com', password: 'alice-secret-pw', name: 'Alice' };
export const BOB = { email: 'bob@example.com', password: 'bob-secret-pw', name: 'Bob' };

/** The store, plus the two shortcuts the printing tests were first written with. */
export type TestStore = Store & {
  findUserByEmail(email: string): Promise<Account | undefined>;
  createApiKey(accountId: string, name: string, keyHash: string): Promise<void>;
};

export interface Harness {
  app: FastifyInstance;
  store: TestStore;
  dir: string;
  /** The database (a SQLite file or a PostgreSQL URL): pass it as `file` to open a second app (a second process) on it. */
  file: string;
  logs: () => string;
  close: () => Promise<void>;
}

/** `withStore` builds options that need the store (the webhook sender, say) once it is open and seeded. */
export async function harness({ file, withStore, ...options }: Partial<AppOptions> & { file?: string; withStore?: (store: Store) => Partial<AppOptions> } = {}): Promise<Harness> {
  const database = file === undefined ? await freshDatabase() : sameDatabase(file);
  const opened = await database.open();
  const store: TestStore = {
    ...opened,
    findUserByEmail: (email) => opened.accounts.findByEmail(email),
    createApiKey: async (accountId, name, keyHash) => {
      await opened.credentials.createApiKey({ accountId, name, keyHash, prefix: 'bob_test' });
    },
  };
  if (file === undefined) await seed(store);
  let captured = '';
  const logStream = new Writable({ write(chunk, _enc, done) { captured += chunk.toString(); done(); } });
  // No WAL checkpointer thread per test (~80 ms each): wal.test.ts covers it, cli-serve.test.ts runs it.
  const app = await buildApp({ store, logStream, logLevel: 'info', storeWorkers: false, ...options, ...withStore?.(store) });
  await app.ready();
  return {
    app, store, dir: database.dir, file: database.location, logs: () => captured,
    close: async () => {
      await app.close();
      await store.close();
      await database.drop();
    },
  };
}

async function seed(store: Store) {
  const alice = await store.accounts.create({
    ...ALICE, passwordHash: await hashPassword(ALICE.password),
    metadata: [{ key: 'documentNumber', value: '12345678000199' }, { key: 'whitelabel', value: 'acme' }], roles: ['RECONCILIATION_CONCILIATOR'],
  });
  const bob = await store.accounts.create({ ...BOB, passwordHash: await hashPassword(BOB.password), metadata: [], roles: [] });
  await store.terminals.put({ accountId: alice.id, terminalId: 'CAIXA-01', printerId: 1, enabled: true });
  await store.terminals.put({ accountId: alice.id, terminalId: 'CAIXA-OFF', printerId: 1, enabled: false });
  await store.terminals.put({ accountId: alice.id, terminalId: 'ANDROID', printerId: 0, enabled: true });
  await store.terminals.put({ accountId: bob.id, terminalId: 'BOB-01', printerId: 5, enabled: true });
}

export async function login(app: FastifyInstance, who: { email: string; password: string } = ALICE) {
  const res = await app.inject({ method: 'POST', url: '/auth/reconciliation/token', payload: { email: who.email, password: who.password, grant_type: 'password' } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json() as { access_token: string; refresh_token: string };
}
