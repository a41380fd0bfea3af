// accounts (the `users` table): partner accounts with scrypt password hashes.
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '../repositories.js';
import { DuplicateError, type Account } from '../types.js';
import type { Sync } from './bind.js';

interface Row { id: string; email: string; name: string; password_hash: string; metadata: string; roles: string; tags: string; created_at: number }

const toAccount = (r: Row): Account => ({
  id: r.id, email: r.email, name: r.name, passwordHash: r.password_hash,
  metadata: JSON.parse(r.metadata), roles: JSON.parse(r.roles), tags: r.tags === 'partner' ? 'partner' : 'all', createdAt: new Date(r.created_at),
});

export function sqliteAccounts(db: Database.Database): Sync<AccountRepository> {
  const q = {
    insert: db.prepare('INSERT INTO users (id, email, name, password_hash, metadata, roles, tags, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    byEmail: db.prepare<[string], Row>('SELECT * FROM users WHERE email = ?'),
    byId: db.prepare<[string], Row>('SELECT * FROM users WHERE id = ?'),
    all: db.prepare<[], Row>('SELECT * FROM users ORDER BY created_at, rowid'),
    setPassword: db.prepare('UPDATE users SET password_hash = ? WHERE id = ?'),
    setTags: db.prepare('UPDATE users SET tags = ? WHERE id = ?'),
  };
  return {
    create(a) {
      const account: Account = { ...a, id: randomUUID(), email: a.email.toLowerCase(), tags: a.tags ?? 'all', createdAt: new Date() };
      try {
        q.insert.run(account.id, account.email, account.name, account.passwordHash, JSON.stringify(account.metadata), JSON.stringify(account.roles), account.tags, account.createdAt.getTime());
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateError(`a user with e-mail ${account.email} already exists`);
        throw err;
      }
      return account;
    },
    findByEmail(email) {
      const r = q.byEmail.get(email.toLowerCase());
      return r && toAccount(r);
    },
    findById(id) {
      const r = q.byId.get(id);
      return r && toAccount(r);
    },
    list: () => q.all.all().map(toAccount),
    setPasswordHash: (id, hash) => q.setPassword.run(hash, id).changes === 1,
    setTags: (id, tags) => q.setTags.run(tags, id).changes === 1,
  };
}
