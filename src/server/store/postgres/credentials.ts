// credentials: API keys, access tokens and refresh tokens, stored only as sha256 hashes.
import { randomBytes } from 'node:crypto';
import type { CredentialRepository } from '../repositories.js';
import type { ApiKey } from '../types.js';
import type { Db } from './db.js';

interface KeyRow { id: string; user_id: string; name: string; prefix: string | null; created_at: number }

const toKey = (r: KeyRow): ApiKey => ({ id: r.id, accountId: r.user_id, name: r.name, prefix: r.prefix, createdAt: new Date(r.created_at) });

/** Key ids are shown to operators and typed back (`bobina keys revoke --id`): short, random, never derived from the key. */
const newKeyId = () => `key_${randomBytes(6).toString('hex')}`;

export function postgresCredentials(db: Db): CredentialRepository {
  return {
    async authenticate(hash, now) {
      // Every request asks this: one round trip, in the order SQLite asks (access token, API key, terminal key).
      const { rows } = await db.query<{ user_id: string; terminal_id: string | null }>(`
        SELECT user_id, NULL AS terminal_id, 1 AS rank FROM access_tokens WHERE token_hash = $1 AND expires_at > $2
        UNION ALL SELECT user_id, NULL, 2 FROM api_keys WHERE key_hash = $1
        UNION ALL SELECT user_id, terminal_id, 3 FROM terminal_keys WHERE key_hash = $1
        ORDER BY rank LIMIT 1`, [hash, now.getTime()]);
      const r = rows[0];
      if (!r) return undefined;
      return r.terminal_id === null ? { kind: 'account', accountId: r.user_id } : { kind: 'terminal', accountId: r.user_id, terminalId: r.terminal_id };
    },
    async setTerminalKey(accountId, terminalId, keyHash, prefix) {
      const createdAt = new Date();
      await db.query(`WITH gone AS (DELETE FROM terminal_keys WHERE user_id = $2 AND terminal_id = $3)
        INSERT INTO terminal_keys (key_hash, user_id, terminal_id, prefix, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [keyHash, accountId, terminalId, prefix, createdAt.getTime()]);
      return { accountId, terminalId, prefix, createdAt };
    },
    async createApiKey(k) {
      const key: ApiKey = { id: newKeyId(), accountId: k.accountId, name: k.name, prefix: k.prefix, createdAt: new Date() };
      await db.query('INSERT INTO api_keys (key_hash, user_id, name, created_at, id, prefix) VALUES ($1, $2, $3, $4, $5, $6)',
        [k.keyHash, k.accountId, k.name, key.createdAt.getTime(), key.id, k.prefix]);
      return key;
    },
    async listApiKeys(accountId) {
      const { rows } = await db.query<KeyRow>('SELECT id, user_id, name, prefix, created_at FROM api_keys WHERE user_id = $1 ORDER BY created_at, seq', [accountId]);
      return rows.map(toKey);
    },
    async revokeApiKey(accountId, id) {
      return (await db.query('DELETE FROM api_keys WHERE user_id = $1 AND id = $2', [accountId, id])).rowCount === 1;
    },
    async storeTokens(accountId, t) {
      await db.query(`WITH a AS (INSERT INTO access_tokens (token_hash, user_id, expires_at, family) VALUES ($1, $3, $4, $6))
        INSERT INTO refresh_tokens (token_hash, user_id, expires_at, family) VALUES ($2, $3, $5, $6)`,
      [t.accessHash, t.refreshHash, accountId, t.accessExpiresAt.getTime(), t.refreshExpiresAt.getTime(), t.family]);
    },
    async takeRefreshToken(hash, now, newFamily) {
      // One statement each: used up (only if unused: of two at once, one wins), else, if it was
      // used before, its family revoked (idempotent: a second reuse finds nothing left).
      const { rows } = await db.query<{ user_id: string; family: string }>(`UPDATE refresh_tokens SET used_at = $1, family = COALESCE(family, $2)
        WHERE token_hash = $3 AND used_at IS NULL AND expires_at > $1 RETURNING user_id, family`, [now.getTime(), newFamily, hash]);
      if (rows[0]) return { accountId: rows[0].user_id, family: rows[0].family };
      const n = await count(db, `WITH used AS (SELECT family FROM refresh_tokens WHERE token_hash = $1 AND used_at IS NOT NULL),
        a AS (DELETE FROM access_tokens WHERE family IN (SELECT family FROM used)),
        r AS (DELETE FROM refresh_tokens WHERE family IN (SELECT family FROM used))
        SELECT count(*) AS n FROM used`, [hash]);
      return n > 0 ? 'reused' : undefined;
    },
    async revokeTokens(accountId) {
      return count(db, `WITH a AS (DELETE FROM access_tokens WHERE user_id = $1 RETURNING 1), r AS (DELETE FROM refresh_tokens WHERE user_id = $1 RETURNING 1)
        SELECT (SELECT count(*) FROM a) + (SELECT count(*) FROM r) AS n`, [accountId]);
    },
    async purgeExpired(now) {
      return count(db, `WITH a AS (DELETE FROM access_tokens WHERE expires_at <= $1 RETURNING 1), r AS (DELETE FROM refresh_tokens WHERE expires_at <= $1 RETURNING 1)
        SELECT (SELECT count(*) FROM a) + (SELECT count(*) FROM r) AS n`, [now.getTime()]);
    },
  };
}

/** The `n` a two-table statement counts (one statement: both deletes commit together). */
async function count(db: Db, sql: string, values: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(sql, values);
  return Number(rows[0]?.n ?? 0);
}
