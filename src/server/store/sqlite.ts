// The embedded store: better-sqlite3 in WAL mode. Each call is one statement or one transaction,
// so an intention is committed before the handler answers.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';
import {
  DuplicateError,
  type IdempotentAnswer,
  type InsertOutcome,
  type Idempotency,
  type Intention,
  type NewIntention,
  type Store,
  type Terminal,
  type TokenPair,
  type User,
} from './types.js';

interface UserRow { id: string; email: string; name: string; password_hash: string; metadata: string; roles: string }
interface IntentionRow {
  id: number; user_id: string; referencia: string | null; conteudo: string; terminal_id: string | null;
  impressora_id: number; codigo_impressora: string; aguardar: number; status: string; bytes: Buffer;
  diagnostics: string; created_at: number;
}

export interface SqliteOptions {
  /** `NORMAL` (default) survives a process crash; `FULL` also survives power loss, at a cost per commit. */
  synchronous?: 'NORMAL' | 'FULL';
  /** Checkpoint the WAL from a worker thread (the server) rather than inline (short CLI runs). */
  backgroundCheckpoints?: boolean;
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const done = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  for (const m of SQLITE_MIGRATIONS) {
    if (done.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    })();
  }
}

const toUser = (r: UserRow): User => ({
  id: r.id, email: r.email, name: r.name, passwordHash: r.password_hash,
  metadata: JSON.parse(r.metadata), roles: JSON.parse(r.roles),
});

const toIntention = (r: IntentionRow): Intention => ({
  id: r.id, userId: r.user_id, referencia: r.referencia, conteudo: r.conteudo, terminalId: r.terminal_id,
  impressoraId: r.impressora_id, codigoImpressora: r.codigo_impressora, aguardarClienteIniciarImpressao: r.aguardar === 1,
  status: r.status, bytes: new Uint8Array(r.bytes), diagnostics: JSON.parse(r.diagnostics), createdAt: new Date(r.created_at),
});

