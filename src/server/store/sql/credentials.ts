// credentials: API keys, access tokens and refresh tokens, stored only as sha256 hashes.
import { randomBytes } from 'node:crypto';
import type { CredentialRepository } from '../repositories.js';
import type { ApiKey, TokenPair } from '../types.js';
import { tagSet } from './accounts.js';
import { asTime, Table } from './columns.js';
import { lock, one, type Exec } from './exec.js';
import { sql, type Sql } from './statement.js';

const KEY = new Table<ApiKey>({ id: 'id', accountId: 'user_id', name: 'name', prefix: 'prefix', createdAt: ['created_at', asTime] });
/** …as stored: with the hash of the key, which is never read back. */
const KEY_ROW = new Table<ApiKey & { keyHash: string }>({ ...KEY.columns, keyHash: 'key_hash' });
/** An access or a refresh token as written (both tables have these columns). */
const TOKEN = new Table<{ hash: string; accountId: string; expiresAt: Date; family: TokenPair['family'] }>({
  hash: 'token_hash', accountId: 'user_id', expiresAt: ['expires_at', asTime], family: 'family',
});

/** Key ids are shown to operators and typed back (`bobina keys revoke --id`): short, random, never derived from the key. */
const newKeyId = () => `key_${randomBytes(6).toString('hex')}`;

const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

/**
 * The account's families other than `family` past the `keep - 1` used most recently, at most
 * `keep` of them. A live family has exactly one unused refresh token, whose expiry is its last
 * login or refresh plus the refresh lifetime: read newest first on refresh_tokens_live (user_id,
 * expires_at, family, of unused tokens only), so each of a login's two deletes reads at most
 * 2 × `keep` index entries however many tokens the account has. An account further past its cap
 * (sessions made before there was one, or a cap lowered) loses the `keep` next after the newest at
 * each login or refresh, so it comes down to the cap over a few; expired ones are purgeExpired's.
 * `family` itself is left out, so that the batch's other statements (its insert) change nothing
 * this picks: on PostgreSQL they all see one snapshot.
 */
const pastCap = (accountId: string, family: string, keep: number) => sql`family IN (SELECT family FROM refresh_tokens
  WHERE user_id = ${accountId} AND used_at IS NULL AND family <> ${family} ORDER BY expires_at DESC, family DESC LIMIT ${keep} OFFSET ${keep - 1})`;

/**
 * Of `family`, before a pair of it is stored, the access tokens past the `keep - 1` newest (with the
 * new one, `keep`) and the used refresh tokens past the `keep` newest (the one just used among
 * them), deleted: every rotation keeps one more of each, so a client refreshing in a loop cannot
 * grow its family. Never more than `keep` + 1 of either are read (on the family indexes). The used
 * refresh tokens kept are what a reuse is recognised by; one older than them is only unknown (401,
 * its family kept).
 */
const trimming = (family: string, keep: number) => [
  sql`DELETE FROM access_tokens WHERE family = ${family} AND token_hash NOT IN
    (SELECT token_hash FROM access_tokens WHERE family = ${family} ORDER BY expires_at DESC LIMIT ${keep - 1})`,
  sql`DELETE FROM refresh_tokens WHERE family = ${family} AND used_at IS NOT NULL AND token_hash NOT IN
    (SELECT token_hash FROM refresh_tokens WHERE family = ${family} AND used_at IS NOT NULL ORDER BY used_at DESC LIMIT ${keep})`,
];

