// An account's webhook log (GetLog) is read by index, never by walking or sorting everything the
// account has: the API probe's account with 300,000 delivered messages made each GetLog read and
// sort all its attempts (0.56 s on SQLite, whose one connection every other account waited on:
// their GetById went from 1.5 ms to 2.5–3.7 s). SQLite only (it plans without statistics, so its
// plan is the statement's own); migration 17 (PostgreSQL 13) added the indexes these plans use.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SQLITE } from '../../src/server/store/sqlite/dialect.js';
import { migrate } from '../../src/server/store/sqlite/migrate.js';
import { SQLITE_MIGRATIONS } from '../../src/server/store/sqlite-migrations.js';
import type { Exec } from '../../src/server/store/sql/exec.js';
import { render, type Sql } from '../../src/server/store/sql/statement.js';
import { webhooks } from '../../src/server/store/sql/webhooks.js';

/** The repository on `db`, with every statement it reads kept (text and values) to be explained. */
function recorded(db: Database.Database) {
  const statements: { text: string; values: unknown[] }[] = [];
  const x: Exec = {
    dialect: SQLITE,
    inTransaction: false,
    async all<R>(statement: Sql) {
      const r = render(statement, SQLITE);
      statements.push(r);
      return db.prepare(r.text).all(...r.values) as R[];
    },
    async run(statement: Sql) {
      const r = render(statement, SQLITE);
      return db.prepare(r.text).run(...r.values).changes;
    },
    write: async () => {},
    batch: async () => [],
    atomic: (fn) => fn(x),
  };
  return { repository: webhooks(x), statements };
}

const plan = (db: Database.Database, s: { text: string; values: unknown[] }) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${s.text}`).all(...s.values) as { detail: string }[]).map((r) => r.detail);

const user = (db: Database.Database, id: string) =>
  db.prepare("INSERT INTO users (id, email, name, password_hash, metadata, roles, created_at) VALUES (?, ?, 'n', 'h', '[]', '[]', 0)").run(id, `${id}@example.com`);
const message = (db: Database.Database, seq: number, userId: string, intentionId: number) => db.prepare(`INSERT INTO webhook_messages
  (seq, id, user_id, endpoint_id, target, url, event_type, intention_id, body, state, attempts, next_attempt_at, window_start, created_at)
  VALUES (?, ?, ?, 'wh_1', 'https://example.com', 'https://example.com/h', 'job.completed', ?, '{}', 'delivered', 1, 0, 0, 0)`).run(seq, `msg_${seq}`, userId, intentionId);

describe('GetLog on SQLite', () => {
  it('reads an account\'s messages and attempts by index, whatever it filters on: no table walked, no sort but of one job\'s or message\'s few attempts', async () => {
    const db = new Database(':memory:');
    migrate(db);
    const { repository, statements } = recorded(db);
    const filters = [{}, { intencaoImpressaoId: 7 }, { endpointId: 'wh_1' }, { messageId: 'msg_1' }];
    for (const f of filters) {
      statements.length = 0;
      await repository.listMessages('u1', { ...f, limit: 50 });
      await repository.listAttempts('u1', { ...f, limit: 50 });
      const [messages, attempts] = statements.map((s) => plan(db, s).join(' | '));
      expect(messages, JSON.stringify(f)).not.toMatch(/\bSCAN\b|TEMP B-TREE/);
      expect(attempts, JSON.stringify(f)).not.toMatch(/\bSCAN\b/);
      // Sorted only when found from one job's or one message's messages; else walked newest first,
      // on an index whose search holds every filter (a rare or unknown endpoint reads nothing else).
      if (!('intencaoImpressaoId' in f) && !('messageId' in f)) expect(attempts, JSON.stringify(f)).not.toMatch(/TEMP B-TREE/);
      if ('endpointId' in f) expect(attempts).toMatch(/^SEARCH a USING INDEX webhook_attempts_user_endpoint \(user_id=\? AND endpoint_id=\?\)/);
      if (Object.keys(f).length === 0) expect(attempts).toMatch(/^SEARCH a USING INDEX webhook_attempts_user \(user_id=\?\)/);
    }
    db.close();
  });

  it('keeps each account\'s log its own: migration 17 gives attempts made before it their message\'s account and endpoint', async () => {
    const db = new Database(':memory:');
    migrate(db, SQLITE_MIGRATIONS.filter((m) => m.version <= 16));
    user(db, 'u1');
    user(db, 'u2');
    message(db, 1, 'u1', 7);
    message(db, 2, 'u2', 8);
    const attempt = db.prepare('INSERT INTO webhook_attempts (message_seq, at, status_code, latency_ms) VALUES (?, ?, 204, 5)');
    attempt.run(1, 1000);
    attempt.run(2, 2000);
    migrate(db);
    expect(db.prepare('SELECT message_seq, user_id, endpoint_id FROM webhook_attempts ORDER BY id').all()).toEqual([
      { message_seq: 1, user_id: 'u1', endpoint_id: 'wh_1' }, { message_seq: 2, user_id: 'u2', endpoint_id: 'wh_1' },
    ]);
    const { repository } = recorded(db);
    expect((await repository.listAttempts('u1', { limit: 50 })).map((a) => a.messageId)).toEqual(['msg_1']);
    expect((await repository.listAttempts('u2', { limit: 50 })).map((a) => a.messageId)).toEqual(['msg_2']);
    expect(await repository.listAttempts('u2', { intencaoImpressaoId: 7, limit: 50 })).toEqual([]);
    expect((await repository.listAttempts('u1', { endpointId: 'wh_1', limit: 50 })).map((a) => a.messageId)).toEqual(['msg_1']);
    expect(await repository.listAttempts('u1', { endpointId: 'wh_2', limit: 50 })).toEqual([]);
    db.close();
  });
});
