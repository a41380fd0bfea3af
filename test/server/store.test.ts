// The store interface on both backends (SQLite, PostgreSQL): transaction(fn) commits or rolls back
// as one, nothing else runs inside an open transaction, the store's own repositories are refused
// inside one, and the repositories return domain values. SQLite's file upgrade is SQLite-only; the
// PostgreSQL store's multi-instance guarantees are test/server/store-postgres.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/server/store/postgres.js';
import type { Store } from '../../src/server/store/repositories.js';
import { openSqliteStore } from '../../src/server/store/sqlite.js';
import { migrate } from '../../src/server/store/sqlite/migrate.js';
import { SQLITE_MIGRATIONS } from '../../src/server/store/sqlite-migrations.js';
import { DuplicateError, type NewIntention } from '../../src/server/store/types.js';
import { dropSchema, freshSchemaUrl, havePostgres } from '../support/postgres.js';

type Kind = 'sqlite' | 'postgres';

let dir: string;
let url: string;
let store: Store;
let accountId: string;

const draft = (referencia: string): NewIntention => ({
  accountId, referencia, conteudo: 'x', terminalId: null, impressoraId: 1, codigoImpressora: 'MAKER1MP4200',
  aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada', bytes: new Uint8Array([0x1b, 0x40]), diagnostics: [], createdAt: new Date(),
});

