// intentions: compiled print jobs (bytes + diagnostics), their delivery state and history, and (in
// idempotency.ts) the Idempotency-Key answers given for them. State changes are single guarded
// statements; which states they may start from is jobs/lifecycle.ts's table, passed in as `from`.
import { WAITS_FOR_PERSON } from '../../jobs/lifecycle.js';
import type { IntentionRepository } from '../repositories.js';
import type { ClaimRoute, HistoryEntry, Intention, IntentionSummary, JobFilter, JobPatch, JobRef, JobState } from '../types.js';
import type { Dialect } from './dialect.js';
import { one, type Exec } from './exec.js';
import { idempotency } from './idempotency.js';
import { asBytes, asFlag, asJson, asText, asTime, Table } from './columns.js';
import { empty, given, join, json, list, raw, sql, utf8, where, type Sql } from './statement.js';
import { stuckJobs } from './stuck-jobs.js';

/** A job without its heavy columns (content, bytes, diagnostics): what lists read. */
const SUMMARY = new Table<Omit<IntentionSummary, 'size'>>({
  id: 'id', accountId: 'user_id', referencia: ['referencia', asText], terminalId: 'terminal_id', impressoraId: 'impressora_id',
  codigoImpressora: 'codigo_impressora', aguardarClienteIniciarImpressao: ['aguardar', asFlag], status: 'status', createdAt: ['created_at', asTime],
  estado: 'estado', motivos: ['motivos', asJson], tentativas: 'tentativas', confirmacao: 'confirmacao', leasedTo: 'leased_to', leaseToken: 'lease_token',
  leaseExpiresAt: ['lease_expires_at', asTime], expiresAt: ['expires_at', asTime], reprint: ['reprint', asFlag], urlCallback: 'url_callback',
  ignoredReports: 'ignored_reports', reprintOf: 'reprint_of', reprints: 'reprints',
});
const INTENTION = new Table<Intention>({
  ...SUMMARY.columns, conteudo: ['conteudo', asText], bytes: ['bytes', asBytes], diagnostics: ['diagnostics', asJson],
});
/** A job as lists of work name it: its account and id (`due` rows, mismatched jobs). */
const REF = new Table<JobRef>({ accountId: 'user_id', id: 'id' });
const MISMATCHED = new Table<JobRef & { codigoImpressora: string }>({ ...REF.columns, codigoImpressora: 'codigo_impressora' });
/** A queue of jobs: an account's jobs for one terminal, or with no terminal (null). */
const QUEUE = new Table<{ accountId: string; terminalId: string | null }>({ accountId: 'user_id', terminalId: 'terminal_id' });

const HISTORY = new Table<HistoryEntry>({
  seq: 'h.seq', estado: 'h.estado', evento: 'h.evento', motivos: ['h.motivos', asJson], origem: 'h.origem', detalhe: ['h.detalhe', asText], at: ['h.at', asTime],
});

/** SET clause for a patch: only the fields it carries. */
function setClause(p: JobPatch): Sql {
  const { tentativasIncrement, compiled, ...fields } = p;
  const set = INTENTION.set({ ...fields, ...compiled });
  return tentativasIncrement ? sql`${set}, tentativas = tentativas + 1` : set;
}

/**
 * The jobs a route may take: its own terminal's, and (taking template jobs) the account's jobs with
 * no terminal, for its template or any; a template job once leased stays with that terminal, so a
 * re-offer after a lost report reaches the journal that knows it.
 */
function routeWhere(r: ClaimRoute): Sql {
  const own = sql`c.user_id = ${r.accountId} AND (c.terminal_id = ${r.terminalId}`;
  if (!r.templateJobs) return sql`${own})`;
  const printer = r.printerId === null ? empty : sql` AND c.impressora_id = ${r.printerId}`;
  return sql`${own} OR (c.terminal_id IS NULL AND (c.leased_to IS NULL OR c.leased_to = ${r.terminalId})${printer}))`;
}

/**
 * A stopped job on this terminal's printer holds its queue back (when the printer clears, it goes
 * first), unless it waits for a person, not for the printer (lifecycle.ts's WAITS_FOR_PERSON).
 */
