// intentions: compiled print jobs (bytes + diagnostics), their delivery state and history, and the
// Idempotency-Key answers given for them. State changes are single guarded statements; which
// states they may start from is jobs/lifecycle.ts's table, passed in as `from`.
import type Database from 'better-sqlite3';
import type { IntentionRepository } from '../repositories.js';
import { DuplicateError, type ClaimRoute, type HistoryEntry, type Intention, type IntentionSummary, type JobPatch, type JobState } from '../types.js';
import { AWAITS_PERSON } from '../../jobs/events.js';
import type { Sync } from './bind.js';

interface Row {
  id: number; user_id: string; referencia: string | null; conteudo: string; terminal_id: string | null;
  impressora_id: number; codigo_impressora: string; aguardar: number; status: string; bytes: Buffer;
  diagnostics: string; created_at: number; estado: JobState; motivos: string; tentativas: number; confirmacao: Intention['confirmacao'];
  leased_to: string | null; lease_token: string | null; lease_expires_at: number | null; expires_at: number | null; reprint: number;
  url_callback: string | null; ignored_reports: number;
}
type SummaryRow = Omit<Row, 'conteudo' | 'bytes' | 'diagnostics'> & { size: number };
interface IdemRow { request_hash: string; status_code: number; body: string }
interface HistoryRow { seq: number; estado: JobState; evento: string; motivos: string; origem: HistoryEntry['origem']; detalhe: string | null; at: number }

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

const toSummary = (r: SummaryRow): IntentionSummary => ({
  id: r.id, accountId: r.user_id, referencia: r.referencia, terminalId: r.terminal_id,
  impressoraId: r.impressora_id, codigoImpressora: r.codigo_impressora, aguardarClienteIniciarImpressao: r.aguardar === 1,
  status: r.status, createdAt: new Date(r.created_at),
  estado: r.estado, motivos: JSON.parse(r.motivos), tentativas: r.tentativas, confirmacao: r.confirmacao,
  leasedTo: r.leased_to, leaseToken: r.lease_token, leaseExpiresAt: date(r.lease_expires_at), expiresAt: date(r.expires_at), reprint: r.reprint === 1,
  urlCallback: r.url_callback, ignoredReports: r.ignored_reports, size: r.size,
});

const toIntention = (r: Row): Intention => {
  const { size: _size, ...rest } = toSummary({ ...r, size: r.bytes.length });
  return { ...rest, conteudo: r.conteudo, bytes: new Uint8Array(r.bytes), diagnostics: JSON.parse(r.diagnostics) };
};

/** Every column but the heavy ones (content, bytes, diagnostics), and the bytes' length. */
const SUMMARY_COLUMNS = `c.id, c.user_id, c.referencia, c.terminal_id, c.impressora_id, c.codigo_impressora, c.aguardar, c.status, c.created_at,
  c.estado, c.motivos, c.tentativas, c.confirmacao, c.leased_to, c.lease_token, c.lease_expires_at, c.expires_at, c.reprint, c.url_callback,
  c.ignored_reports, length(c.bytes) AS size`;

const toHistory = (r: HistoryRow): HistoryEntry => ({
  seq: r.seq, estado: r.estado, evento: r.evento, motivos: JSON.parse(r.motivos), origem: r.origem, detalhe: r.detalhe, at: new Date(r.at),
});

/** `?, ?, ?` for a list of states (at most nine: the lifecycle's). */
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** SET clause and its values for a patch: only the fields it carries. */
function setClause(p: JobPatch): [string, unknown[]] {
  const sets = ['estado = ?', 'status = ?'];
  const values: unknown[] = [p.estado, p.status];
  const add = (sql: string, v: unknown) => {
    sets.push(sql);
    values.push(v);
  };
  if (p.motivos !== undefined) add('motivos = ?', JSON.stringify(p.motivos));
  if (p.tentativasIncrement) sets.push('tentativas = tentativas + 1');
  if (p.confirmacao !== undefined) add('confirmacao = ?', p.confirmacao);
  if (p.leasedTo !== undefined) add('leased_to = ?', p.leasedTo);
  if (p.leaseToken !== undefined) add('lease_token = ?', p.leaseToken);
  if (p.leaseExpiresAt !== undefined) add('lease_expires_at = ?', p.leaseExpiresAt === null ? null : p.leaseExpiresAt.getTime());
  if (p.reprint !== undefined) add('reprint = ?', p.reprint ? 1 : 0);
  if (p.compiled !== undefined) {
    add('bytes = ?', Buffer.from(p.compiled.bytes));
    add('diagnostics = ?', JSON.stringify(p.compiled.diagnostics));
    add('impressora_id = ?', p.compiled.impressoraId);
    add('codigo_impressora = ?', p.compiled.codigoImpressora);
  }
  return [sets.join(', '), values];
}

