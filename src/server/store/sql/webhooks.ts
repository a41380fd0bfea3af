// webhooks: per-account endpoints, the outbox (webhook_messages, one row per event and target)
// and the attempts made at each message. A message's `target` is the origin it is posted to
// (outbox.ts): the unit of ordering and of concurrency (at most perTarget in flight per target).
import { randomBytes, randomUUID } from 'node:crypto';
import type { WebhookRepository } from '../repositories.js';
import type { ClaimedWebhookMessage, WebhookAttempt, WebhookEndpoint, WebhookMessage, WebhookSecret } from '../types.js';
import { asFlag, asJson, asTime, Table, type Codec } from './columns.js';
import { endpointRefusal, rotatedSecrets } from '../webhook-rows.js';
import type { Dialect } from './dialect.js';
import { lock, one, type Exec } from './exec.js';
import { date, empty, given, json, list, raw, sql, where, type Sql } from './statement.js';

const SECRETS: Codec = {
  write: (v) => json((v as WebhookSecret[]).map((s) => ({ secret: s.secret, expiresAt: s.expiresAt?.getTime() ?? null }))),
  read: (v, d) => d.json<Array<{ secret: string; expiresAt: number | null }>>(v).map((s) => ({ secret: s.secret, expiresAt: date(s.expiresAt) })),
};

const ENDPOINT = new Table<WebhookEndpoint>({
  id: 'id', accountId: 'user_id', url: 'url', events: ['events', asJson], secrets: ['secrets', SECRETS], enabled: ['enabled', asFlag],
  disabledReason: 'disabled_reason', failingSince: ['failing_since', asTime], createdAt: ['created_at', asTime],
});

/**
 * A message's job: a terminal's events have none, kept as 0 (the column is NOT NULL since before such
 * events, and SQLite cannot drop that without rebuilding the table); no job has id 0.
 */
const NO_JOB = 0;
const JOB: Codec = { write: (v) => v ?? NO_JOB, read: (v) => (v === NO_JOB ? null : v) };

const MESSAGE = new Table<WebhookMessage>({
  id: 'id', accountId: 'user_id', endpointId: 'endpoint_id', url: 'url', eventType: 'event_type', intencaoImpressaoId: ['intention_id', JOB],
  body: 'body', state: 'state', attempts: 'attempts', nextAttemptAt: ['next_attempt_at', asTime], windowStart: ['window_start', asTime],
  createdAt: ['created_at', asTime], deliveredAt: ['delivered_at', asTime], lastError: 'last_error',
});
/** …as queued: with the target it is limited by. */
const QUEUED = new Table<WebhookMessage & { target: string }>({ ...MESSAGE.columns, target: 'target' });

/** An attempt joined with its message (`id`, `state` and the addressing are the message's). */
const ATTEMPT = new Table<WebhookAttempt>({
  messageId: 'm.id', endpointId: 'm.endpoint_id', url: 'm.url', eventType: 'm.event_type', intencaoImpressaoId: ['m.intention_id', JOB],
  at: ['a.at', asTime], statusCode: 'a.status_code', latencyMs: 'a.latency_ms', error: 'a.error', messageState: 'm.state',
});

/**
 * A message (of `alias`) a sender may take: any but one whose endpoint is disabled. One whose
 * endpoint is gone is taken too, and the sender ends it dead ("endpoint removed"): a replay or an
 * event that raced the removal never stays pending for ever.
 */
const sendable = (alias: string) => raw(`NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = ${alias}.endpoint_id AND NOT e.enabled)`);
const SENDABLE = sendable('webhook_messages');

/** Due messages the first look walks, the longest due first, at most. */
const SCAN = 1024;
/** …and ranks, at most. */
const WINDOW = 128;

/** A due message (of `alias`) not in flight. */
const free = (alias: string, now: Date) => sql`${raw(alias)}.next_attempt_at <= ${now} AND (${raw(alias)}.lease_until IS NULL OR ${raw(alias)}.lease_until <= ${now})`;

/** What may be taken now: not of a target at `perTarget`, nor of an account at `perAccount`, counting what is in flight (the `busy` CTE). */
const underLimits = (alias: string, perTarget: number, perAccount: number) => sql`${raw(alias)}.target NOT IN (SELECT target FROM busy GROUP BY target HAVING SUM(n) >= ${perTarget})
  AND ${raw(alias)}.user_id NOT IN (SELECT user_id FROM busy GROUP BY user_id HAVING SUM(n) >= ${perAccount})`;