describe.each<Kind>(['sqlite', 'postgres'])('the %s store', (kind) => {
  const skip = kind === 'postgres' && !havePostgres;
  beforeEach(async () => {
    if (skip) return;
    if (kind === 'sqlite') {
      dir = mkdtempSync(join(tmpdir(), 'bobina-store-'));
      store = openSqliteStore(join(dir, 'db.sqlite'));
    } else {
      url = freshSchemaUrl();
      store = await openPostgresStore(url);
    }
    accountId = (await store.accounts.create({ email: 'Ana@Example.com', name: 'Ana', passwordHash: 'h', metadata: [], roles: [] })).id;
  }, 30_000);
  afterEach(async () => {
    if (skip) return;
    await store.close();
    if (kind === 'sqlite') rmSync(dir, { recursive: true, force: true });
    else await dropSchema(url);
  }, 30_000);
  const both = skip ? it.skip : it;
  const sqliteOnly = kind === 'sqlite' ? it : it.skip;
  const postgresOnly = kind === 'postgres' && !skip ? it : it.skip;

  both('commits everything a transaction wrote, together', async () => {
    const id = await store.transaction(async (tx) => {
      const i = await tx.intentions.insert(draft('a'));
      await tx.intentions.saveIdempotent(accountId, 'k', { requestHash: 'h', statusCode: 200, body: '{}' });
      return i.id;
    });
    expect((await store.intentions.get(accountId, id))?.referencia).toBe('a');
    expect(await store.intentions.findIdempotent(accountId, 'k')).toEqual({ requestHash: 'h', statusCode: 200, body: '{}' });
  });

  both('rolls back everything when fn throws, and rethrows its error', async () => {
    const boom = new Error('boom');
    await expect(store.transaction(async (tx) => {
      await tx.intentions.insert(draft('lost'));
      throw boom;
    })).rejects.toBe(boom);
    expect(await store.intentions.get(accountId, 1)).toBeUndefined();
  });

  sqliteOnly('holds other callers back until an open transaction ends, so they never run inside it', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = store.transaction(async (t) => {
      await t.intentions.insert(draft('in-tx'));
      order.push('tx wrote');
      await held;
      throw new Error('roll back');
    });
    await new Promise((r) => setImmediate(r));
    const outside = store.intentions.insert(draft('outside')).then((i) => {
      order.push('outside wrote');
      return i;
    });
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['tx wrote']);
    release();
    await expect(tx).rejects.toThrow('roll back');
    const written = await outside;
    expect(order).toEqual(['tx wrote', 'outside wrote']);
    // The outside insert was not rolled back with the transaction.
    expect((await store.intentions.get(accountId, written.id))?.referencia).toBe('outside');
  });

  both("refuses the store's own repositories inside a transaction instead of waiting forever", async () => {
    await expect(store.transaction(async () => store.accounts.list())).rejects.toThrow(/inside transaction/);
    await expect(store.transaction(async () => store.transaction(async () => 1))).rejects.toThrow(/inside transaction/);
    expect(await store.accounts.list()).toHaveLength(1);
  });

  both('refuses a transaction\'s repositories once it has ended', async () => {
    const leaked = await store.transaction(async (tx) => tx);
    await expect(leaked.accounts.list()).rejects.toThrow(/ended/);
  });

  both('returns domain values: e-mails lower-cased, dates as Dates, duplicates as DuplicateError', async () => {
    const a = await store.accounts.findByEmail('ANA@example.com');
    expect(a).toMatchObject({ id: accountId, email: 'ana@example.com', metadata: [], roles: [] });
    expect(a!.createdAt).toBeInstanceOf(Date);
    await expect(store.accounts.create({ email: 'ana@EXAMPLE.com', name: 'x', passwordHash: 'h', metadata: [], roles: [] })).rejects.toBeInstanceOf(DuplicateError);
    await store.intentions.saveIdempotent(accountId, 'k', { requestHash: 'h', statusCode: 200, body: '{}' });
    await expect(store.intentions.saveIdempotent(accountId, 'k', { requestHash: 'h', statusCode: 200, body: '{}' })).rejects.toBeInstanceOf(DuplicateError);
  });

  both('counts login attempts per key in one upsert, starting a new window when the old one has ended', async () => {
    const t0 = new Date(1_000_000);
    expect((await store.loginAttempts.hit(['a', 'b'], t0, 1000)).map((c) => c.failures)).toEqual([1, 1]);
    const [a2] = await store.loginAttempts.hit(['a'], new Date(1_000_500), 1000);
    expect(a2).toEqual({ key: 'a', failures: 2, windowStart: t0 });
    await store.loginAttempts.unhit([a2!]);
    expect((await store.loginAttempts.hit(['a'], new Date(1_000_600), 1000))[0]!.failures).toBe(2);
    expect((await store.loginAttempts.hit(['a'], new Date(1_001_000), 1000))[0]).toEqual({ key: 'a', failures: 1, windowStart: new Date(1_001_000) });
    expect(await store.loginAttempts.purge(new Date(1_000_900))).toBe(1);
  });

  both('revokes an API key only for its own account', async () => {
    const bob = await store.accounts.create({ email: 'bob@example.com', name: 'Bob', passwordHash: 'h', metadata: [], roles: [] });
    const key = await store.credentials.createApiKey({ accountId, name: 'pos', keyHash: 'hash-1', prefix: 'bob_abcdef' });
    expect(await store.credentials.authenticate('hash-1', new Date())).toEqual({ kind: 'account', accountId });
    expect(await store.credentials.revokeApiKey(bob.id, key.id)).toBe(false);
    expect(await store.credentials.revokeApiKey(accountId, key.id)).toBe(true);
    expect(await store.credentials.authenticate('hash-1', new Date())).toBeUndefined();
  });

  sqliteOnly('upgrades a database made by the first release: its API keys get ids, and it keeps working', async () => {
    const file = join(dir, 'v1.sqlite');
    const old = new Database(file);
    migrate(old, SQLITE_MIGRATIONS.slice(0, 1));
    old.prepare("INSERT INTO users (id, email, name, password_hash, metadata, roles, created_at) VALUES ('u1', 'old@example.com', 'Old', 'h', '[]', '[]', 1)").run();
    old.prepare("INSERT INTO api_keys (key_hash, user_id, name, created_at) VALUES ('old-hash', 'u1', 'legacy', 2)").run();
    old.close();
    const upgraded = openSqliteStore(file);
    try {
      const [key] = await upgraded.credentials.listApiKeys('u1');
      expect(key).toEqual({ id: expect.stringMatching(/^key_[0-9a-f]{12}$/), accountId: 'u1', name: 'legacy', prefix: null, createdAt: new Date(2) });
      expect(await upgraded.credentials.authenticate('old-hash', new Date())).toEqual({ kind: 'account', accountId: 'u1' });
    } finally {
      await upgraded.close();
    }
  });

  postgresOnly('runs an outside caller beside an open transaction, never inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const txWrote = new Promise<void>((r) => (wrote = r));
    const tx = store.transaction(async (t) => {
      await t.intentions.insert(draft('in-tx'));
      wrote();
      await held;
      throw new Error('roll back');
    });
    await txWrote;
    // On PostgreSQL the outside insert is its own statement on another connection: it commits
    // while the transaction is still open, and does not see the transaction's uncommitted row.
    const outside = await store.intentions.insert(draft('outside'));
    expect((await store.intentions.listForRoute({ accountId, terminalId: 't', templateJobs: true, printerId: null }, ['queued'])).map((i) => i.referencia)).toEqual(['outside']);
    release();
    await expect(tx).rejects.toThrow('roll back');
    expect((await store.intentions.get(accountId, outside.id))?.referencia).toBe('outside');
  });
});