/**
 * The jobs a route may take: its own terminal's, and (taking template jobs) the account's jobs with
 * no terminal, for its template or any; a template job once leased stays with that terminal, so a
 * re-offer after a lost report reaches the journal that knows it.
 */
function routeWhere(alias: string, r: ClaimRoute): [string, unknown[]] {
  const own = `${alias}.terminal_id = ?`;
  if (!r.templateJobs) return [`${alias}.user_id = ? AND ${own}`, [r.accountId, r.terminalId]];
  const template = `(${alias}.terminal_id IS NULL AND (${alias}.leased_to IS NULL OR ${alias}.leased_to = ?)${r.printerId === null ? '' : ` AND ${alias}.impressora_id = ?`})`;
  return [`${alias}.user_id = ? AND (${own} OR ${template})`, [r.accountId, r.terminalId, r.terminalId, ...(r.printerId === null ? [] : [r.printerId])]];
}

export function sqliteIntentions(db: Database.Database): Sync<IntentionRepository> {
  const q = {
    insert: db.prepare(`INSERT INTO intentions (user_id, referencia, conteudo, terminal_id, impressora_id, codigo_impressora,
      aguardar, status, bytes, diagnostics, created_at, estado, confirmacao, expires_at, motivos, url_callback) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    one: db.prepare<[number, string], Row>('SELECT * FROM intentions WHERE id = ? AND user_id = ?'),
    history: db.prepare<[number, string], HistoryRow>(`SELECT h.seq, h.estado, h.evento, h.motivos, h.origem, h.detalhe, h.at FROM job_history h
      JOIN intentions i ON i.id = h.intention_id WHERE h.intention_id = ? AND i.user_id = ? ORDER BY h.seq`),
    append: db.prepare<unknown[], { seq: number }>(`INSERT INTO job_history (intention_id, seq, estado, evento, motivos, origem, detalhe, at)
      VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM job_history WHERE intention_id = ?), ?, ?, ?, ?, ?, ?) RETURNING seq`),
    idem: db.prepare<[string, string], IdemRow>('SELECT request_hash, status_code, body FROM idempotency WHERE user_id = ? AND key = ?'),
    ignored: db.prepare<[number, string], { ignored_reports: number }>('UPDATE intentions SET ignored_reports = ignored_reports + 1 WHERE id = ? AND user_id = ? RETURNING ignored_reports'),
    saveIdem: db.prepare('INSERT INTO idempotency (user_id, key, request_hash, status_code, body, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
  };
  // Statements whose text depends on the number of states or the patch's fields, prepared once each.
  const cache = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let st = cache.get(sql);
    if (!st) cache.set(sql, (st = db.prepare(sql)));
    return st;
  };
  return {
    insert(i) {
      const estado = i.estado ?? 'queued';
      const confirmacao = i.confirmacao ?? 'none';
      const { lastInsertRowid } = q.insert.run(
        i.accountId, i.referencia, i.conteudo, i.terminalId, i.impressoraId, i.codigoImpressora,
        i.aguardarClienteIniciarImpressao ? 1 : 0, i.status, Buffer.from(i.bytes), JSON.stringify(i.diagnostics), i.createdAt.getTime(),
        estado, confirmacao, i.expiresAt ? i.expiresAt.getTime() : null, JSON.stringify(i.motivos ?? []), i.urlCallback ?? null,
      );
      return {
        ...i, id: Number(lastInsertRowid), estado, confirmacao, motivos: i.motivos ?? [], tentativas: 0,
        leasedTo: null, leaseToken: null, leaseExpiresAt: null, expiresAt: i.expiresAt ?? null, reprint: false, ignoredReports: 0,
      };
    },
    get(accountId, id) {
      const r = q.one.get(id, accountId);
      return r && toIntention(r);
    },
    history: (accountId, id) => q.history.all(id, accountId).map(toHistory),
    appendHistory(id, e) {
      const { seq } = q.append.get(id, id, e.estado, e.evento, JSON.stringify(e.motivos), e.origem, e.detalhe, e.at.getTime())!;
      return { ...e, seq };
    },
    update(ref, from, patch, guard) {
      const [set, values] = setClause(patch);
      const lease = typeof guard === 'string' ? { token: guard } : guard;
      const guards = `${lease ? ' AND lease_token = ?' : ''}${lease?.expiredBy ? ' AND lease_expires_at < ?' : ''}`;
      const sql = `UPDATE intentions SET ${set} WHERE id = ? AND user_id = ? AND estado IN (${marks(from.length)})${guards} RETURNING *`;
      const guardValues = lease ? [lease.token, ...(lease.expiredBy ? [lease.expiredBy.getTime()] : [])] : [];
      const r = prepared(sql).get(...values, ref.id, ref.accountId, ...from, ...guardValues) as Row | undefined;
      return r && toIntention(r);
    },
    renewLease(ref, from, lease, until) {
      const sql = `UPDATE intentions SET lease_expires_at = ? WHERE id = ? AND user_id = ? AND estado IN (${marks(from.length)}) AND lease_token = ? AND leased_to = ?`;
      return prepared(sql).run(until.getTime(), ref.id, ref.accountId, ...from, lease.token, lease.leasedTo).changes === 1;
    },
    claim(route, from, patch) {
      const [set, values] = setClause(patch);
      const [where, whereValues] = routeWhere('c', route);
      // A job stopped on this terminal's printer (not one waiting for a person: AWAITS_PERSON)
      // holds the queue back: when the printer clears, it goes first.
      const sql = `UPDATE intentions SET ${set} WHERE id = (
          SELECT c.id FROM intentions c WHERE ${where} AND c.estado IN (${marks(from.length)})
            AND NOT EXISTS (SELECT 1 FROM intentions s WHERE s.user_id = c.user_id AND s.leased_to = ? AND s.estado = 'stopped'
              AND NOT EXISTS (SELECT 1 FROM json_each(s.motivos) m WHERE m.value IN (${marks(AWAITS_PERSON.length)})))
          ORDER BY c.id LIMIT 1)
        RETURNING *`;
      const r = prepared(sql).get(...values, ...whereValues, ...from, route.terminalId, ...AWAITS_PERSON) as Row | undefined;
      return r && toIntention(r);
    },
    mismatched(route, states, limit) {
      if (route.printerId === null) return [];
      const sql = `SELECT id, codigo_impressora FROM intentions WHERE user_id = ? AND terminal_id = ? AND estado IN (${marks(states.length)})
        AND impressora_id <> ? ORDER BY id LIMIT ?`;
      const rows = prepared(sql).all(route.accountId, route.terminalId, ...states, route.printerId, limit) as { id: number; codigo_impressora: string }[];
      return rows.map((r) => ({ accountId: route.accountId, id: r.id, codigoImpressora: r.codigo_impressora }));
    },
    listForRoute(route, states) {
      const [where, whereValues] = routeWhere('c', route);
      const sql = `SELECT * FROM intentions c WHERE ${where} AND c.estado IN (${marks(states.length)}) ORDER BY c.id`;
      return (prepared(sql).all(...whereValues, ...states) as Row[]).map(toIntention);
    },
    listSummaries(route, states, afterId, limit) {
      const [where, whereValues] = routeWhere('c', route);
      const sql = `SELECT ${SUMMARY_COLUMNS} FROM intentions c WHERE ${where} AND c.estado IN (${marks(states.length)}) AND c.id > ? ORDER BY c.id LIMIT ?`;
      return (prepared(sql).all(...whereValues, ...states, afterId, limit) as SummaryRow[]).map(toSummary);
    },
    countIgnoredReport: (ref) => q.ignored.get(ref.id, ref.accountId)?.ignored_reports ?? 0,
    dueLeases(states, now, limit) {
      const sql = `SELECT user_id, id FROM intentions WHERE estado IN (${marks(states.length)}) AND lease_expires_at < ? ORDER BY lease_expires_at LIMIT ?`;
      return (prepared(sql).all(...states, now.getTime(), limit) as { user_id: string; id: number }[]).map((r) => ({ accountId: r.user_id, id: r.id }));
    },
    dueExpiry(states, now, limit) {
      const sql = `SELECT user_id, id FROM intentions WHERE estado IN (${marks(states.length)}) AND expires_at < ? ORDER BY expires_at LIMIT ?`;
      return (prepared(sql).all(...states, now.getTime(), limit) as { user_id: string; id: number }[]).map((r) => ({ accountId: r.user_id, id: r.id }));
    },
    findIdempotent(accountId, key) {
      const r = q.idem.get(accountId, key);
      return r && { requestHash: r.request_hash, statusCode: r.status_code, body: r.body };
    },
    saveIdempotent(accountId, key, a) {
      try {
        q.saveIdem.run(accountId, key, a.requestHash, a.statusCode, a.body, Date.now());
      } catch (err) {
        if (String((err as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) throw new DuplicateError(`Idempotency-Key ${key} already has an answer`);
        throw err;
      }
    },
  };
}