const queueHeld = (d: Dialect, terminalId: string) => sql`EXISTS (SELECT 1 FROM intentions s
  WHERE s.user_id = c.user_id AND s.leased_to = ${terminalId} AND s.estado = ${WAITS_FOR_PERSON.estado} AND ${forPrinter(d, 's')})`;

/** A stopped job (of alias `a`) that waits for its printer, not for a person. */
const forPrinter = (d: Dialect, a: 's' | 'c') => sql`NOT EXISTS (SELECT 1 FROM ${d.jsonTexts(raw(`${a}.motivos`), 'm')} WHERE m.value IN ${list(WAITS_FOR_PERSON.motivos)})`;

/**
 * The conditions of a job list. Each filter has an index that starts (user_id, filter, created_at,
 * id) (migrations: SQLite 10, PostgreSQL 6), so a page is a short range scan whatever the table's
 * size. referencia, of any length, is indexed whole (by the dialect's textKey, which the index is
 * on: SQLite 18, PostgreSQL 14); by its first 64 characters until then, references sharing a longer
 * prefix made each lookup read all of them.
 */
function listWhere(d: Dialect, f: JobFilter): Sql {
  const referencia = (v: string) => sql`CAST(${utf8(v)} AS ${d.freeText})`;
  return where([
    given(f.accountId, (v) => sql`c.user_id = ${v}`), given(f.estado, (v) => sql`c.estado = ${v}`), given(f.terminalId, (v) => sql`c.terminal_id = ${v}`),
    given(f.referencia, (v) => sql`${d.textKey(raw('c.referencia'))} = ${d.textKey(referencia(v))} AND c.referencia = ${referencia(v)}`),
    given(f.since, (v) => sql`c.created_at >= ${v}`), given(f.until, (v) => sql`c.created_at <= ${v}`),
    given(f.after, (v) => sql`(c.created_at, c.id) < (${v.createdAt}, ${v.id})`),
  ]);
}

/** Tries at numbering a history row when another transaction took the same number meanwhile (PostgreSQL). */
const HISTORY_TRIES = 100;

const historyRow = (id: number, seq: Sql, e: Omit<HistoryEntry, 'seq'>) => sql`INSERT INTO job_history
  (intention_id, seq, estado, evento, motivos, origem, detalhe, at)
  VALUES (${id}, ${seq}, ${e.estado}, ${e.evento}, ${json(e.motivos)}, ${e.origem}, ${utf8(e.detalhe)}, ${e.at})`;

