// Migrations whose statements are the same on SQLite and PostgreSQL, written once: each backend's
// list (sqlite-migrations.ts, postgres-migrations.ts) takes them at its own number.
import type { Migration } from './sqlite-migrations.js';

export const WEBHOOK_LOG_BY_INDEX: Omit<Migration, 'version'> = {
  name: "an account's webhook log (GetLog) by index: attempts by account, and by account and endpoint; messages by account and job, and by account and endpoint",
  sql: `
    -- An account's webhook log read from its own newest attempts and messages (indexes), not by
    -- sorting every attempt of all its messages: each attempt names its account and endpoint
    -- (older ones take them from their message here), and messages are found by job and by
    -- endpoint within an account.
    ALTER TABLE webhook_attempts ADD COLUMN user_id TEXT;
    ALTER TABLE webhook_attempts ADD COLUMN endpoint_id TEXT;
    UPDATE webhook_attempts SET (user_id, endpoint_id) =
      (SELECT m.user_id, m.endpoint_id FROM webhook_messages m WHERE m.seq = webhook_attempts.message_seq);
    CREATE INDEX webhook_attempts_user ON webhook_attempts(user_id, id);
    CREATE INDEX webhook_attempts_user_endpoint ON webhook_attempts(user_id, endpoint_id, id);
    CREATE INDEX webhook_messages_user_intention ON webhook_messages(user_id, intention_id, seq);
    CREATE INDEX webhook_messages_user_endpoint ON webhook_messages(user_id, endpoint_id, seq);
  `,
};
