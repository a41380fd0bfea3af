// credentials: API keys, access tokens and refresh tokens, stored only as sha256 hashes.
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { CredentialRepository } from '../repositories.js';
import type { ApiKey, RefreshTaken } from '../types.js';
import type { Sync } from './bind.js';

interface KeyRow { id: string; user_id: string; name: string; prefix: string | null; created_at: number }

const toKey = (r: KeyRow): ApiKey => ({ id: r.id, accountId: r.user_id, name: r.name, prefix: r.prefix, createdAt: new Date(r.created_at) });

/** Key ids are shown to operators and typed back (`bobina keys revoke --id`): short, random, never derived from the key. */
const newKeyId = () => `key_${randomBytes(6).toString('hex')}`;

export function sqliteCredentials(db: Database.Database): Sync<CredentialRepository> {
  const q = {
    access: db.prepare<[string, number], string>('SELECT user_id FROM access_tokens WHERE token_hash = ? AND expires_at > ?').pluck(),
    apiKey: db.prepare<[string], string>('SELECT user_id FROM api_keys WHERE key_hash = ?').pluck(),
    terminalKey: db.prepare<[string], { user_id: string; terminal_id: string }>('SELECT user_id, terminal_id FROM terminal_keys WHERE key_hash = ?'),
    dropTerminalKeys: db.prepare('DELETE FROM terminal_keys WHERE user_id = ? AND terminal_id = ?'),
    insertTerminalKey: db.prepare('INSERT INTO terminal_keys (key_hash, user_id, terminal_id, prefix, created_at) VALUES (?, ?, ?, ?, ?)'),
    insertKey: db.prepare('INSERT INTO api_keys (key_hash, user_id, name, created_at, id, prefix) VALUES (?, ?, ?, ?, ?, ?)'),
    keys: db.prepare<[string], KeyRow>('SELECT id, user_id, name, prefix, created_at FROM api_keys WHERE user_id = ? ORDER BY created_at, rowid'),
    revokeKey: db.prepare('DELETE FROM api_keys WHERE user_id = ? AND id = ?'),
    insertAccess: db.prepare('INSERT INTO access_tokens (token_hash, user_id, expires_at, family) VALUES (?, ?, ?, ?)'),
    insertRefresh: db.prepare('INSERT INTO refresh_tokens (token_hash, user_id, expires_at, family) VALUES (?, ?, ?, ?)'),
    useRefresh: db.prepare<[number, string, string, number], { user_id: string; family: string }>(`UPDATE refresh_tokens SET used_at = ?, family = COALESCE(family, ?)
      WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id, family`),
    usedFamily: db.prepare<[string], string>('SELECT family FROM refresh_tokens WHERE token_hash = ? AND used_at IS NOT NULL').pluck(),
    revokeFamilyAccess: db.prepare('DELETE FROM access_tokens WHERE family = ?'),
    revokeFamilyRefresh: db.prepare('DELETE FROM refresh_tokens WHERE family = ?'),
    revokeAccess: db.prepare('DELETE FROM access_tokens WHERE user_id = ?'),
    revokeRefresh: db.prepare('DELETE FROM refresh_tokens WHERE user_id = ?'),
    purgeAccess: db.prepare('DELETE FROM access_tokens WHERE expires_at <= ?'),
    purgeRefresh: db.prepare('DELETE FROM refresh_tokens WHERE expires_at <= ?'),
  };
  return {
    authenticate(hash, now) {
      const accountId = q.access.get(hash, now.getTime()) ?? q.apiKey.get(hash);
      if (accountId !== undefined) return { kind: 'account', accountId };
      const terminal = q.terminalKey.get(hash);
      return terminal && { kind: 'terminal', accountId: terminal.user_id, terminalId: terminal.terminal_id };
    },
    setTerminalKey(accountId, terminalId, keyHash, prefix) {
      const createdAt = new Date();
      // better-sqlite3 nests this as a savepoint inside an open transaction.
      db.transaction(() => {
        q.dropTerminalKeys.run(accountId, terminalId);
        q.insertTerminalKey.run(keyHash, accountId, terminalId, prefix, createdAt.getTime());
      })();
      return { accountId, terminalId, prefix, createdAt };
    },
    createApiKey(k) {
      const key: ApiKey = { id: newKeyId(), accountId: k.accountId, name: k.name, prefix: k.prefix, createdAt: new Date() };
      q.insertKey.run(k.keyHash, k.accountId, k.name, key.createdAt.getTime(), key.id, k.prefix);
      return key;
    },
    listApiKeys: (accountId) => q.keys.all(accountId).map(toKey),
    revokeApiKey: (accountId, id) => q.revokeKey.run(accountId, id).changes === 1,
    storeTokens(accountId, t) {
      q.insertAccess.run(t.accessHash, accountId, t.accessExpiresAt.getTime(), t.family);
      q.insertRefresh.run(t.refreshHash, accountId, t.refreshExpiresAt.getTime(), t.family);
    },
    takeRefreshToken(hash, now, newFamily) {
      // One write transaction (a savepoint inside the caller's): used up, or found used and its family revoked.
      return db.transaction((): RefreshTaken | undefined => {
        const fresh = q.useRefresh.get(now.getTime(), newFamily, hash, now.getTime());
        if (fresh) return { accountId: fresh.user_id, family: fresh.family };
        const family = q.usedFamily.get(hash);
        if (family === undefined) return undefined;
        q.revokeFamilyAccess.run(family);
        q.revokeFamilyRefresh.run(family);
        return 'reused';
      })();
    },
    revokeTokens: (accountId) => q.revokeAccess.run(accountId).changes + q.revokeRefresh.run(accountId).changes,
    purgeExpired: (now) => q.purgeAccess.run(now.getTime()).changes + q.purgeRefresh.run(now.getTime()).changes,
  };
}
