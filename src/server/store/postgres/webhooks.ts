// webhooks: per-account endpoints, the outbox (webhook_messages, one row per event and target)
// and the attempts made at each message. A message's `target` is the origin it is posted to
// (outbox.ts): the unit of ordering and of concurrency (at most perTarget in flight per target).
import { randomBytes } from 'node:crypto';
import type { WebhookRepository } from '../repositories.js';
import type { ClaimedWebhookMessage, WebhookEndpoint, WebhookSecret } from '../types.js';
import type { Db } from './db.js';
import { date, endpointRefusal, rotatedSecrets, toAttempt, toMessage, type AttemptRow, type MessageRow } from '../webhook-rows.js';

interface EndpointRow {
  id: string; user_id: string; url: string; events: WebhookEndpoint['events']; secrets: Array<{ secret: string; expiresAt: number | null }>; enabled: boolean;
  disabled_reason: string | null; failing_since: number | null; created_at: number;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id, accountId: r.user_id, url: r.url, events: r.events,
  secrets: r.secrets.map((s) => ({ secret: s.secret, expiresAt: date(s.expiresAt) })),
  enabled: r.enabled, disabledReason: r.disabled_reason, failingSince: date(r.failing_since), createdAt: new Date(r.created_at),
});

const secretsJson = (secrets: readonly WebhookSecret[]) => JSON.stringify(secrets.map((s) => ({ secret: s.secret, expiresAt: s.expiresAt?.getTime() ?? null })));

/** An account's endpoints are added one at a time ('bobe', hashtext(account)): the limit and the duplicate check hold. */
const ENDPOINTS_LOCK = 'SELECT pg_advisory_xact_lock(1651466853, hashtext($1))';

/** The claim's advisory lock ('bobw', hashtext(schema)): claims on one schema take turns. */
const CLAIM_LOCK = 'SELECT pg_advisory_xact_lock(1651466871, hashtext(current_schema()))';

// The oldest due messages of each target, up to `perTarget` in flight per target counting those
// already leased, for an enabled endpoint (or a callback address). Only the 128 longest due are
// ranked, so a claim costs the same however long the backlog is.
const CLAIM = `
  WITH busy AS (
    SELECT target, COUNT(*) AS n FROM webhook_messages WHERE lease_until > $1 GROUP BY target
  ), due AS (
    SELECT seq, target, endpoint_id FROM webhook_messages
    WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
    ORDER BY next_attempt_at LIMIT 128 FOR UPDATE SKIP LOCKED
  ), ranked AS (
    SELECT due.seq, due.target, ROW_NUMBER() OVER (PARTITION BY due.target ORDER BY due.seq) AS r
    FROM due LEFT JOIN webhook_endpoints e ON e.id = due.endpoint_id
    WHERE due.endpoint_id IS NULL OR e.enabled
  )
  UPDATE webhook_messages SET lease_until = $2
  WHERE state = 'pending' AND seq IN (
    SELECT ranked.seq FROM ranked LEFT JOIN busy ON busy.target = ranked.target
    WHERE ranked.r <= $4 - COALESCE(busy.n, 0) ORDER BY ranked.seq LIMIT $3
  )
  RETURNING *`;