/**
 * The first look: of the SCAN longest-due messages, the WINDOW oldest a sender may take. Its cost is
 * bounded, whatever the backlog; when those SCAN are all of targets or accounts at their limit
 * (slow receivers with a long backlog), byPair looks further.
 */
const oldest = (now: Date, perTarget: number, perAccount: number) => sql`due AS (
    SELECT w.seq, w.target, w.user_id FROM (
      SELECT seq, target, user_id, endpoint_id, next_attempt_at, lease_until FROM webhook_messages
      WHERE state = 'pending' AND next_attempt_at <= ${now} ORDER BY next_attempt_at LIMIT ${SCAN}
    ) w
    WHERE ${free('w', now)} AND ${sendable('w')} AND ${underLimits('w', perTarget, perAccount)}
    ORDER BY w.next_attempt_at LIMIT ${WINDOW}
  )`;

/** The skip scan's steps (on webhook_messages_pairs, one index seek each): an account's first target with a pending message, … */
const firstTarget = (account: string) => raw(`(SELECT MIN(m.target) FROM webhook_messages m WHERE m.state = 'pending' AND m.user_id = ${account})`);
/** …the same account's next one (of pair `p`), or none, … */
const NEXT_TARGET = raw("(SELECT MIN(m.target) FROM webhook_messages m WHERE m.state = 'pending' AND m.user_id = p.user_id AND m.target > p.target)");
/** …and the next account with a pending message. */
const NEXT_ACCOUNT = "(SELECT MIN(m.user_id) FROM webhook_messages m WHERE m.state = 'pending' AND m.user_id > p.user_id)";

/** Pairs the second look visits, at most, on each side of its random start. */
const PAIRS = 256;

/** The skip scan's next pair after pair `p` (its account's next target, else the next account's first), numbered. */
const nextPair = sql`SELECT CASE WHEN ${NEXT_TARGET} IS NULL THEN ${raw(NEXT_ACCOUNT)} ELSE p.user_id END,
      COALESCE(${NEXT_TARGET}, ${firstTarget(NEXT_ACCOUNT)}), p.n + 1`;

/**
 * The second look: (account, target) pairs with a pending message, found by a skip scan, and of
 * each one under its limits, its longest-due message (one per pair: the sender claims again at once
 * after a claim that took some). At most PAIRS pairs from a random account id `start` on, and PAIRS
 * from the first one up to it: its cost is bounded however many pairs and messages there are, and
 * over claims every pair is reached.
 */
const byPair = (now: Date, perTarget: number, perAccount: number, start: string) => sql`pairs (user_id, target, n) AS (
    SELECT f.u, ${firstTarget('f.u')}, 1 FROM (SELECT MIN(user_id) AS u FROM webhook_messages WHERE state = 'pending' AND user_id >= ${start}) f
    UNION ALL
    ${nextPair} FROM pairs p WHERE p.user_id IS NOT NULL AND p.n < ${PAIRS}
  ), wrapped (user_id, target, n) AS (
    SELECT f.u, ${firstTarget('f.u')}, 1 FROM (SELECT MIN(user_id) AS u FROM webhook_messages WHERE state = 'pending') f
    UNION ALL
    ${nextPair} FROM wrapped p WHERE p.user_id < ${start} AND p.n < ${PAIRS}
  ), due AS (
    SELECT seq, target, user_id FROM webhook_messages WHERE seq IN (
      SELECT (SELECT x.seq FROM webhook_messages x WHERE x.state = 'pending' AND x.user_id = p.user_id AND x.target = p.target
          AND ${free('x', now)} AND ${sendable('x')} ORDER BY x.next_attempt_at LIMIT 1)
      FROM (SELECT user_id, target FROM pairs UNION SELECT user_id, target FROM wrapped WHERE user_id < ${start}) p
      WHERE p.user_id IS NOT NULL AND ${underLimits('p', perTarget, perAccount)})
  )`;

/**
 * Of the `due` candidates, the oldest up to `limit`, up to `perTarget` in flight per target and
 * `perAccount` per account, counting those already leased (on every instance), leased until
 * `leaseUntil`. Their rows are locked in `seq` order, passing over one another transaction holds
 * (PostgreSQL: SKIP LOCKED): a claim never waits for, nor deadlocks with, setEnabled or
 * removeEndpoint changing many of an endpoint's rows at once. `state = 'pending'` re-checks one
 * recorded since the statement began.
 */
