// Numbered SQLite migrations, applied in order once each, under a write lock (see
// sqlite/migrate.ts); never edit one that has shipped, add the next number instead.
import { WEBHOOK_LOG_BY_INDEX } from './migrations-both.js';

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
  {
    version: 4,
    name: 'delivery: job states, history, leases; terminals without printer, with a device or taking template jobs; terminal keys',
    sql: `
      ALTER TABLE intentions ADD COLUMN estado TEXT NOT NULL DEFAULT 'queued';
      ALTER TABLE intentions ADD COLUMN motivos TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE intentions ADD COLUMN tentativas INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE intentions ADD COLUMN confirmacao TEXT NOT NULL DEFAULT 'none';
      ALTER TABLE intentions ADD COLUMN leased_to TEXT;
      ALTER TABLE intentions ADD COLUMN lease_token TEXT;
      ALTER TABLE intentions ADD COLUMN lease_expires_at INTEGER;
      ALTER TABLE intentions ADD COLUMN expires_at INTEGER;
      ALTER TABLE intentions ADD COLUMN reprint INTEGER NOT NULL DEFAULT 0;
      -- Intentions recorded before delivery existed were never printed: they keep their status,
      -- and the ones waiting expire a day after they were made instead of printing now.
      UPDATE intentions SET estado = CASE status WHEN 'Impresso' THEN 'completed' ELSE 'queued' END,
        expires_at = created_at + 86400000;
      CREATE INDEX intentions_queue ON intentions(user_id, estado, id);
      CREATE INDEX intentions_lease ON intentions(estado, lease_expires_at);
      CREATE INDEX intentions_expiry ON intentions(estado, expires_at);
      CREATE TABLE job_history (
        intention_id INTEGER NOT NULL REFERENCES intentions(id),
        seq INTEGER NOT NULL,
        estado TEXT NOT NULL,
        evento TEXT NOT NULL,
        motivos TEXT NOT NULL,
        origem TEXT NOT NULL,
        detalhe TEXT,
        at INTEGER NOT NULL,
        PRIMARY KEY (intention_id, seq)
      );
      INSERT INTO job_history (intention_id, seq, estado, evento, motivos, origem, detalhe, at)
        SELECT id, 1, estado, 'insert', '[]', 'server', NULL, created_at FROM intentions;
      CREATE TABLE terminals_v4 (
        user_id TEXT NOT NULL REFERENCES users(id),
        terminal_id TEXT NOT NULL,
        printer_id INTEGER,
        enabled INTEGER NOT NULL,
        device TEXT,
        template_jobs INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, terminal_id)
      );
      INSERT INTO terminals_v4 (user_id, terminal_id, printer_id, enabled) SELECT user_id, terminal_id, printer_id, enabled FROM terminals;
      DROP TABLE terminals;
      ALTER TABLE terminals_v4 RENAME TO terminals;
      CREATE TABLE terminal_keys (
        key_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        terminal_id TEXT NOT NULL,
        prefix TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX terminal_keys_terminal ON terminal_keys(user_id, terminal_id);
    `,
  },
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
  {
    version: 6,
    name: 'an intention counts the reports it ignored (only the first few are kept in its history)',
    sql: `
      ALTER TABLE intentions ADD COLUMN ignored_reports INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 7,
    name: 'refresh-token families: a used refresh token is kept until it expires, and its reuse revokes its family',
    sql: `
      ALTER TABLE refresh_tokens ADD COLUMN family TEXT;
      ALTER TABLE refresh_tokens ADD COLUMN used_at INTEGER;
      ALTER TABLE access_tokens ADD COLUMN family TEXT;
      CREATE INDEX refresh_tokens_family ON refresh_tokens(family);
      CREATE INDEX access_tokens_family ON access_tokens(family);
    `,
  },
  {
    version: 8,
    name: "which tags are commands in an account's Inserts: 'all' or 'partner' (only the partner's eight)",
    sql: `
      ALTER TABLE users ADD COLUMN tags TEXT NOT NULL DEFAULT 'all';
    `,
  },
  {
    version: 9,
    name: 'an Idempotency-Key answer names the job it made; its body is fixed after the commit (empty until then)',
    sql: `
      ALTER TABLE idempotency ADD COLUMN intention_id INTEGER;
    `,
  },
  // Written beside other lanes' migrations of issue 23: migrate() applies whichever versions are
  // missing, in list order, so this one runs before or after theirs alike (it touches only
  // intentions' own columns and indexes).
  {
    version: 10,
    name: 'job lists (GetAll): keyset indexes on (created_at, id) per account and filter; explicit reprints (reprint_of, reprints)',
    sql: `
      ALTER TABLE intentions ADD COLUMN reprint_of INTEGER;
      ALTER TABLE intentions ADD COLUMN reprints INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX intentions_list ON intentions(user_id, created_at, id);
      -- Each carries the other's column last: estado and terminalId together are checked in the
      -- index, without reading a row for each job of the terminal (or in the state) passed over.
      CREATE INDEX intentions_list_estado ON intentions(user_id, estado, created_at, id, terminal_id);
      CREATE INDEX intentions_list_terminal ON intentions(user_id, terminal_id, created_at, id, estado);
      -- referencia is the partner's free text, of any length: indexed by its first 64 characters.
      CREATE INDEX intentions_list_referencia ON intentions(user_id, substr(referencia, 1, 64), created_at, id);
      CREATE INDEX intentions_created ON intentions(created_at, id);
    `,
  },
  // Written beside other lanes' migrations of issue 23 (job lists take SQLite 10 / PostgreSQL 6):
  // migrate() applies whichever versions are missing, in list order, so this one runs before or
  // after theirs alike (it adds its own tables and one users column).
  {
    version: 11,
    name: "fleet health: each terminal's last contact, agent version and printer status; the account's stuck-job threshold; the stuck jobs already announced",
    sql: `
      CREATE TABLE terminal_health (
        user_id TEXT NOT NULL REFERENCES users(id),
        terminal_id TEXT NOT NULL,
        online INTEGER NOT NULL,
        last_seen_at INTEGER,
        agent_version TEXT,
        printer_ready INTEGER,
        printer_reasons TEXT,
        printer_checked_at INTEGER,
        PRIMARY KEY (user_id, terminal_id)
      );
      CREATE INDEX terminal_health_online ON terminal_health(last_seen_at) WHERE online = 1;
      ALTER TABLE users ADD COLUMN stuck_after_ms INTEGER;
      CREATE TABLE stuck_jobs (
        intention_id INTEGER PRIMARY KEY REFERENCES intentions(id),
        seq INTEGER NOT NULL
      );
    `,
  },
  {
    version: 12,
    name: "an Idempotency-Key keeps what its answer is made from (the job as the Insert made it, its history then, the answer's time), stored with the job; earlier keys keep their body",
    sql: `
      ALTER TABLE idempotency ADD COLUMN answer TEXT;
    `,
  },
  {
    version: 13,
    name: "Idempotency-Key answers found by age, so that those past the keeping time are deleted",
    sql: `
      CREATE INDEX idempotency_created ON idempotency(created_at);
    `,
  },
  {
    version: 14,
    name: "a terminal's queue by its own index: a poll's look for a job, the claim and the printer check read the terminal's queued jobs, not every queued job of its account",
    sql: `
      CREATE INDEX intentions_terminal_queue ON intentions(user_id, terminal_id, estado, id);
    `,
  },
  {
    version: 15,
    name: "the webhook claim looks account by account and target by target when the longest-due messages are all of accounts or targets at their limit (an index of messages by state, account and target)",
    sql: `
      CREATE INDEX webhook_messages_pairs ON webhook_messages(state, user_id, target, next_attempt_at);
    `,
  },
  {
    version: 16,
    name: "an account's live sessions, newest first: a login finds the token families past the account's cap without reading every token it holds",
    sql: `
      -- A live family has one unused refresh token, whose expiry says when the family was last used.
      CREATE INDEX refresh_tokens_live ON refresh_tokens(user_id, expires_at, family) WHERE used_at IS NULL;
    `,
  },
  { version: 17, ...WEBHOOK_LOG_BY_INDEX },
  {
    version: 18,
    name: "a job list's referencia filter by the whole reference, not its first 64 characters",
    sql: `
      -- referencia by its whole value, not its first 64 characters: references sharing a longer
      -- prefix (URLs, namespaced order ids) made each lookup of one read all of them. SQLite keys
      -- may be of any length.
      CREATE INDEX intentions_list_referencia_whole ON intentions(user_id, referencia, created_at, id);
      DROP INDEX intentions_list_referencia;
    `,
  },
];
