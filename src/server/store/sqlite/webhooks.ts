// webhooks: per-account endpoints, the outbox (webhook_messages, one row per event and target)
// and the attempts made at each message. A message's `target` is the origin it is posted to
// (outbox.ts): the unit of ordering and of concurrency (at most perTarget in flight per target).
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { WebhookRepository } from '../repositories.js';
import type { ClaimedWebhookMessage, NewWebhookEndpoint, WebhookEndpoint, WebhookSecret } from '../types.js';
import type { Sync } from './bind.js';
import { date, endpointRefusal, rotatedSecrets, toAttempt, toMessage, type AttemptRow, type MessageRow } from '../webhook-rows.js';

interface EndpointRow {
  id: string; user_id: string; url: string; events: string; secrets: string; enabled: number;
  disabled_reason: string | null; failing_since: number | null; created_at: number;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id, accountId: r.user_id, url: r.url, events: JSON.parse(r.events),
  secrets: (JSON.parse(r.secrets) as Array<{ secret: string; expiresAt: number | null }>).map((s) => ({ secret: s.secret, expiresAt: date(s.expiresAt) })),
  enabled: r.enabled === 1, disabledReason: r.disabled_reason, failingSince: date(r.failing_since), createdAt: new Date(r.created_at),
});

const secretsJson = (secrets: readonly WebhookSecret[]) => JSON.stringify(secrets.map((s) => ({ secret: s.secret, expiresAt: s.expiresAt?.getTime() ?? null })));

