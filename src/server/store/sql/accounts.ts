// accounts (the `users` table): partner accounts with scrypt password hashes. E-mails are stored
// lower-cased and unique (the dialect's emailKey), so "taken" is case-insensitive; what may be an
// e-mail and the key it is found by are auth/email.ts's, as the login limits count it.
import { randomUUID } from 'node:crypto';
import { emailKey, emailRefusal, EmailRefused } from '../../auth/email.js';
import type { AccountRepository } from '../repositories.js';
import { DuplicateError, type Account } from '../types.js';
import { asJson, asTime, Table } from './columns.js';
import type { Exec } from './exec.js';
import { sql, type Sql } from './statement.js';

/** The `tags` column as read: 'partner', or 'all' for anything else. */
export const tagSet = (column: string): Account['tags'] => (column === 'partner' ? 'partner' : 'all');

const ACCOUNT = new Table<Account>({
  id: 'id', email: 'email', name: 'name', passwordHash: 'password_hash', metadata: ['metadata', asJson], roles: ['roles', asJson],
  tags: ['tags', { write: (v) => v, read: (v) => tagSet(v as string) }], stuckAfterMs: 'stuck_after_ms', createdAt: ['created_at', asTime],
});

export function accounts(x: Exec): AccountRepository {
  const d = x.dialect;
  const find = (where: Sql) => ACCOUNT.one(x, sql`SELECT ${ACCOUNT.select()} FROM users WHERE ${where}`);
  return {
    async create(a) {
      const refused = emailRefusal(a.email);
      if (refused) throw new EmailRefused(`the e-mail ${JSON.stringify(a.email)} ${refused}`);
      const account: Account = { ...a, id: randomUUID(), email: emailKey(a.email), tags: a.tags ?? 'all', stuckAfterMs: null, createdAt: new Date() };
      // DO NOTHING rather than a unique violation, which would abort an enclosing PostgreSQL transaction.
      const n = await x.run(sql`INSERT INTO users ${ACCOUNT.insert(account)} ON CONFLICT DO NOTHING`);
      if (n === 0) throw new DuplicateError(`a user with e-mail ${account.email} already exists`);
      return account;
    },
    findByEmail: (email) => find(sql`${d.emailKey} = ${emailKey(email)}`),
    findById: (id) => find(sql`id = ${id}`),
    list: () => ACCOUNT.all(x, sql`SELECT ${ACCOUNT.select()} FROM users ORDER BY created_at, ${d.insertOrder}`),
    setPasswordHash: async (id, hash) => (await x.run(sql`UPDATE users SET password_hash = ${hash} WHERE id = ${id}`)) === 1,
    setTags: async (id, tags) => (await x.run(sql`UPDATE users SET tags = ${tags} WHERE id = ${id}`)) === 1,
    setStuckAfter: async (id, ms) => (await x.run(sql`UPDATE users SET stuck_after_ms = ${ms} WHERE id = ${id}`)) === 1,
  };
}
