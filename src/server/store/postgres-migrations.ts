// Numbered PostgreSQL migrations, applied in order once each under an advisory lock (see
// postgres/migrate.ts); never edit one that has shipped, add the next number instead.
// Version 1 is the whole schema the SQLite migrations 1–5 end with, in PostgreSQL form: times are
// BIGINT milliseconds since the epoch (as on SQLite, so both stores keep the same instants to the
// millisecond), bytes BYTEA, flags BOOLEAN. Tables listed "oldest first" get an identity `seq` to
// break ties between rows made in the same millisecond (SQLite's rowid).
// PostgreSQL text cannot hold U+0000, which a partner may send and must get back as sent: so the
// partner's free text (conteudo, referencia, a report's detalhe) is BYTEA holding UTF-8, and JSON
// that may quote it (diagnostics) is JSON, kept as written, not JSONB (which refuses \u0000).
// JSONB is kept where a query looks inside (motivos) or the values are bobina's own names.
import { WEBHOOK_LOG_BY_INDEX } from './migrations-both.js';
import type { Migration } from './sqlite-migrations.js';

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, terminals, credentials, intentions and their history, login counters, webhooks',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        email TEXT NOT NULL,
        name TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        metadata JSONB NOT NULL,
        roles JSONB NOT NULL,
        created_at BIGINT NOT NULL
      );
      -- E-mails are stored lower-cased; the index makes "taken" case-insensitive whatever a writer does.
      CREATE UNIQUE INDEX users_email ON users (lower(email));
      CREATE TABLE terminals (
        user_id TEXT NOT NULL REFERENCES users(id),
        terminal_id TEXT NOT NULL,
        printer_id INTEGER,
        enabled BOOLEAN NOT NULL,
        device TEXT,
        template_jobs BOOLEAN NOT NULL DEFAULT false,
        PRIMARY KEY (user_id, terminal_id)
      );
      CREATE TABLE api_keys (
        key_hash TEXT PRIMARY KEY,
        id TEXT NOT NULL,
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        user_id TEXT NOT NULL REFERENCES users(id),
        name TEXT NOT NULL,
        prefix TEXT,
        created_at BIGINT NOT NULL
      );
      CREATE UNIQUE INDEX api_keys_id ON api_keys(id);
      CREATE INDEX api_keys_user ON api_keys(user_id);
      CREATE TABLE access_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX access_tokens_user ON access_tokens(user_id);
      CREATE TABLE refresh_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);
      CREATE TABLE terminal_keys (
        key_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        terminal_id TEXT NOT NULL,
        prefix TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX terminal_keys_terminal ON terminal_keys(user_id, terminal_id);
      CREATE TABLE intentions (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        referencia BYTEA,
        conteudo BYTEA NOT NULL,
        terminal_id TEXT,
        impressora_id INTEGER NOT NULL,
        codigo_impressora TEXT NOT NULL,
        aguardar BOOLEAN NOT NULL,
        status TEXT NOT NULL,
        bytes BYTEA NOT NULL,
        diagnostics JSON NOT NULL,
        created_at BIGINT NOT NULL,
        estado TEXT NOT NULL DEFAULT 'queued',
        motivos JSONB NOT NULL DEFAULT '[]',
        tentativas INTEGER NOT NULL DEFAULT 0,
        confirmacao TEXT NOT NULL DEFAULT 'none',
        leased_to TEXT,
        lease_token TEXT,
        lease_expires_at BIGINT,
        expires_at BIGINT,
        reprint BOOLEAN NOT NULL DEFAULT false,
        url_callback TEXT
      );
      CREATE INDEX intentions_user ON intentions(user_id, id);
      CREATE INDEX intentions_queue ON intentions(user_id, estado, id);
      CREATE INDEX intentions_lease ON intentions(estado, lease_expires_at);
      CREATE INDEX intentions_expiry ON intentions(estado, expires_at);
      CREATE TABLE job_history (
        intention_id BIGINT NOT NULL REFERENCES intentions(id),
        seq INTEGER NOT NULL,
        estado TEXT NOT NULL,
        evento TEXT NOT NULL,
        motivos JSONB NOT NULL,
        origem TEXT NOT NULL,
        detalhe BYTEA,
        at BIGINT NOT NULL,
        PRIMARY KEY (intention_id, seq)
      );
      CREATE TABLE idempotency (
        user_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        status_code INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, key)
      );
      CREATE TABLE login_attempts (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        window_start BIGINT NOT NULL
      );
      CREATE INDEX login_attempts_window ON login_attempts(window_start);
      CREATE TABLE webhook_endpoints (
        id TEXT PRIMARY KEY,
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        user_id TEXT NOT NULL REFERENCES users(id),
        url TEXT NOT NULL,
        events JSONB NOT NULL,
        secrets JSONB NOT NULL,
        enabled BOOLEAN NOT NULL,
        disabled_reason TEXT,
        failing_since BIGINT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX webhook_endpoints_user ON webhook_endpoints(user_id, created_at);
      CREATE TABLE webhook_messages (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users(id),
        endpoint_id TEXT,
        target TEXT NOT NULL,
        url TEXT NOT NULL,
        event_type TEXT NOT NULL,
        intention_id BIGINT NOT NULL,
        body TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        next_attempt_at BIGINT NOT NULL,
        lease_until BIGINT,
        window_start BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        delivered_at BIGINT,
        last_error TEXT
      );
      CREATE INDEX webhook_messages_due ON webhook_messages(state, next_attempt_at);
      CREATE INDEX webhook_messages_leased ON webhook_messages(lease_until) WHERE lease_until IS NOT NULL;
      CREATE INDEX webhook_messages_user ON webhook_messages(user_id, seq);
      CREATE TABLE webhook_attempts (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        message_seq BIGINT NOT NULL REFERENCES webhook_messages(seq),
        at BIGINT NOT NULL,
        status_code INTEGER,
        latency_ms INTEGER NOT NULL,
        error TEXT
      );
      CREATE INDEX webhook_attempts_message ON webhook_attempts(message_seq, id);
    `,
  },
  {
    version: 2,
    name: 'an intention counts the reports it ignored (only the first few are kept in its history)',
    sql: `
      ALTER TABLE intentions ADD COLUMN ignored_reports INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 3,
    name: 'refresh-token families: a used refresh token is kept until it expires, and its reuse revokes its family',
    sql: `
      ALTER TABLE refresh_tokens ADD COLUMN family TEXT;
      ALTER TABLE refresh_tokens ADD COLUMN used_at BIGINT;
      ALTER TABLE access_tokens ADD COLUMN family TEXT;
      CREATE INDEX refresh_tokens_family ON refresh_tokens(family);
      CREATE INDEX access_tokens_family ON access_tokens(family);
    `,
  },
  {
    version: 4,
    name: "which tags are commands in an account's Inserts: 'all' or 'partner' (only the partner's eight)",
    sql: `
      ALTER TABLE users ADD COLUMN tags TEXT NOT NULL DEFAULT 'all';
    `,
  },
  {
    version: 5,
    name: 'an Idempotency-Key answer names the job it made; its body is fixed after the commit (empty until then)',
    sql: `
      ALTER TABLE idempotency ADD COLUMN intention_id BIGINT;
    `,
  },
  // Written beside other lanes' migrations of issue 23: migrate() applies whichever versions are
  // missing, in list order, so this one runs before or after theirs alike (it touches only
  // intentions' own columns and indexes).
  {
    version: 6,
    name: 'job lists (GetAll): keyset indexes on (created_at, id) per account and filter; explicit reprints (reprint_of, reprints)',
    sql: `
      ALTER TABLE intentions ADD COLUMN reprint_of BIGINT;
      ALTER TABLE intentions ADD COLUMN reprints INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX intentions_list ON intentions(user_id, created_at, id);
      -- Each carries the other's column last: estado and terminalId together are checked in the
      -- index, without reading a row for each job of the terminal (or in the state) passed over.
      CREATE INDEX intentions_list_estado ON intentions(user_id, estado, created_at, id, terminal_id);
      CREATE INDEX intentions_list_terminal ON intentions(user_id, terminal_id, created_at, id, estado);
      -- referencia is the partner's free text (UTF-8 BYTEA), of any length: a B-tree entry holds at
      -- most ~2.7 kB, so it is indexed by its first 64 bytes.
      CREATE INDEX intentions_list_referencia ON intentions(user_id, substr(referencia, 1, 64), created_at, id);
      CREATE INDEX intentions_created ON intentions(created_at, id);
    `,
  },
  // Written beside other lanes' migrations of issue 23 (job lists take SQLite 10 / PostgreSQL 6):
  // migrate() applies whichever versions are missing, in list order, so this one runs before or
  // after theirs alike (it adds its own tables and one users column).
  {
    version: 7,
    name: "fleet health: each terminal's last contact, agent version and printer status; the account's stuck-job threshold; the stuck jobs already announced",
    sql: `
      CREATE TABLE terminal_health (
        user_id TEXT NOT NULL REFERENCES users(id),
        terminal_id TEXT NOT NULL,
        online BOOLEAN NOT NULL,
        last_seen_at BIGINT,
        agent_version TEXT,
        printer_ready BOOLEAN,
        printer_reasons JSONB,
        printer_checked_at BIGINT,
        PRIMARY KEY (user_id, terminal_id)
      );
      CREATE INDEX terminal_health_online ON terminal_health(last_seen_at) WHERE online;
      ALTER TABLE users ADD COLUMN stuck_after_ms BIGINT;
      CREATE TABLE stuck_jobs (
        intention_id BIGINT PRIMARY KEY REFERENCES intentions(id),
        seq INTEGER NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: "an Idempotency-Key keeps what its answer is made from (the job as the Insert made it, its history then, the answer's time), stored with the job; earlier keys keep their body",
    sql: `
      -- JSON text, not JSONB: a partner's text in it may hold U+0000 (escaped), which JSONB refuses.
      ALTER TABLE idempotency ADD COLUMN answer TEXT;
    `,
  },
  {
    version: 9,
    name: "Idempotency-Key answers found by age, so that those past the keeping time are deleted",
    sql: `
      CREATE INDEX idempotency_created ON idempotency(created_at);
    `,
  },
  {
    version: 10,
    name: "a terminal's queue by its own index: a poll's look for a job, the claim and the printer check read the terminal's queued jobs, not every queued job of its account",
    sql: `
      CREATE INDEX intentions_terminal_queue ON intentions(user_id, terminal_id, estado, id);
    `,
  },
  {
    version: 11,
    name: "the webhook claim looks account by account and target by target when the longest-due messages are all of accounts or targets at their limit (an index of messages by state, account and target)",
    sql: `
      CREATE INDEX webhook_messages_pairs ON webhook_messages(state, user_id, target, next_attempt_at);
    `,
  },
  {
    version: 12,
    name: "an account's live sessions, newest first: a login finds the token families past the account's cap without reading every token it holds",
    sql: `
      -- A live family has one unused refresh token, whose expiry says when the family was last used.
      CREATE INDEX refresh_tokens_live ON refresh_tokens(user_id, expires_at, family) WHERE used_at IS NULL;
    `,
  },
  {
    version: 13,
    name: WEBHOOK_LOG_BY_INDEX.name,
    sql: `${WEBHOOK_LOG_BY_INDEX.sql}
      -- Instances of an earlier version, during a rolling upgrade, record attempts without their
      -- account and endpoint: taken from the message as such a row is written, or GetLog, which
      -- finds attempts by them, would never show it.
      CREATE FUNCTION webhook_attempt_owner() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF NEW.user_id IS NULL THEN
          SELECT m.user_id, m.endpoint_id INTO NEW.user_id, NEW.endpoint_id FROM webhook_messages m WHERE m.seq = NEW.message_seq;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER webhook_attempts_owner BEFORE INSERT ON webhook_attempts FOR EACH ROW EXECUTE FUNCTION webhook_attempt_owner();
    `,
  },
  {
    version: 14,
    name: "a job list's referencia filter by the whole reference, not its first 64 characters",
    sql: `
      -- referencia by its whole value, not its first 64 bytes: references sharing a longer prefix
      -- (URLs, namespaced order ids) made each lookup of one read all of them. A B-tree entry
      -- holds at most ~2.7 kB, so by the value's SHA-256 (the dialect's textKey). The index by the
      -- first 64 bytes stays while instances of an earlier version may still look references up
      -- by it (a rolling upgrade); a later migration drops it.
      CREATE INDEX intentions_list_referencia_whole ON intentions(user_id, sha256(referencia), created_at, id);
    `,
  },
];
