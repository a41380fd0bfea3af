// accounts (the `users` table): partner accounts with scrypt password hashes. E-mails are stored
// lower-cased and unique (the dialect's emailKey), so "taken" is case-insensitive.
import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '../repositories.js';
import { DuplicateError, type Account } from '../types.js';
import type { Dialect } from './dialect.js';
import { one, type Exec } from './exec.js';
import { json, raw, sql, type Sql } from './statement.js';

interface Row { id: string; email: string; name: string; password_hash: string; metadata: unknown; roles: unknown; tags: string; stuck_after_ms: number | null; created_at: number }

/** The `tags` column as read: 'partner', or 'all' for anything else. */
export const tagSet = (column: string): Account['tags'] => (column === 'partner' ? 'partner' : 'all');

const toAccount = (d: Dialect, r: Row): Account => ({
  id: r.id, email: r.email, name: r.name, passwordHash: r.password_hash, metadata: d.json(r.metadata), roles: d.json(r.roles), tags: tagSet(r.tags),
  stuckAfterMs: r.stuck_after_ms === null ? null : Number(r.stuck_after_ms), createdAt: new Date(r.created_at),
});

/** The columns an account is created with; it is read with the ones set later too. */
const COLUMNS = raw('id, email, name, password_hash, metadata, roles, tags, created_at');
const READ = sql`${COLUMNS}, stuck_after_ms`;

export function accounts(x: Exec): AccountRepository {
  const d = x.dialect;
  const find = async (where: Sql) => {
    const r = await one<Row>(x, sql`SELECT ${READ} FROM users WHERE ${where}`);
    return r && toAccount(d, r);
  };
  return {
    async create(a) {
      const account: Account = { ...a, id: randomUUID(), email: a.email.toLowerCase(), tags: a.tags ?? 'all', stuckAfterMs: null, createdAt: new Date() };
      // DO NOTHING rather than a unique violation, which would abort an enclosing PostgreSQL transaction.
      const n = await x.run(sql`INSERT INTO users (${COLUMNS}) VALUES (${account.id}, ${account.email}, ${account.name}, ${account.passwordHash},
        ${json(account.metadata)}, ${json(account.roles)}, ${account.tags}, ${account.createdAt}) ON CONFLICT DO NOTHING`);
      if (n === 0) throw new DuplicateError(`a user with e-mail ${account.email} already exists`);
      return account;
    },
    findByEmail: (email) => find(sql`${d.emailKey} = ${email.toLowerCase()}`),
    findById: (id) => find(sql`id = ${id}`),
    async list() {
      return (await x.all<Row>(sql`SELECT ${READ} FROM users ORDER BY created_at, ${d.insertOrder}`)).map((r) => toAccount(d, r));
    },
    setPasswordHash: async (id, hash) => (await x.run(sql`UPDATE users SET password_hash = ${hash} WHERE id = ${id}`)) === 1,
    setTags: async (id, tags) => (await x.run(sql`UPDATE users SET tags = ${tags} WHERE id = ${id}`)) === 1,
    setStuckAfter: async (id, ms) => (await x.run(sql`UPDATE users SET stuck_after_ms = ${ms} WHERE id = ${id}`)) === 1,
  };
}