export function postgresWebhooks(db: Db): WebhookRepository {
  return {
    createEndpoint(e, max) {
      return db.atomic(async (tx) => {
        await tx.query(ENDPOINTS_LOCK, [e.accountId]);
        const { rows } = await tx.query<{ id: string; url: string }>('SELECT id, url FROM webhook_endpoints WHERE user_id = $1', [e.accountId]);
        const refused = endpointRefusal(rows, e.url, max);
        if (refused) return refused;
        const endpoint: WebhookEndpoint = {
          id: `wh_${randomBytes(9).toString('base64url')}`, accountId: e.accountId, url: e.url, events: [...e.events],
          secrets: [{ secret: e.secret, expiresAt: null }], enabled: true, disabledReason: null, failingSince: null, createdAt: new Date(),
        };
        await tx.query(`INSERT INTO webhook_endpoints (id, user_id, url, events, secrets, enabled, disabled_reason, failing_since, created_at)
          VALUES ($1, $2, $3, $4, $5, true, NULL, NULL, $6)`,
        [endpoint.id, endpoint.accountId, endpoint.url, JSON.stringify(endpoint.events), secretsJson(endpoint.secrets), endpoint.createdAt.getTime()]);
        return endpoint;
      });
    },
    async listEndpoints(accountId) {
      const { rows } = await db.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE user_id = $1 ORDER BY created_at, seq', [accountId]);
      return rows.map(toEndpoint);
    },
    async getEndpoint(accountId, id) {
      const { rows } = await db.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE user_id = $1 AND id = $2', [accountId, id]);
      return rows[0] && toEndpoint(rows[0]);
    },
    async removeEndpoint(accountId, id) {
      // One statement: its undelivered messages go dead together with the endpoint's removal.
      const { rows } = await db.query<{ n: number }>(`WITH orphan AS (
          UPDATE webhook_messages SET state = 'dead', lease_until = NULL, last_error = 'endpoint removed' WHERE user_id = $1 AND endpoint_id = $2 AND state = 'pending'
        ), gone AS (DELETE FROM webhook_endpoints WHERE user_id = $1 AND id = $2 RETURNING 1)
        SELECT count(*) AS n FROM gone`, [accountId, id]);
      return Number(rows[0]?.n) === 1;
    },
    async setEnabled(accountId, id, enabled, reason = null) {
      const { rowCount } = await db.query(`UPDATE webhook_endpoints SET enabled = $1, disabled_reason = $2,
        failing_since = CASE WHEN $1 THEN NULL ELSE failing_since END WHERE user_id = $3 AND id = $4`, [enabled, enabled ? null : reason, accountId, id]);
      return rowCount === 1;
    },
    rotateSecret(accountId, id, secret, previousExpireAt) {
      // Read and write under the row's lock, so two rotations at once both keep their secrets.
      return db.atomic(async (tx) => {
        const { rows } = await tx.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE user_id = $1 AND id = $2 FOR UPDATE', [accountId, id]);
        const r = rows[0];
        if (!r) return undefined;
        const secrets = rotatedSecrets(toEndpoint(r).secrets, secret, previousExpireAt, Date.now());
        await tx.query('UPDATE webhook_endpoints SET secrets = $1 WHERE user_id = $2 AND id = $3', [secretsJson(secrets), accountId, id]);
        return { ...toEndpoint(r), secrets };
      });
    },
    async setFailing(accountId, id, at) {
      await db.query('UPDATE webhook_endpoints SET failing_since = $1 WHERE user_id = $2 AND id = $3', [at?.getTime() ?? null, accountId, id]);
    },
    async enqueue(messages) {
      if (messages.length === 0) return;
      // One multi-row insert: the messages of one event are queued together or not at all.
      const values: unknown[] = [];
      const rows = messages.map((m) => {
        const t = m.createdAt.getTime();
        const base = values.length;
        values.push(m.id, m.accountId, m.endpointId, m.target, m.url, m.eventType, m.intencaoImpressaoId, m.body, t);
        const p = (k: number) => `$${base + k}`;
        return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, 'pending', 0, ${p(9)}, NULL, ${p(9)}, ${p(9)}, NULL, NULL)`;
      });
      await db.query(`INSERT INTO webhook_messages (id, user_id, endpoint_id, target, url, event_type, intention_id, body, state, attempts,
        next_attempt_at, lease_until, window_start, created_at, delivered_at, last_error) VALUES ${rows.join(', ')}`, values);
    },
    claimDue(now, leaseUntil, limit, perTarget) {
      // The per-target limit counts leases other claims committed, so claims on one schema take
      // turns (an advisory lock held to commit; the claim's snapshot is taken after it is granted):
      // without it, a claim could miss a lease committed meanwhile and put two messages of one
      // target in flight, or find every due row locked by the other claim and take nothing.
      // FOR UPDATE SKIP LOCKED passes over a message whose outcome is being recorded right now,
      // and re-reads one recorded since the statement began (no longer pending: not taken).
      return db.atomic(async (tx) => {
        await tx.query(CLAIM_LOCK);
        const { rows } = await tx.query<MessageRow>(CLAIM, [now.getTime(), leaseUntil.getTime(), limit, perTarget]);
        return rows.sort((a, b) => a.seq - b.seq).map((r): ClaimedWebhookMessage => ({ ...toMessage(r), leaseUntil: new Date(r.lease_until!) }));
      });
    },
    async recordAttempt(message, a, outcome) {
      // One statement: the outcome applies only while the message is still leased as claimed, and
      // the attempt is kept even when the lease was lost (it was made; the receiver saw it).
      const { rows } = await db.query<{ found: number; changed: number }>(`
        WITH m AS (SELECT seq FROM webhook_messages WHERE id = $1),
        changed AS (
          UPDATE webhook_messages SET state = $3, attempts = attempts + 1, lease_until = NULL,
            next_attempt_at = COALESCE($4::bigint, next_attempt_at), delivered_at = COALESCE($5::bigint, delivered_at), last_error = $6::text
          WHERE seq = (SELECT seq FROM m) AND lease_until = $2 AND state = 'pending' RETURNING 1
        ), kept AS (
          INSERT INTO webhook_attempts (message_seq, at, status_code, latency_ms, error) SELECT seq, $7::bigint, $8::integer, $9::integer, $10::text FROM m RETURNING 1
        )
        SELECT (SELECT count(*) FROM kept) AS found, (SELECT count(*) FROM changed) AS changed`, [
        message.id, message.leaseUntil.getTime(), outcome.state,
        outcome.state === 'pending' ? outcome.nextAttemptAt.getTime() : null,
        outcome.state === 'delivered' ? a.at.getTime() : null,
        outcome.state === 'delivered' ? null : a.error ?? (a.statusCode === null ? null : `HTTP ${a.statusCode}`),
        a.at.getTime(), a.statusCode, a.latencyMs, a.error,
      ]);
      return Number(rows[0]?.changed) === 1;
    },
    async replay(accountId, messageId, now) {
      const { rows } = await db.query<MessageRow>(`UPDATE webhook_messages SET state = 'pending', next_attempt_at = $1, window_start = $1, lease_until = NULL,
        attempts = 0 WHERE user_id = $2 AND id = $3 RETURNING *`, [now.getTime(), accountId, messageId]);
      return rows[0] && toMessage(rows[0]);
    },
    async getMessage(accountId, messageId) {
      const { rows } = await db.query<MessageRow>('SELECT * FROM webhook_messages WHERE user_id = $1 AND id = $2', [accountId, messageId]);
      return rows[0] && toMessage(rows[0]);
    },
    async listMessages(accountId, f) {
      const { rows } = await db.query<MessageRow>(`SELECT * FROM webhook_messages WHERE user_id = $1 AND ($2::text IS NULL OR endpoint_id = $2)
        AND ($3::bigint IS NULL OR intention_id = $3) ORDER BY seq DESC LIMIT $4`, [accountId, f.endpointId ?? null, f.intencaoImpressaoId ?? null, f.limit]);
      return rows.map(toMessage);
    },
    async listAttempts(accountId, f) {
      const { rows } = await db.query<AttemptRow>(`
        SELECT m.id, m.endpoint_id, m.url, m.event_type, m.intention_id, m.state, a.at, a.status_code, a.latency_ms, a.error
        FROM webhook_attempts a JOIN webhook_messages m ON m.seq = a.message_seq
        WHERE m.user_id = $1 AND ($2::text IS NULL OR m.endpoint_id = $2)
          AND ($3::bigint IS NULL OR m.intention_id = $3) AND ($4::text IS NULL OR m.id = $4)
        ORDER BY a.id DESC LIMIT $5`, [accountId, f.endpointId ?? null, f.intencaoImpressaoId ?? null, f.messageId ?? null, f.limit]);
      return rows.map(toAttempt);
    },
  };
}