export function openSqliteStore(file: string, options: SqliteOptions = {}): Store {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  let stopCheckpointer: (() => Promise<void>) | undefined;
  if (options.backgroundCheckpoints && file !== ':memory:') {
    db.pragma('wal_autocheckpoint = 0');
    stopCheckpointer = startCheckpointer(file);
  }

  const q = {
    insertUser: db.prepare('INSERT INTO users (id, email, name, password_hash, metadata, roles, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    userByEmail: db.prepare('SELECT * FROM users WHERE email = ?'),
    userById: db.prepare('SELECT * FROM users WHERE id = ?'),
    putTerminal: db.prepare('INSERT OR REPLACE INTO terminals (user_id, terminal_id, printer_id, enabled) VALUES (?, ?, ?, ?)'),
    terminal: db.prepare('SELECT * FROM terminals WHERE user_id = ? AND terminal_id = ?'),
    insertKey: db.prepare('INSERT INTO api_keys (key_hash, user_id, name, created_at) VALUES (?, ?, ?, ?)'),
    insertAccess: db.prepare('INSERT INTO access_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)'),
    insertRefresh: db.prepare('INSERT INTO refresh_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)'),
    access: db.prepare('SELECT user_id FROM access_tokens WHERE token_hash = ? AND expires_at > ?').pluck(),
    apiKey: db.prepare('SELECT user_id FROM api_keys WHERE key_hash = ?').pluck(),
    takeRefresh: db.prepare('DELETE FROM refresh_tokens WHERE token_hash = ? AND expires_at > ? RETURNING user_id').pluck(),
    purgeTokens: db.prepare('DELETE FROM access_tokens WHERE expires_at <= ?'),
    insertIntention: db.prepare(`INSERT INTO intentions (user_id, referencia, conteudo, terminal_id, impressora_id, codigo_impressora,
      aguardar, status, bytes, diagnostics, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    intention: db.prepare('SELECT * FROM intentions WHERE id = ? AND user_id = ?'),
    insertIdem: db.prepare('INSERT INTO idempotency (user_id, key, request_hash, status_code, body, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
    idem: db.prepare('SELECT request_hash, status_code, body FROM idempotency WHERE user_id = ? AND key = ?'),
  };

  const storeTokens = (userId: string, t: TokenPair) => {
    q.insertAccess.run(t.accessHash, userId, t.accessExpiresAt.getTime());
    q.insertRefresh.run(t.refreshHash, userId, t.refreshExpiresAt.getTime());
  };
  const rotate = db.transaction((refreshHash: string, next: TokenPair, now: number) => {
    const userId = q.takeRefresh.get(refreshHash, now) as string | undefined;
    if (userId === undefined) return undefined;
    storeTokens(userId, next);
    q.purgeTokens.run(now);
    return userId;
  });
  const insert = db.transaction((i: NewIntention, idem?: Idempotency): InsertOutcome => {
    // Checked again inside the transaction: two concurrent requests with one key insert once.
    const prior = idem && (q.idem.get(i.userId, idem.key) as { request_hash: string; status_code: number; body: string } | undefined);
    if (prior) return { existing: { requestHash: prior.request_hash, statusCode: prior.status_code, body: prior.body } };
    const { lastInsertRowid } = q.insertIntention.run(
      i.userId, i.referencia, i.conteudo, i.terminalId, i.impressoraId, i.codigoImpressora,
      i.aguardarClienteIniciarImpressao ? 1 : 0, i.status, Buffer.from(i.bytes), JSON.stringify(i.diagnostics), i.createdAt.getTime(),
    );
    const intention: Intention = { ...i, id: Number(lastInsertRowid) };
    if (!idem) return { intention };
    const body = idem.body(intention);
    q.insertIdem.run(i.userId, idem.key, idem.requestHash, idem.statusCode, body, Date.now());
    return { intention, body };
  });

  return {
    async createUser(u) {
      const user: User = { ...u, id: randomUUID(), email: u.email.toLowerCase() };
      try {
        q.insertUser.run(user.id, user.email, user.name, user.passwordHash, JSON.stringify(user.metadata), JSON.stringify(user.roles), Date.now());
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateError(`a user with e-mail ${user.email} already exists`);
        throw err;
      }
      return user;
    },
    async findUserByEmail(email) {
      const r = q.userByEmail.get(email.toLowerCase()) as UserRow | undefined;
      return r && toUser(r);
    },
    async findUserById(id) {
      const r = q.userById.get(id) as UserRow | undefined;
      return r && toUser(r);
    },
    async putTerminal(t: Terminal) {
      q.putTerminal.run(t.userId, t.terminalId, t.printerId, t.enabled ? 1 : 0);
    },
    async findTerminal(userId, terminalId) {
      const r = q.terminal.get(userId, terminalId) as { user_id: string; terminal_id: string; printer_id: number; enabled: number } | undefined;
      return r && { userId: r.user_id, terminalId: r.terminal_id, printerId: r.printer_id, enabled: r.enabled === 1 };
    },
    async createApiKey(userId, name, keyHash) {
      q.insertKey.run(keyHash, userId, name, Date.now());
    },
    async createTokens(userId, tokens) {
      db.transaction(() => storeTokens(userId, tokens))();
    },
    async authenticate(hash, now) {
      return (q.access.get(hash, now.getTime()) as string | undefined) ?? (q.apiKey.get(hash) as string | undefined);
    },
    async rotateRefresh(refreshHash, next, now) {
      return rotate(refreshHash, next, now.getTime());
    },
    async insertIntention(i, idem) {
      return insert(i, idem);
    },
    async getIntention(userId, id) {
      const r = q.intention.get(id, userId) as IntentionRow | undefined;
      return r && toIntention(r);
    },
    async findIdempotent(userId, key): Promise<IdempotentAnswer | undefined> {
      const r = q.idem.get(userId, key) as { request_hash: string; status_code: number; body: string } | undefined;
      return r && { requestHash: r.request_hash, statusCode: r.status_code, body: r.body };
    },
    async close() {
      await stopCheckpointer?.();
      db.close();
    },
  };
}
