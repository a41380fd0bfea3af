// Numbered SQLite migrations, applied in order once each, under a write lock (see
// sqlite/migrate.ts); never edit one that has shipped, add the next number instead.
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, terminals, credentials, intentions',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        metadata TEXT NOT NULL,
        roles TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE terminals (
        user_id TEXT NOT NULL REFERENCES users(id),
        terminal_id TEXT NOT NULL,
        printer_id INTEGER NOT NULL,
        enabled INTEGER NOT NULL,
        PRIMARY KEY (user_id, terminal_id)
      );
      CREATE TABLE api_keys (
        key_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE access_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE refresh_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE intentions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL REFERENCES users(id),
        referencia TEXT,
        conteudo TEXT NOT NULL,
        terminal_id TEXT,
        impressora_id INTEGER NOT NULL,
        codigo_impressora TEXT NOT NULL,
        aguardar INTEGER NOT NULL,
        status TEXT NOT NULL,
        bytes BLOB NOT NULL,
        diagnostics TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX intentions_user ON intentions(user_id, id);
      CREATE TABLE idempotency (
        user_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        status_code INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, key)
      );
    `,
  },
  {
    version: 2,
    name: 'failed-login counters kept in the store',
    sql: `
      CREATE TABLE login_attempts (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        window_start INTEGER NOT NULL
      );
      CREATE INDEX login_attempts_window ON login_attempts(window_start);
    `,
  },
  {
    version: 3,
    name: 'API keys get an id and a shown prefix',
    sql: `
      ALTER TABLE api_keys ADD COLUMN id TEXT;
      ALTER TABLE api_keys ADD COLUMN prefix TEXT;
      UPDATE api_keys SET id = 'key_' || lower(hex(randomblob(6))) WHERE id IS NULL;
      CREATE UNIQUE INDEX api_keys_id ON api_keys(id);
      CREATE INDEX api_keys_user ON api_keys(user_id);
      CREATE INDEX access_tokens_user ON access_tokens(user_id);
      CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);
    `,
  },
  // 4 is delivery's (job states and history); this one uses none of its tables, so either order works.
  {
    version: 5,
    name: 'webhook endpoints, outbox and attempts; an intention keeps its urlCallback',
    sql: `
      ALTER TABLE intentions ADD COLUMN url_callback TEXT;
      CREATE TABLE webhook_endpoints (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        secrets TEXT NOT NULL,
        enabled INTEGER NOT NULL,
        disabled_reason TEXT,
        failing_since INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX webhook_endpoints_user ON webhook_endpoints(user_id, created_at);
      CREATE TABLE webhook_messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users(id),
        endpoint_id TEXT,
        target TEXT NOT NULL,
        url TEXT NOT NULL,
        event_type TEXT NOT NULL,
        intention_id INTEGER NOT NULL,
        body TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        lease_until INTEGER,
        window_start INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        delivered_at INTEGER,
        last_error TEXT
      );
      CREATE INDEX webhook_messages_due ON webhook_messages(state, next_attempt_at);
      CREATE INDEX webhook_messages_leased ON webhook_messages(lease_until) WHERE lease_until IS NOT NULL;
      CREATE INDEX webhook_messages_user ON webhook_messages(user_id, seq);
      CREATE TABLE webhook_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        message_seq INTEGER NOT NULL REFERENCES webhook_messages(seq),
        at INTEGER NOT NULL,
        status_code INTEGER,
        latency_ms INTEGER NOT NULL,
        error TEXT
      );
      CREATE INDEX webhook_attempts_message ON webhook_attempts(message_seq, id);
    `,
  },
];
