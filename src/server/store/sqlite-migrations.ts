// Numbered SQLite migrations, applied in order once each; never edit one that has shipped,
// add the next number instead.
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
];