export function sqliteWebhooks(db: Database.Database): Sync<WebhookRepository> {
  const q = {
    insertEndpoint: db.prepare(`INSERT INTO webhook_endpoints (id, user_id, url, events, secrets, enabled, disabled_reason, failing_since, created_at)
      VALUES (?, ?, ?, ?, ?, 1, NULL, NULL, ?)`),
    endpoints: db.prepare<[string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE user_id = ? ORDER BY created_at, rowid'),
    endpoint: db.prepare<[string, string], EndpointRow>('SELECT * FROM webhook_endpoints WHERE user_id = ? AND id = ?'),
    urls: db.prepare<[string], { id: string; url: string }>('SELECT id, url FROM webhook_endpoints WHERE user_id = ?'),
    deleteEndpoint: db.prepare('DELETE FROM webhook_endpoints WHERE user_id = ? AND id = ?'),
    orphan: db.prepare("UPDATE webhook_messages SET state = 'dead', lease_until = NULL, last_error = 'endpoint removed' WHERE user_id = ? AND endpoint_id = ? AND state = 'pending'"),
    setEnabled: db.prepare('UPDATE webhook_endpoints SET enabled = ?, disabled_reason = ?, failing_since = CASE WHEN ? = 1 THEN NULL ELSE failing_since END WHERE user_id = ? AND id = ?'),
    setSecrets: db.prepare('UPDATE webhook_endpoints SET secrets = ? WHERE user_id = ? AND id = ?'),
    setFailing: db.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE user_id = ? AND id = ?'),
    enqueue: db.prepare(`INSERT INTO webhook_messages (id, user_id, endpoint_id, target, url, event_type, intention_id, body, state, attempts,
      next_attempt_at, lease_until, window_start, created_at, delivered_at, last_error)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, ?, NULL, NULL)`),
    // The oldest due messages of each target, up to `perTarget` in flight per target counting
    // those already leased, for an enabled endpoint (or a callback address). Only the 128 longest
    // due are ranked, so a claim costs the same however long the backlog is.
    claim: db.prepare<{ now: number; lease: number; limit: number; perTarget: number }, MessageRow>(`
      WITH busy AS (
        SELECT target, COUNT(*) AS n FROM webhook_messages WHERE lease_until > @now GROUP BY target
      ), due AS (
        SELECT seq, target, endpoint_id FROM webhook_messages
        WHERE state = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until <= @now)
        ORDER BY next_attempt_at LIMIT 128
      ), ranked AS (
        SELECT due.seq, due.target, ROW_NUMBER() OVER (PARTITION BY due.target ORDER BY due.seq) AS r
        FROM due LEFT JOIN webhook_endpoints e ON e.id = due.endpoint_id
        WHERE due.endpoint_id IS NULL OR e.enabled = 1
      )
      UPDATE webhook_messages SET lease_until = @lease
      WHERE seq IN (
        SELECT ranked.seq FROM ranked LEFT JOIN busy ON busy.target = ranked.target
        WHERE ranked.r <= @perTarget - COALESCE(busy.n, 0) ORDER BY ranked.seq LIMIT @limit
      )
      RETURNING *`),
    attempt: db.prepare('INSERT INTO webhook_attempts (message_seq, at, status_code, latency_ms, error) VALUES (?, ?, ?, ?, ?)'),
    outcome: db.prepare(`UPDATE webhook_messages SET state = @state, attempts = attempts + 1, lease_until = NULL,
      next_attempt_at = COALESCE(@next, next_attempt_at), delivered_at = COALESCE(@delivered, delivered_at), last_error = @error
      WHERE seq = @seq AND lease_until = @lease AND state = 'pending'`),
    replay: db.prepare<[number, number, string, string], MessageRow>(`UPDATE webhook_messages SET state = 'pending', next_attempt_at = ?, window_start = ?, lease_until = NULL,
      attempts = 0 WHERE user_id = ? AND id = ? RETURNING *`),
    message: db.prepare<[string, string], MessageRow>('SELECT * FROM webhook_messages WHERE user_id = ? AND id = ?'),
    messages: db.prepare<{ user: string; endpoint: string | null; intention: number | null; limit: number }, MessageRow>(`
      SELECT * FROM webhook_messages WHERE user_id = @user AND (@endpoint IS NULL OR endpoint_id = @endpoint)
        AND (@intention IS NULL OR intention_id = @intention) ORDER BY seq DESC LIMIT @limit`),
    attempts: db.prepare<{ user: string; endpoint: string | null; intention: number | null; message: string | null; limit: number }, AttemptRow>(`
      SELECT m.id, m.endpoint_id, m.url, m.event_type, m.intention_id, m.state, a.at, a.status_code, a.latency_ms, a.error
      FROM webhook_attempts a JOIN webhook_messages m ON m.seq = a.message_seq
      WHERE m.user_id = @user AND (@endpoint IS NULL OR m.endpoint_id = @endpoint)
        AND (@intention IS NULL OR m.intention_id = @intention) AND (@message IS NULL OR m.id = @message)
      ORDER BY a.id DESC LIMIT @limit`),
  };
  const seqOf = db.prepare<[string], { seq: number }>('SELECT seq FROM webhook_messages WHERE id = ?');

  // Checked and written in one write transaction (IMMEDIATE: another process waits), or within the caller's.
  const createEndpoint = db.transaction((e: NewWebhookEndpoint, max: number) => {
    const refused = endpointRefusal(q.urls.all(e.accountId), e.url, max);
    if (refused) return refused;
    const endpoint: WebhookEndpoint = {
      id: `wh_${randomBytes(9).toString('base64url')}`, accountId: e.accountId, url: e.url, events: [...e.events],
      secrets: [{ secret: e.secret, expiresAt: null }], enabled: true, disabledReason: null, failingSince: null, createdAt: new Date(),
    };
    q.insertEndpoint.run(endpoint.id, endpoint.accountId, endpoint.url, JSON.stringify(endpoint.events), secretsJson(endpoint.secrets), endpoint.createdAt.getTime());
    return endpoint;
  });

  return {
    createEndpoint: (e, max) => (db.inTransaction ? createEndpoint(e, max) : createEndpoint.immediate(e, max)),
    listEndpoints: (accountId) => q.endpoints.all(accountId).map(toEndpoint),
    getEndpoint(accountId, id) {
      const r = q.endpoint.get(accountId, id);
      return r && toEndpoint(r);
    },
    removeEndpoint(accountId, id) {
      q.orphan.run(accountId, id);
      return q.deleteEndpoint.run(accountId, id).changes === 1;
    },
    setEnabled: (accountId, id, enabled, reason = null) => q.setEnabled.run(enabled ? 1 : 0, enabled ? null : reason, enabled ? 1 : 0, accountId, id).changes === 1,
    rotateSecret(accountId, id, secret, previousExpireAt) {
      const r = q.endpoint.get(accountId, id);
      if (!r) return undefined;
      const secrets = rotatedSecrets(toEndpoint(r).secrets, secret, previousExpireAt, Date.now());
      q.setSecrets.run(secretsJson(secrets), accountId, id);
      return { ...toEndpoint(r), secrets };
    },
    setFailing(accountId, id, at) {
      q.setFailing.run(at?.getTime() ?? null, accountId, id);
    },
    enqueue(messages) {
      for (const m of messages) {
        const t = m.createdAt.getTime();
        q.enqueue.run(m.id, m.accountId, m.endpointId, m.target, m.url, m.eventType, m.intencaoImpressaoId, m.body, t, t, t);
      }
    },
    claimDue(now, leaseUntil, limit, perTarget) {
      return q.claim.all({ now: now.getTime(), lease: leaseUntil.getTime(), limit, perTarget }).map((r): ClaimedWebhookMessage => ({ ...toMessage(r), leaseUntil: new Date(r.lease_until!) }));
    },
    recordAttempt(message, a, outcome) {
      const seq = seqOf.get(message.id)?.seq;
      if (seq === undefined) return false;
      const changed = q.outcome.run({
        seq, lease: message.leaseUntil.getTime(), state: outcome.state,
        next: outcome.state === 'pending' ? outcome.nextAttemptAt.getTime() : null,
        delivered: outcome.state === 'delivered' ? a.at.getTime() : null,
        error: outcome.state === 'delivered' ? null : a.error ?? (a.statusCode === null ? null : `HTTP ${a.statusCode}`),
      }).changes === 1;
      // The attempt is kept even when the lease was lost: it was made, and the receiver saw it.
      q.attempt.run(seq, a.at.getTime(), a.statusCode, a.latencyMs, a.error);
      return changed;
    },
    replay(accountId, messageId, now) {
      const r = q.replay.get(now.getTime(), now.getTime(), accountId, messageId);
      return r && toMessage(r);
    },
    getMessage(accountId, messageId) {
      const r = q.message.get(accountId, messageId);
      return r && toMessage(r);
    },
    listMessages: (accountId, f) => q.messages.all({ user: accountId, endpoint: f.endpointId ?? null, intention: f.intencaoImpressaoId ?? null, limit: f.limit }).map(toMessage),
    listAttempts: (accountId, f) => q.attempts.all({
      user: accountId, endpoint: f.endpointId ?? null, intention: f.intencaoImpressaoId ?? null, message: f.messageId ?? null, limit: f.limit,
    }).map(toAttempt),
  };
}