const take = (d: Dialect, due: Sql, now: Date, leaseUntil: Date, limit: number, perTarget: number, perAccount: number) => sql`
  WITH RECURSIVE busy AS (
    SELECT target, user_id, COUNT(*) AS n FROM webhook_messages WHERE lease_until > ${now} GROUP BY target, user_id
  ), ${due}, ranked AS (
    SELECT seq, target, user_id, ROW_NUMBER() OVER (PARTITION BY target ORDER BY seq) AS rt,
      ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY seq) AS ra
    FROM due
  ), chosen AS (
    SELECT m.seq FROM webhook_messages m${d.byKey} WHERE m.seq IN (
      SELECT r.seq FROM ranked r
      WHERE r.rt <= ${perTarget} - COALESCE((SELECT SUM(b.n) FROM busy b WHERE b.target = r.target), 0)
        AND r.ra <= ${perAccount} - COALESCE((SELECT SUM(b.n) FROM busy b WHERE b.user_id = r.user_id), 0)
      ORDER BY r.seq LIMIT ${limit}
    ) ORDER BY m.seq${d.skipLocked}
  )
  UPDATE webhook_messages${d.byKey} SET lease_until = ${leaseUntil}
  WHERE state = 'pending' AND seq IN (SELECT seq FROM chosen)
  RETURNING *`;

/** The messages (alias m) of an account a list asks for: of one endpoint, job or message when it names one. */
const messagesOf = (accountId: string, f: { endpointId?: string; intencaoImpressaoId?: number; messageId?: string }) => where([
  sql`m.user_id = ${accountId}`, given(f.endpointId, (v) => sql`m.endpoint_id = ${v}`),
  given(f.intencaoImpressaoId, (v) => sql`m.intention_id = ${v}`), given(f.messageId, (v) => sql`m.id = ${v}`),
]);