export function credentials(x: Exec): CredentialRepository {
  const d = x.dialect;
  /** Access and refresh tokens are revoked together: the rows `where` picks in each table. */
  const revoking = (where: Sql) => [sql`DELETE FROM access_tokens WHERE ${where}`, sql`DELETE FROM refresh_tokens WHERE ${where}`];
  /** …deleted at once (how many in each). */
  const revoke = (where: Sql) => x.batch(revoking(where));
  return {
    async authenticate(hash, now) {
      // Every request asks this: one statement, in order: an access token, an API key, a terminal key; with the account's tag set.
      const r = await one<{ user_id: string; terminal_id: string | null; tags: string }>(x, sql`SELECT k.user_id, k.terminal_id, u.tags FROM (
          SELECT user_id, NULL AS terminal_id, 1 AS kind FROM access_tokens WHERE token_hash = ${hash} AND expires_at > ${now}
          UNION ALL SELECT user_id, NULL, 2 FROM api_keys WHERE key_hash = ${hash}
          UNION ALL SELECT user_id, terminal_id, 3 FROM terminal_keys WHERE key_hash = ${hash}
        ) k JOIN users u ON u.id = k.user_id ORDER BY k.kind LIMIT 1`);
      if (!r) return undefined;
      return r.terminal_id === null ? { kind: 'account', accountId: r.user_id, tags: tagSet(r.tags) } : { kind: 'terminal', accountId: r.user_id, terminalId: r.terminal_id };
    },
    async setTerminalKey(accountId, terminalId, keyHash, prefix) {
      const createdAt = new Date();
      await x.batch([
        sql`DELETE FROM terminal_keys WHERE user_id = ${accountId} AND terminal_id = ${terminalId}`,
        sql`INSERT INTO terminal_keys (key_hash, user_id, terminal_id, prefix, created_at) VALUES (${keyHash}, ${accountId}, ${terminalId}, ${prefix}, ${createdAt})`,
      ]);
      return { accountId, terminalId, prefix, createdAt };
    },
    async createApiKey(k) {
      const key: ApiKey = { id: newKeyId(), accountId: k.accountId, name: k.name, prefix: k.prefix, createdAt: new Date() };
      await x.run(sql`INSERT INTO api_keys ${KEY_ROW.insert({ ...key, keyHash: k.keyHash })}`);
      return key;
    },
    listApiKeys: (accountId) => KEY.all(x, sql`SELECT ${KEY.select()} FROM api_keys WHERE user_id = ${accountId} ORDER BY created_at, ${d.insertOrder}`),
    revokeApiKey: async (accountId, id) => (await x.run(sql`DELETE FROM api_keys WHERE user_id = ${accountId} AND id = ${id}`)) === 1,
    storeTokens(accountId, t, limits) {
      // Under a lock on the account's sessions (SQLite: the write transaction), so two logins at
      // once neither both miss the cap nor revoke the same families in two orders (a deadlock).
      return x.atomic(async (tx) => {
        await lock(tx, 'sessions', accountId);
        await tx.batch([
          ...trimming(t.family, limits.tokensPerSession),
          sql`INSERT INTO access_tokens ${TOKEN.insert({ hash: t.accessHash, accountId, expiresAt: t.accessExpiresAt, family: t.family })}`,
          sql`INSERT INTO refresh_tokens ${TOKEN.insert({ hash: t.refreshHash, accountId, expiresAt: t.refreshExpiresAt, family: t.family })}`,
          ...revoking(pastCap(accountId, t.family, limits.sessions)),
        ]);
      });
    },
    takeRefreshToken(hash, now, newFamily) {
      // Under its account's sessions lock, taken before any of its rows (as storeTokens takes it):
      // a login revoking this family meanwhile and this rotation never wait for each other in turn.
      return x.atomic(async (t) => {
        const owner = await one<{ user_id: string }>(t, sql`SELECT user_id FROM refresh_tokens WHERE token_hash = ${hash}`);
        if (!owner) return undefined;
        await lock(t, 'sessions', owner.user_id);
        // Used up only if unused (of two at once, one wins)…
        const fresh = await one<{ user_id: string; family: string }>(t, sql`UPDATE refresh_tokens SET used_at = ${now}, family = COALESCE(family, ${newFamily})
          WHERE token_hash = ${hash} AND used_at IS NULL AND expires_at > ${now} RETURNING user_id, family`);
        if (fresh) return { accountId: fresh.user_id, family: fresh.family };
        // …else, if it was used before, its family revoked: it is one of them (a second reuse finds nothing left).
        const [, refresh] = await t.batch(revoking(sql`family IN (SELECT family FROM refresh_tokens WHERE token_hash = ${hash} AND used_at IS NOT NULL)`));
        return refresh! > 0 ? 'reused' : undefined;
      });
    },
    revokeTokens: async (accountId) => sum(await revoke(sql`user_id = ${accountId}`)),
    purgeExpired: async (now) => sum(await revoke(sql`expires_at <= ${now}`)),
  };
}
