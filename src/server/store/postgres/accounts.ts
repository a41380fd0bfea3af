// accounts (the `users` table): partner accounts with scrypt password hashes. E-mails are stored
// lower-cased and unique by lower(email), so "taken" is case-insensitive as on SQLite.
import { randomUUID } from 'node:crypto';
import type { AccountRepository } from '../repositories.js';
import { DuplicateError, type Account } from '../types.js';
import type { Db } from './db.js';

interface Row { id: string; email: string; name: string; password_hash: string; metadata: Account['metadata']; roles: string[]; tags: string; created_at: number }

const toAccount = (r: Row): Account => ({
  id: r.id, email: r.email, name: r.name, passwordHash: r.password_hash, metadata: r.metadata, roles: r.roles, tags: r.tags === 'partner' ? 'partner' : 'all', createdAt: new Date(r.created_at),
});

const COLUMNS = 'id, email, name, password_hash, metadata, roles, tags, created_at';

export function postgresAccounts(db: Db): AccountRepository {
  return {
    async create(a) {
      const account: Account = { ...a, id: randomUUID(), email: a.email.toLowerCase(), tags: a.tags ?? 'all', createdAt: new Date() };
      // DO NOTHING rather than a unique violation, which would abort an enclosing transaction.
      const { rowCount } = await db.query(`INSERT INTO users (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`, [
        account.id, account.email, account.name, account.passwordHash, JSON.stringify(account.metadata), JSON.stringify(account.roles), account.tags, account.createdAt.getTime(),
      ]);
      if (rowCount === 0) throw new DuplicateError(`a user with e-mail ${account.email} already exists`);
      return account;
    },
    async findByEmail(email) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = $1`, [email.toLowerCase()]);
      return rows[0] && toAccount(rows[0]);
    },
    async findById(id) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
      return rows[0] && toAccount(rows[0]);
    },
    async list() {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM users ORDER BY created_at, seq`);
      return rows.map(toAccount);
    },
    async setPasswordHash(id, hash) {
      return (await db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hash, id])).rowCount === 1;
    },
    async setTags(id, tags) {
      return (await db.query('UPDATE users SET tags = $1 WHERE id = $2', [tags, id])).rowCount === 1;
    },
  };
}
