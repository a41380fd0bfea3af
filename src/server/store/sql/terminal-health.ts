// terminal_health: each terminal's last contact from its client (a poll or a heartbeat), the
// client's version and its printer's last word, and whether the offline sweep last announced it
// online. Written by every contact; its flips (online ↔ offline, the printer's reasons) are decided
// under the row's lock or by one guarded UPDATE, so several instances announce each change once.
import type { TerminalRepository } from '../repositories.js';
import type { ContactChange, FleetCounts, HealthFilter, TerminalContact, TerminalHealth, WentOffline } from '../types.js';
import type { Dialect } from './dialect.js';
import { one, type Exec } from './exec.js';
import { DEFAULT_FLEET_SETTINGS, offlineAfterMs as offlineAfter } from '../../fleet/settings.js';
import { date, empty, join, json, list, raw, sql, type Sql } from './statement.js';

interface Row {
  user_id: string; terminal_id: string; enabled: unknown; online: unknown; last_seen_at: number | null; agent_version: string | null;
  printer_ready: unknown; printer_reasons: unknown; printer_checked_at: number | null;
}

const toHealth = (d: Dialect, r: Row, queue: { depth: number; oldestAt: Date | null } | undefined): TerminalHealth => ({
  accountId: r.user_id, terminalId: r.terminal_id, enabled: d.flag(r.enabled), announcedOnline: d.flag(r.online),
  lastSeenAt: date(r.last_seen_at), agentVersion: r.agent_version,
  printer: {
    ready: r.printer_ready === null ? null : d.flag(r.printer_ready),
    reasons: r.printer_reasons === null ? null : d.json<string[]>(r.printer_reasons),
    checkedAt: date(r.printer_checked_at),
  },
  queue: queue ?? { depth: 0, oldestAt: null },
});

const sameReasons = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((r) => b.includes(r));

const where = (accountId: string | undefined, terminalId: string | undefined): Sql => {
  if (accountId === undefined) return sql`TRUE`;
  return terminalId === undefined ? sql`t.user_id = ${accountId}` : sql`t.user_id = ${accountId} AND t.terminal_id = ${terminalId}`;
};

/** Offline: never heard from, or not since `onlineSince` (the offline rule, as isOnline reads it). */
const offline = (since: Date) => sql`(h.last_seen_at IS NULL OR h.last_seen_at <= ${since})`;
/** The printer's last word was a problem: not ready, or any reason (paper low too); never reported is none. */
const printerProblem = sql`(h.printer_ready IS NOT NULL AND (h.printer_ready = ${false} OR h.printer_reasons <> ${json([])}))`;

/** The page and the "needs attention" filter of the fleet view (nothing more without them). */
function narrowed(d: Dialect, f: HealthFilter): Sql {
  const parts: Sql[] = [];
  if (f.after !== undefined) parts.push(sql` AND t.terminal_id${d.bytewise} > ${f.after}`);
  if (f.only !== undefined) {
    if (f.only !== 'printer' && !f.onlineSince) throw new Error(`health: only=${f.only} needs onlineSince`);
    const since = f.onlineSince ?? new Date(0);
    parts.push(f.only === 'offline' ? sql` AND ${offline(since)}` : f.only === 'printer' ? sql` AND ${printerProblem}` : sql` AND (${offline(since)} OR ${printerProblem})`);
  }
  return join(parts, '');
}

/** Contacts written by one statement (6 parameters each). */
const TOUCH_CHUNK = 512;

export type TerminalHealthRepository = Pick<TerminalRepository, 'health' | 'touchContact' | 'touchContacts' | 'recordContact' | 'markOffline' | 'fleetCounts'>;

/**
 * The common case, one guarded statement: online already, the printer's reasons as they were, and
 * no later contact recorded (a contact written late, by the fleet's batch, never moves it back).
 */
function touch(c: TerminalContact): Sql {
  const printer = c.printer ? sql`, printer_ready = ${c.printer.ready}, printer_checked_at = ${c.at}` : empty;
  const same = c.printer ? sql` AND printer_reasons = ${json(c.printer.reasons)}` : empty;
  const version = c.agentVersion ? sql`, agent_version = ${c.agentVersion}` : empty;
  return sql`UPDATE terminal_health SET last_seen_at = ${c.at}${version}${printer}
    WHERE user_id = ${c.accountId} AND terminal_id = ${c.terminalId} AND online${same} AND last_seen_at <= ${c.at}`;
}