export function intentions(x: Exec): IntentionRepository {
  const d = x.dialect;
  /** Jobs this transaction inserted: the number of their next history row, and their last row's state (none yet: null). */
  const inserted = new Map<number, { seq: number; estado: JobState | null }>();
  const job = (statement: Sql) => INTENTION.one(x, statement);
  /** Jobs in one of `states` whose time in `column` is before `now`, soonest first. */
  const due = (column: Sql, states: readonly JobState[], now: Date, limit: number) => REF.all(x, sql`SELECT ${REF.select()} FROM intentions
    WHERE estado IN ${list(states)} AND ${column} < ${now} ORDER BY ${column} LIMIT ${limit}`);
  /** Job summaries (with their bytes' length) of the jobs `where` picks (alias c), in `order`. */
  const summaries = async (where: Sql, order: Sql, limit: number) => {
    const rows = await x.all<Record<string, unknown>>(sql`SELECT ${SUMMARY.select('c')}, length(c.bytes) AS size FROM intentions c
      WHERE ${where} ORDER BY ${order} LIMIT ${limit}`);
    return rows.map((r): IntentionSummary => ({ ...SUMMARY.read(r, d), size: r.size as number }));
  };
  /**
   * Appends a history row numbered one past the job's last, and says the state of the row before it
   * (null for a job's first row). A job this transaction inserted has no other writer (no one else
   * sees it): its numbers and last state are known, and the row is written without waiting for an
   * answer. Inside a transaction, the one that changed the job holds its row already; outside one,
   * the row is locked first. A number another transaction took meanwhile (PostgreSQL) inserts
   * nothing, and is tried again with that row in sight.
   */
  async function append(id: number, e: Omit<HistoryEntry, 'seq'>): Promise<{ entry: HistoryEntry; before: JobState | null }> {
    const known = inserted.get(id);
    if (known !== undefined) {
      inserted.set(id, { seq: known.seq + 1, estado: e.estado });
      await x.write(historyRow(id, sql`${known.seq}`, e));
      return { entry: { ...e, seq: known.seq }, before: known.estado };
    }
    if (!x.inTransaction) {
      return x.atomic(async (t) => {
        await t.write(sql`SELECT id FROM intentions WHERE id = ${id}${d.forUpdate}`);
        return intentions(t).appendTransition(id, e);
      });
    }
    const next = sql`(SELECT COALESCE(MAX(seq), 0) + 1 FROM job_history WHERE intention_id = ${id})`;
    // The row before, read in the same statement: the one numbered just below the new one.
    const before = raw(`(SELECT p.estado FROM job_history p WHERE p.intention_id = job_history.intention_id AND p.seq < job_history.seq
      ORDER BY p.seq DESC LIMIT 1) AS before`);
    for (let i = 0; i < HISTORY_TRIES; i++) {
      const r = await one<{ seq: number; before: JobState | null }>(x, sql`${historyRow(id, next, e)} ON CONFLICT DO NOTHING RETURNING seq, ${before}`);
      if (r) return { entry: { ...e, seq: r.seq }, before: r.before };
    }
    throw new Error(`store: job ${id}'s history kept changing while a row was appended`);
  }
  return {
    async insert(i) {
      const row = {
        ...i, estado: i.estado ?? 'queued', confirmacao: i.confirmacao ?? 'none', motivos: i.motivos ?? [], expiresAt: i.expiresAt ?? null,
        urlCallback: i.urlCallback ?? null, reprintOf: i.reprintOf ?? null,
      };
      const r = await one<{ id: number }>(x, sql`INSERT INTO intentions ${INTENTION.insert(row)} RETURNING id`);
      if (x.inTransaction) inserted.set(r!.id, { seq: 1, estado: null });
      // The other columns as the table's defaults made them (not sent: fewer values on every Insert).
      return { ...row, id: r!.id, tentativas: 0, leasedTo: null, leaseToken: null, leaseExpiresAt: null, reprint: false, ignoredReports: 0, reprints: 0 };
    },
    get: (accountId, id) => job(sql`SELECT * FROM intentions WHERE id = ${id} AND user_id = ${accountId}`),
    history: (accountId, id) => HISTORY.all(x, sql`SELECT ${HISTORY.select()} FROM job_history h
      JOIN intentions i ON i.id = h.intention_id WHERE h.intention_id = ${id} AND i.user_id = ${accountId} ORDER BY h.seq`),
    appendHistory: async (id, e) => (await append(id, e)).entry,
    appendTransition: (id, e) => append(id, e),
    update(ref, from, patch, guard) {
      const lease = typeof guard === 'string' ? { token: guard } : guard;
      const token = lease ? sql` AND lease_token = ${lease.token}` : empty;
      const expired = lease?.expiredBy ? sql` AND lease_expires_at < ${lease.expiredBy}` : empty;
      return job(sql`UPDATE intentions SET ${setClause(patch)}
        WHERE id = ${ref.id} AND user_id = ${ref.accountId} AND estado IN ${list(from)}${token}${expired} RETURNING *`);
    },
    async renewLease(ref, from, lease, until) {
      return (await x.run(sql`UPDATE intentions SET lease_expires_at = ${until} WHERE id = ${ref.id} AND user_id = ${ref.accountId}
        AND estado IN ${list(from)} AND lease_token = ${lease.token} AND leased_to = ${lease.leasedTo}`)) === 1;
    },
    claim(route, from, patch) {
      // SKIP LOCKED (PostgreSQL): a job another instance is taking right now is passed over, not
      // waited for (and not taken twice).
      return job(sql`UPDATE intentions SET ${setClause(patch)} WHERE id = (
          SELECT c.id FROM intentions c WHERE ${routeWhere(route)} AND c.estado IN ${list(from)} AND NOT ${queueHeld(d, route.terminalId)}
          ORDER BY c.id LIMIT 1${d.skipLocked})
        RETURNING *`);
    },
    queuedQueues: (states) => QUEUE.all(x, sql`SELECT DISTINCT ${QUEUE.select()} FROM intentions WHERE estado IN ${list(states)}`),
    async anyFor(route, states) {
      // A read, no lock: the claim that follows when it finds one is what decides (terminal.ts).
      return (await one(x, sql`SELECT 1 AS found FROM intentions c WHERE ${routeWhere(route)} AND c.estado IN ${list(states)} LIMIT 1`)) !== undefined;
    },
    async countHolding(route, states) {
      const r = await one<{ n: number }>(x, sql`SELECT COUNT(*) AS n FROM intentions c WHERE ${routeWhere(route)}
        AND c.leased_to = ${route.terminalId} AND c.estado IN ${list(states)} AND ${forPrinter(d, 'c')}`);
      return Number(r?.n ?? 0);
    },
    async mismatched(route, states, limit) {
      if (route.printerId === null) return [];
      return MISMATCHED.all(x, sql`SELECT ${MISMATCHED.select()} FROM intentions WHERE user_id = ${route.accountId} AND terminal_id = ${route.terminalId}
        AND estado IN ${list(states)} AND impressora_id <> ${route.printerId} ORDER BY id LIMIT ${limit}`);
    },
    listForRoute: (route, states) => INTENTION.all(x, sql`SELECT * FROM intentions c WHERE ${routeWhere(route)} AND c.estado IN ${list(states)} ORDER BY c.id`),
    listSummaries: (route, states, afterId, limit) =>
      summaries(sql`${routeWhere(route)} AND c.estado IN ${list(states)} AND c.id > ${afterId}`, raw('c.id'), limit),
    page: (filter, limit) => summaries(listWhere(d, filter), raw('c.created_at DESC, c.id DESC'), limit),
    async countReprint(ref) {
      return (await x.run(sql`UPDATE intentions SET reprints = reprints + 1 WHERE id = ${ref.id} AND user_id = ${ref.accountId}`)) === 1;
    },
    async ownerOf(id) {
      return (await one<{ user_id: string }>(x, sql`SELECT user_id FROM intentions WHERE id = ${id}`))?.user_id;
    },
    async countByState(states, atMost) {
      // One bounded count per state, on the indexes that begin with estado: at most `atMost` rows read for each.
      const counts = states.map((s, i) => sql`(SELECT count(*) FROM (SELECT 1 FROM intentions WHERE estado = ${s} LIMIT ${atMost}) ${raw(`s${i}`)}) AS ${raw(`n${i}`)}`);
      const [row] = await x.all<Record<string, number>>(sql`SELECT ${join(counts)}`);
      return Object.fromEntries(states.map((s, i) => [s, Number(row![`n${i}`])])) as Record<JobState, number>;
    },
    async countIgnoredReport(ref) {
      const r = await one<{ ignored_reports: number }>(x, sql`UPDATE intentions SET ignored_reports = ignored_reports + 1
        WHERE id = ${ref.id} AND user_id = ${ref.accountId} RETURNING ignored_reports`);
      return r?.ignored_reports;
    },
    purgeEnded(states, before, limit) {
      // On the (created_at, id) index, oldest first; a job with a history row since `before` (it
      // ended then, or a report on it was ignored then) is kept. Locked until deleted: a reprint
      // meanwhile waits, then finds it gone.
      return x.atomic(async (t) => {
        const ids = (await t.all<{ id: number }>(sql`SELECT c.id FROM intentions c WHERE c.created_at < ${before} AND c.estado IN ${list(states)}
          AND NOT EXISTS (SELECT 1 FROM job_history h WHERE h.intention_id = c.id AND h.at >= ${before})
          ORDER BY c.created_at, c.id LIMIT ${limit}${d.forUpdate}`)).map((r) => r.id);
        if (ids.length === 0) return 0;
        const [, , n] = await t.batch([
          sql`DELETE FROM stuck_jobs WHERE intention_id IN ${list(ids)}`, sql`DELETE FROM job_history WHERE intention_id IN ${list(ids)}`,
          sql`DELETE FROM intentions WHERE id IN ${list(ids)}`,
        ]);
        return n!;
      });
    },
    dueLeases: (states, now, limit) => due(raw('lease_expires_at'), states, now, limit),
    dueExpiry: (states, now, limit) => due(raw('expires_at'), states, now, limit),
    ...idempotency(x),
    ...stuckJobs(x),
  };
}