export function webhooks(x: Exec): WebhookRepository {
  const d = x.dialect;
  const byId = (accountId: string, id: string) => sql`user_id = ${accountId} AND id = ${id}`;
  const endpoint = (t: Exec, accountId: string, id: string, lockRow = empty) => ENDPOINT.one(t, sql`SELECT * FROM webhook_endpoints WHERE ${byId(accountId, id)}${lockRow}`);
  const updating = (accountId: string, id: string, set: Partial<WebhookEndpoint>) => sql`UPDATE webhook_endpoints SET ${ENDPOINT.set(set)} WHERE ${byId(accountId, id)}`;
  const update = async (t: Exec, accountId: string, id: string, set: Partial<WebhookEndpoint>) => (await t.run(updating(accountId, id, set))) === 1;
  const message = (statement: Sql) => MESSAGE.one(x, statement);
  return {
    createEndpoint(e, max) {
      // Checked and written under one lock on the account's endpoints (SQLite: the write transaction).
      return x.atomic(async (t) => {
        await lock(t, 'endpoints', e.accountId);
        const refused = endpointRefusal(await t.all<{ id: string; url: string }>(sql`SELECT id, url FROM webhook_endpoints WHERE user_id = ${e.accountId}`), e.url, max);
        if (refused) return refused;
        const created: WebhookEndpoint = {
          id: `wh_${randomBytes(9).toString('base64url')}`, accountId: e.accountId, url: e.url, events: [...e.events],
          secrets: [{ secret: e.secret, expiresAt: null }], enabled: true, disabledReason: null, failingSince: null, createdAt: new Date(),
        };
        await t.run(sql`INSERT INTO webhook_endpoints ${ENDPOINT.insert(created)}`);
        return created;
      });
    },
    listEndpoints: (accountId) => ENDPOINT.all(x, sql`SELECT * FROM webhook_endpoints WHERE user_id = ${accountId} ORDER BY created_at, ${d.insertOrder}`),
    getEndpoint: (accountId, id) => endpoint(x, accountId, id),
    async removeEndpoint(accountId, id) {
      // Its undelivered messages go dead together with the endpoint's removal.
      const [, removed] = await x.batch([
        sql`UPDATE webhook_messages SET state = 'dead', lease_until = NULL, last_error = 'endpoint removed'
          WHERE user_id = ${accountId} AND endpoint_id = ${id} AND state IN ('pending', 'held')`,
        sql`DELETE FROM webhook_endpoints WHERE ${byId(accountId, id)}`,
      ]);
      return removed === 1;
    },
    async setEnabled(accountId, id, enabled, reason = null) {
      // Disabled: its undelivered messages are held, out of the sender's sight (one in flight
      // finishes its attempt and stays held unless delivered: recordAttempt); enabled again, they
      // are due at once, each with a new retry window, and its failing spell is over.
      const mine = sql`user_id = ${accountId} AND endpoint_id = ${id}`;
      const now = new Date();
      const messages = enabled
        ? sql`UPDATE webhook_messages SET state = 'pending', next_attempt_at = CASE WHEN next_attempt_at > ${now} THEN ${now} ELSE next_attempt_at END,
            window_start = ${now} WHERE ${mine} AND state = 'held'`
        : sql`UPDATE webhook_messages SET state = 'held' WHERE ${mine} AND state = 'pending'`;
      const set: Partial<WebhookEndpoint> = enabled ? { enabled, disabledReason: null, failingSince: null } : { enabled, disabledReason: reason };
      const [changed] = await x.batch([updating(accountId, id, set), messages]);
      return changed === 1;
    },
    rotateSecret(accountId, id, secret, previousExpireAt) {
      // Read and written under the row's lock, so two rotations at once both keep their secrets.
      return x.atomic(async (t) => {
        const found = await endpoint(t, accountId, id, d.forUpdate);
        if (!found) return undefined;
        const secrets = rotatedSecrets(found.secrets, secret, previousExpireAt, Date.now());
        await update(t, accountId, id, { secrets });
        return { ...found, secrets };
      });
    },
    async setFailing(accountId, id, at) {
      await update(x, accountId, id, { failingSince: at });
    },
    async enqueue(messages) {
      if (messages.length === 0) return;
      // One multi-row insert: the messages of one event are queued together or not at all.
      const rows = messages.map((m) => ({ ...m, state: 'pending' as const, attempts: 0, nextAttemptAt: m.createdAt, windowStart: m.createdAt, deliveredAt: null, lastError: null }));
      await x.run(sql`INSERT INTO webhook_messages ${QUEUED.insert(rows)}`);
    },
    claimDue(now, leaseUntil, limit, perTarget, perAccount) {
      // The per-target limit counts leases other claims committed, so claims on one database take
      // turns (PostgreSQL: an advisory lock held to commit; the claim's snapshot is taken after it
      // is granted): without it, a claim could miss a lease committed meanwhile and put two
      // messages of one target in flight.
      // The first look is enough unless the longest-due messages fill its scan (then at least SCAN
      // are due): a target or an account at its limit may hold them all, and the others' wait
      // behind them; the second look finds those. Before the two looks, one walk passed every due
      // message of an account at its limit: 65 ms on SQLite behind 200,000 of them, for every
      // claim, and a sender claims at every event (bench/WEBHOOKS.md).
      return x.atomic(async (t) => {
        await lock(t, 'webhook-claim');
        type Row = Record<string, unknown> & { seq: number; lease_until: number };
        const rows = await t.all<Row>(take(d, oldest(now, perTarget, perAccount), now, leaseUntil, limit, perTarget, perAccount));
        if (rows.length < limit && await one(t, sql`SELECT 1 AS full FROM webhook_messages WHERE state = 'pending' AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at LIMIT 1 OFFSET ${SCAN - 1}`)) {
          rows.push(...await t.all<Row>(take(d, byPair(now, perTarget, perAccount, randomUUID()), now, leaseUntil, limit - rows.length, perTarget, perAccount)));
        }
        return rows.sort((a, b) => a.seq - b.seq).map((r): ClaimedWebhookMessage => ({ ...MESSAGE.read(r, d), leaseUntil: new Date(r.lease_until) }));
      });
    },
    async recordAttempt(m, a, outcome) {
      // The outcome applies only while the message is still leased as claimed; the attempt is kept
      // even when the lease was lost (it was made; the receiver saw it).
      // One to be tried again stays held if its endpoint was disabled meanwhile (the row's own state
      // says so: setEnabled holds messages in flight too, under their lease).
      const delivered = outcome.state === 'delivered';
      const retried = outcome.state === 'pending';
      const set = MESSAGE.set({
        state: retried ? undefined : outcome.state, nextAttemptAt: retried ? outcome.nextAttemptAt : undefined, deliveredAt: delivered ? a.at : undefined,
        lastError: delivered ? null : a.error ?? (a.statusCode === null ? null : `HTTP ${a.statusCode}`),
      });
      const state = retried ? raw(", state = CASE WHEN state = 'held' THEN 'held' ELSE 'pending' END") : empty;
      const [changed] = await x.batch([
        sql`UPDATE webhook_messages SET ${set}${state}, attempts = attempts + 1, lease_until = NULL WHERE id = ${m.id} AND lease_until = ${m.leaseUntil} AND state IN ('pending', 'held')`,
        sql`INSERT INTO webhook_attempts (message_seq, user_id, endpoint_id, at, status_code, latency_ms, error)
          SELECT seq, user_id, endpoint_id, CAST(${a.at} AS BIGINT), CAST(${a.statusCode} AS INTEGER), CAST(${a.latencyMs} AS INTEGER), CAST(${a.error} AS TEXT)
          FROM webhook_messages WHERE id = ${m.id}`,
      ]);
      return changed === 1;
    },
    // Held while its endpoint is disabled; never for an endpoint removed (nothing would ever send it).
    async backlog(now, atMost) {
      // Each count on the due index (state first), bounded; the oldest a sender could send now, not in flight, by its order.
      const count = (state: string) => sql`(SELECT count(*) FROM (SELECT 1 FROM webhook_messages WHERE state = ${state} LIMIT ${atMost}) ${raw(`c_${state}`)})`;
      const [r] = await x.all<{ pending: number; held: number; oldest: number | null }>(sql`SELECT ${count('pending')} AS pending, ${count('held')} AS held,
        (SELECT next_attempt_at FROM webhook_messages WHERE state = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now})
          AND ${SENDABLE} ORDER BY next_attempt_at LIMIT 1) AS oldest`);
      return { pending: Number(r!.pending), held: Number(r!.held), oldestDueAt: date(r!.oldest === null ? null : Number(r!.oldest)) };
    },
    purgeMessages(before, limit) {
      // The oldest first in each state (the due index orders it by its last planned try), so each call makes progress.
      // Locked until deleted: a replay meanwhile waits, then finds it gone. One state at a time, so
      // each is an ordered walk of the due index (both at once sorted every old row on PostgreSQL).
      return x.atomic(async (t) => {
        let deleted = 0;
        for (const state of ['delivered', 'dead']) {
          if (deleted >= limit) break;
          const gone = (await t.all<{ seq: number }>(sql`SELECT seq FROM webhook_messages WHERE state = ${state} AND next_attempt_at < ${before}
            ORDER BY next_attempt_at LIMIT ${limit - deleted}${d.forUpdate}`)).map((r) => r.seq);
          if (gone.length === 0) continue;
          const [, n] = await t.batch([sql`DELETE FROM webhook_attempts WHERE message_seq IN ${list(gone)}`, sql`DELETE FROM webhook_messages WHERE seq IN ${list(gone)}`]);
          deleted += n!;
        }
        return deleted;
      });
    },
    replay: (accountId, messageId, now) => message(sql`UPDATE webhook_messages
      SET state = CASE WHEN ${SENDABLE} THEN 'pending' ELSE 'held' END, next_attempt_at = ${now}, window_start = ${now}, lease_until = NULL, attempts = 0
      WHERE user_id = ${accountId} AND id = ${messageId} AND (endpoint_id IS NULL OR EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = webhook_messages.endpoint_id))
      RETURNING *`),
    getMessage: (accountId, messageId) => message(sql`SELECT * FROM webhook_messages WHERE user_id = ${accountId} AND id = ${messageId}`),
    listMessages: (accountId, f) => MESSAGE.all(x, sql`SELECT m.* FROM webhook_messages m WHERE ${messagesOf(accountId, f)} ORDER BY m.seq DESC LIMIT ${f.limit}`),
    listAttempts(accountId, f) {
      // Walked newest first on the account's own attempts (webhook_attempts_user), or on one
      // endpoint's (webhook_attempts_user_endpoint), unless it asks for one job's or one message's:
      // then from their few messages (by index), sorted.
      const few = f.intencaoImpressaoId !== undefined || f.messageId !== undefined;
      const own = few ? empty : sql`a.user_id = ${accountId} AND ${f.endpointId === undefined ? empty : sql`a.endpoint_id = ${f.endpointId} AND `}`;
      return ATTEMPT.all(x, sql`SELECT ${ATTEMPT.select()} FROM webhook_attempts a JOIN webhook_messages m ON m.seq = a.message_seq
        WHERE ${own}${messagesOf(accountId, f)} ORDER BY a.id DESC LIMIT ${f.limit}`);
    },
  };
}