export function terminalHealth(x: Exec): TerminalHealthRepository {
  const d = x.dialect;
  return {
    async health(filter = {}) {
      const limit = filter.limit === undefined ? empty : sql` LIMIT ${filter.limit}`;
      const rows = await x.all<Row>(sql`SELECT t.user_id, t.terminal_id, t.enabled, COALESCE(h.online, ${false}) AS online, h.last_seen_at,
          h.agent_version, h.printer_ready, h.printer_reasons, h.printer_checked_at
        FROM terminals t LEFT JOIN terminal_health h ON h.user_id = t.user_id AND h.terminal_id = t.terminal_id
        WHERE ${where(filter.accountId, filter.terminalId)}${narrowed(d, filter)} ORDER BY t.user_id${d.bytewise}, t.terminal_id${d.bytewise}${limit}`);
      if (rows.length === 0) return [];
      // The queues: each terminal's own queued jobs (intentions_queue: user_id, estado, id); of a page's terminals only.
      const page = filter.limit === undefined || filter.accountId === undefined ? empty : sql` AND t.terminal_id IN ${list(rows.map((r) => r.terminal_id))}`;
      const queues = await x.all<{ user_id: string; terminal_id: string; depth: number; oldest: number }>(sql`
        SELECT t.user_id, t.terminal_id, COUNT(*) AS depth, MIN(i.created_at) AS oldest
        FROM terminals t JOIN intentions i ON i.user_id = t.user_id AND i.terminal_id = t.terminal_id AND i.estado = 'queued'
        WHERE ${where(filter.accountId, filter.terminalId)}${page} GROUP BY t.user_id, t.terminal_id`);
      const byTerminal = new Map(queues.map((q) => [`${q.user_id}\u0000${q.terminal_id}`, { depth: Number(q.depth), oldestAt: date(q.oldest) }]));
      return rows.map((r) => toHealth(d, r, byTerminal.get(`${r.user_id}\u0000${r.terminal_id}`)));
    },

    async touchContact(c) {
      return (await x.run(touch(c))) === 1;
    },

    async touchContacts(contacts) {
      // touch() for many terminals as one statement, TOUCH_CHUNK at a time (well within PostgreSQL's
      // 65,535 parameters). Rows padded with NULLs (which match nothing) to a power of two, so a
      // handful of statement texts serve every batch.
      const missed: TerminalContact[] = [];
      for (let i = 0; i < contacts.length; i += TOUCH_CHUNK) {
        const chunk = contacts.slice(i, i + TOUCH_CHUNK);
        const rows = chunk.map((c) => sql`(${c.accountId}, ${c.terminalId}, CAST(${c.at} AS BIGINT), ${c.agentVersion ?? null},
          CAST(${c.printer ? c.printer.ready : null} AS BOOLEAN), CAST(${c.printer ? json(c.printer.reasons) : null} AS ${d.jsonType}))`);
        for (let n = chunk.length; n < 2 ** Math.ceil(Math.log2(chunk.length)); n++) rows.push(raw('(NULL, NULL, NULL, NULL, NULL, NULL)'));
        const h = raw('terminal_health');
        const touched = await x.all<{ user_id: string; terminal_id: string }>(sql`UPDATE terminal_health SET last_seen_at = v.column3,
            agent_version = COALESCE(v.column4, ${h}.agent_version),
            printer_ready = CASE WHEN v.column5 IS NULL THEN ${h}.printer_ready ELSE v.column5 END,
            printer_checked_at = CASE WHEN v.column5 IS NULL THEN ${h}.printer_checked_at ELSE v.column3 END
          FROM (VALUES ${join(rows)}) AS v
          WHERE ${h}.user_id = v.column1 AND ${h}.terminal_id = v.column2 AND ${h}.online
            AND (v.column6 IS NULL OR ${h}.printer_reasons = v.column6) AND ${h}.last_seen_at <= v.column3
          RETURNING ${h}.user_id, ${h}.terminal_id`);
        const done = new Set(touched.map((r) => `${r.user_id}\u0000${r.terminal_id}`));
        missed.push(...chunk.filter((c) => !done.has(`${c.accountId}\u0000${c.terminalId}`)));
      }
      return missed;
    },

    recordContact(c) {
      // Read and written under the row's lock (SQLite: the write transaction), so of two contacts
      // (or a contact and the offline sweep) each change is seen, and announced, by one of them.
      return x.atomic(async (t): Promise<ContactChange> => {
        const read = () => one<{ online: unknown; printer_reasons: unknown; last_seen_at: number | null }>(t, sql`SELECT online, printer_reasons, last_seen_at FROM terminal_health
          WHERE user_id = ${c.accountId} AND terminal_id = ${c.terminalId}${d.forUpdate}`);
        let before = await read();
        if (!before) {
          // The first contact ever (of two at once, one inserts; both then read it under the lock).
          await t.run(sql`INSERT INTO terminal_health (user_id, terminal_id, online) VALUES (${c.accountId}, ${c.terminalId}, ${false})
            ON CONFLICT (user_id, terminal_id) DO NOTHING`);
          before = await read();
        }
        // A contact older than the one recorded (written late, by the fleet's batch) says nothing new.
        if (before!.last_seen_at !== null && Number(before!.last_seen_at) > c.at.getTime()) return { cameOnline: false };
        const wasOnline = d.flag(before!.online);
        const reasonsBefore = before!.printer_reasons === null ? null : d.json<string[]>(before!.printer_reasons);
        const printer = c.printer
          ? sql`, printer_ready = ${c.printer.ready}, printer_reasons = ${json(c.printer.reasons)}, printer_checked_at = ${c.at}`
          : empty;
        const version = c.agentVersion ? sql`, agent_version = ${c.agentVersion}` : empty;
        await t.run(sql`UPDATE terminal_health SET online = ${true}, last_seen_at = ${c.at}${version}${printer}
          WHERE user_id = ${c.accountId} AND terminal_id = ${c.terminalId}`);
        // A first report of a ready printer is no change; a first report of trouble is.
        const changed = c.printer !== undefined && !sameReasons(reasonsBefore ?? [], c.printer.reasons);
        return { cameOnline: !wasOnline, ...(changed ? { printerChanged: { before: reasonsBefore } } : {}) };
      });
    },

    async markOffline(cutoff, limit) {
      // One guarded statement: of several instances sweeping at once, one flips each terminal.
      const rows = await x.all<{ user_id: string; terminal_id: string; last_seen_at: number | null }>(sql`UPDATE terminal_health SET online = ${false}
        WHERE (user_id, terminal_id) IN (SELECT user_id, terminal_id FROM terminal_health WHERE online AND last_seen_at <= ${cutoff} LIMIT ${limit})
          AND online AND last_seen_at <= ${cutoff}
        RETURNING user_id, terminal_id, last_seen_at`);
      return rows.map((r): WentOffline => ({ accountId: r.user_id, terminalId: r.terminal_id, lastSeenAt: date(r.last_seen_at) }));
    },

    async fleetCounts(now, offlineAfterMs = offlineAfter(DEFAULT_FLEET_SETTINGS)) {
      const cutoff = new Date(now.getTime() - offlineAfterMs);
      const seen = sql`h.user_id = t.user_id AND h.terminal_id = t.terminal_id AND h.last_seen_at > ${cutoff}`;
      const totals = await one<{ total: number; online: number; ready: number }>(x, sql`SELECT COUNT(*) AS total,
          COALESCE(SUM(CASE WHEN h.user_id IS NULL THEN 0 ELSE 1 END), 0) AS online,
          COALESCE(SUM(CASE WHEN h.printer_ready THEN 1 ELSE 0 END), 0) AS ready
        FROM terminals t LEFT JOIN terminal_health h ON ${seen} WHERE t.enabled`);
      const reasons = await x.all<{ reason: string; n: number }>(sql`SELECT m.value AS reason, COUNT(*) AS n
        FROM terminals t JOIN terminal_health h ON ${seen} CROSS JOIN ${d.jsonTexts(sql`h.printer_reasons`, 'm')}
        WHERE t.enabled AND h.printer_reasons IS NOT NULL GROUP BY m.value`);
      const online = Number(totals?.online ?? 0);
      const counts: FleetCounts = {
        online, offline: Number(totals?.total ?? 0) - online, printersReady: Number(totals?.ready ?? 0),
        printersByReason: Object.fromEntries(reasons.map((r) => [r.reason, Number(r.n)])),
      };
      return counts;
    },
  };
}
