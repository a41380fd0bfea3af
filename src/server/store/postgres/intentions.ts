// intentions: compiled print jobs (bytes + diagnostics), their delivery state and history, and the
// Idempotency-Key answers given for them. State changes are single guarded statements; a claim
// locks the row it takes with FOR UPDATE SKIP LOCKED, so two instances never lease one job.
import type { IntentionRepository } from '../repositories.js';
import { DuplicateError, type ClaimRoute, type HistoryEntry, type Intention, type IntentionSummary, type JobPatch, type JobState } from '../types.js';
import { AWAITS_PERSON } from '../../jobs/events.js';
import type { Db } from './db.js';

interface Row {
  id: number; user_id: string; referencia: Buffer | null; conteudo: Buffer; terminal_id: string | null;
  impressora_id: number; codigo_impressora: string; aguardar: boolean; status: string; bytes: Buffer;
  diagnostics: Intention['diagnostics']; created_at: number; estado: JobState; motivos: string[]; tentativas: number; confirmacao: Intention['confirmacao'];
  leased_to: string | null; lease_token: string | null; lease_expires_at: number | null; expires_at: number | null; reprint: boolean;
  url_callback: string | null; ignored_reports: number;
}
type SummaryRow = Omit<Row, 'conteudo' | 'bytes' | 'diagnostics'> & { size: number };
interface IdemRow { request_hash: string; status_code: number; body: string }
interface HistoryRow { seq: number; estado: JobState; evento: string; motivos: string[]; origem: HistoryEntry['origem']; detalhe: Buffer | null; at: number }

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

/** The partner's free text as BYTEA (UTF-8): text columns cannot hold U+0000 (postgres-migrations.ts). */
const utf8 = (s: string | null) => (s === null ? null : Buffer.from(s, 'utf8'));
const text = (b: Buffer | null) => (b === null ? null : b.toString('utf8'));

const toSummary = (r: SummaryRow): IntentionSummary => ({
  id: r.id, accountId: r.user_id, referencia: text(r.referencia), terminalId: r.terminal_id,
  impressoraId: r.impressora_id, codigoImpressora: r.codigo_impressora, aguardarClienteIniciarImpressao: r.aguardar,
  status: r.status, createdAt: new Date(r.created_at),
  estado: r.estado, motivos: r.motivos, tentativas: r.tentativas, confirmacao: r.confirmacao,
  leasedTo: r.leased_to, leaseToken: r.lease_token, leaseExpiresAt: date(r.lease_expires_at), expiresAt: date(r.expires_at), reprint: r.reprint,
  urlCallback: r.url_callback, ignoredReports: r.ignored_reports, size: Number(r.size),
});

const toIntention = (r: Row): Intention => {
  const { size: _size, ...rest } = toSummary({ ...r, size: r.bytes.length });
  return { ...rest, conteudo: r.conteudo.toString('utf8'), bytes: new Uint8Array(r.bytes), diagnostics: r.diagnostics };
};

/** Every column but the heavy ones (content, bytes, diagnostics), and the bytes' length. */
const SUMMARY_COLUMNS = `c.id, c.user_id, c.referencia, c.terminal_id, c.impressora_id, c.codigo_impressora, c.aguardar, c.status, c.created_at,
  c.estado, c.motivos, c.tentativas, c.confirmacao, c.leased_to, c.lease_token, c.lease_expires_at, c.expires_at, c.reprint, c.url_callback,
  c.ignored_reports, octet_length(c.bytes) AS size`;

const toHistory = (r: HistoryRow): HistoryEntry => ({
  seq: r.seq, estado: r.estado, evento: r.evento, motivos: r.motivos, origem: r.origem, detalhe: text(r.detalhe), at: new Date(r.at),
});

/** Numbers `$n` placeholders as values are added, so clauses can be assembled in any order. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** SET clause for a patch: only the fields it carries. */
function setClause(p: JobPatch, params: Params): string {
  const sets = [`estado = ${params.add(p.estado)}`, `status = ${params.add(p.status)}`];
  if (p.motivos !== undefined) sets.push(`motivos = ${params.add(JSON.stringify(p.motivos))}::jsonb`);
  if (p.tentativasIncrement) sets.push('tentativas = tentativas + 1');
  if (p.confirmacao !== undefined) sets.push(`confirmacao = ${params.add(p.confirmacao)}`);
  if (p.leasedTo !== undefined) sets.push(`leased_to = ${params.add(p.leasedTo)}`);
  if (p.leaseToken !== undefined) sets.push(`lease_token = ${params.add(p.leaseToken)}`);
  if (p.leaseExpiresAt !== undefined) sets.push(`lease_expires_at = ${params.add(p.leaseExpiresAt === null ? null : p.leaseExpiresAt.getTime())}::bigint`);
  if (p.reprint !== undefined) sets.push(`reprint = ${params.add(p.reprint)}`);
  if (p.compiled !== undefined) {
    sets.push(`bytes = ${params.add(Buffer.from(p.compiled.bytes))}`, `diagnostics = ${params.add(JSON.stringify(p.compiled.diagnostics))}::json`);
    sets.push(`impressora_id = ${params.add(p.compiled.impressoraId)}`, `codigo_impressora = ${params.add(p.compiled.codigoImpressora)}`);
  }
  return sets.join(', ');
}

/**
 * The jobs a route may take: its own terminal's, and (taking template jobs) the account's jobs with
 * no terminal, for its template or any; a template job once leased stays with that terminal, so a
 * re-offer after a lost report reaches the journal that knows it.
 */
function routeWhere(alias: string, r: ClaimRoute, params: Params): string {
  const account = `${alias}.user_id = ${params.add(r.accountId)}`;
  const terminal = params.add(r.terminalId);
  const own = `${alias}.terminal_id = ${terminal}`;
  if (!r.templateJobs) return `${account} AND ${own}`;
  const printer = r.printerId === null ? '' : ` AND ${alias}.impressora_id = ${params.add(r.printerId)}`;
  return `${account} AND (${own} OR (${alias}.terminal_id IS NULL AND (${alias}.leased_to IS NULL OR ${alias}.leased_to = ${terminal})${printer}))`;
}

/** The Idempotency-Key's advisory lock key: per account and key, in its own 64-bit lock space. */
const IDEMPOTENCY_LOCK = "hashtextextended('bobina-idempotency' || chr(10) || $1 || chr(10) || $2, 0)";

export function postgresIntentions(db: Db): IntentionRepository {
  return {
    async insert(i) {
      const estado = i.estado ?? 'queued';
      const confirmacao = i.confirmacao ?? 'none';
      const { rows } = await db.query<{ id: number }>(`INSERT INTO intentions (user_id, referencia, conteudo, terminal_id, impressora_id, codigo_impressora,
        aguardar, status, bytes, diagnostics, created_at, estado, confirmacao, expires_at, motivos, url_callback)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`, [
        i.accountId, utf8(i.referencia), utf8(i.conteudo), i.terminalId, i.impressoraId, i.codigoImpressora,
        i.aguardarClienteIniciarImpressao, i.status, Buffer.from(i.bytes), JSON.stringify(i.diagnostics), i.createdAt.getTime(),
        estado, confirmacao, i.expiresAt ? i.expiresAt.getTime() : null, JSON.stringify(i.motivos ?? []), i.urlCallback ?? null,
      ]);
      return {
        ...i, id: rows[0]!.id, estado, confirmacao, motivos: i.motivos ?? [], tentativas: 0,
        leasedTo: null, leaseToken: null, leaseExpiresAt: null, expiresAt: i.expiresAt ?? null, reprint: false, ignoredReports: 0,
      };
    },
    async get(accountId, id) {
      const { rows } = await db.query<Row>('SELECT * FROM intentions WHERE id = $1 AND user_id = $2', [id, accountId]);
      return rows[0] && toIntention(rows[0]);
    },
    async history(accountId, id) {
      const { rows } = await db.query<HistoryRow>(`SELECT h.seq, h.estado, h.evento, h.motivos, h.origem, h.detalhe, h.at FROM job_history h
        JOIN intentions i ON i.id = h.intention_id WHERE h.intention_id = $1 AND i.user_id = $2 ORDER BY h.seq`, [id, accountId]);
      return rows.map(toHistory);
    },
    appendHistory(id, e) {
      // The next number is read after the job row is locked (already, by the transaction that
      // changed the job; else here), so two appends never compute the same one; the (intention_id,
      // seq) key would refuse it anyway.
      return db.atomic(async (tx) => {
        await tx.query('SELECT 1 FROM intentions WHERE id = $1 FOR UPDATE', [id]);
        const { rows } = await tx.query<{ seq: number }>(`INSERT INTO job_history (intention_id, seq, estado, evento, motivos, origem, detalhe, at)
          VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM job_history WHERE intention_id = $1), $2, $3, $4, $5, $6, $7) RETURNING seq`,
        [id, e.estado, e.evento, JSON.stringify(e.motivos), e.origem, utf8(e.detalhe), e.at.getTime()]);
        return { ...e, seq: rows[0]!.seq };
      });
    },
    async update(ref, from, patch, guard) {
      const params = new Params();
      const set = setClause(patch, params);
      const lease = typeof guard === 'string' ? { token: guard } : guard;
      const guards = `${lease ? ` AND lease_token = ${params.add(lease.token)}` : ''}${lease?.expiredBy ? ` AND lease_expires_at < ${params.add(lease.expiredBy.getTime())}::bigint` : ''}`;
      const { rows } = await db.query<Row>(`UPDATE intentions SET ${set}
        WHERE id = ${params.add(ref.id)} AND user_id = ${params.add(ref.accountId)} AND estado = ANY(${params.add([...from])}::text[])${guards} RETURNING *`, params.values);
      return rows[0] && toIntention(rows[0]);
    },
    async renewLease(ref, from, lease, until) {
      const { rowCount } = await db.query(`UPDATE intentions SET lease_expires_at = $1::bigint
        WHERE id = $2 AND user_id = $3 AND estado = ANY($4::text[]) AND lease_token = $5 AND leased_to = $6`, [until.getTime(), ref.id, ref.accountId, [...from], lease.token, lease.leasedTo]);
      return rowCount === 1;
    },
    async claim(route, from, patch) {
      const params = new Params();
      const set = setClause(patch, params);
      const where = routeWhere('c', route, params);
      // A job stopped on this terminal's printer (not one waiting for a person: AWAITS_PERSON)
      // holds the queue back: when the printer clears, it goes first. SKIP LOCKED: a job another
      // instance is taking right now is passed over, not waited for (and not taken twice).
      const { rows } = await db.query<Row>(`UPDATE intentions SET ${set} WHERE id = (
          SELECT c.id FROM intentions c WHERE ${where} AND c.estado = ANY(${params.add([...from])}::text[])
            AND NOT EXISTS (SELECT 1 FROM intentions s WHERE s.user_id = c.user_id AND s.leased_to = ${params.add(route.terminalId)} AND s.estado = 'stopped'
              AND NOT s.motivos ?| ${params.add([...AWAITS_PERSON])}::text[])
          ORDER BY c.id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING *`, params.values);
      return rows[0] && toIntention(rows[0]);
    },
    async mismatched(route, states, limit) {
      if (route.printerId === null) return [];
      const { rows } = await db.query<{ id: number; codigo_impressora: string }>(`SELECT id, codigo_impressora FROM intentions
        WHERE user_id = $1 AND terminal_id = $2 AND estado = ANY($3::text[]) AND impressora_id <> $4 ORDER BY id LIMIT $5`,
      [route.accountId, route.terminalId, [...states], route.printerId, limit]);
      return rows.map((r) => ({ accountId: route.accountId, id: r.id, codigoImpressora: r.codigo_impressora }));
    },
    async listForRoute(route, states) {
      const params = new Params();
      const where = routeWhere('c', route, params);
      const { rows } = await db.query<Row>(`SELECT * FROM intentions c WHERE ${where} AND c.estado = ANY(${params.add([...states])}::text[]) ORDER BY c.id`, params.values);
      return rows.map(toIntention);
    },
    async listSummaries(route, states, afterId, limit) {
      const params = new Params();
      const where = routeWhere('c', route, params);
      const { rows } = await db.query<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM intentions c WHERE ${where}
        AND c.estado = ANY(${params.add([...states])}::text[]) AND c.id > ${params.add(afterId)} ORDER BY c.id LIMIT ${params.add(limit)}`, params.values);
      return rows.map(toSummary);
    },
    async countIgnoredReport(ref) {
      const { rows } = await db.query<{ ignored_reports: number }>(
        'UPDATE intentions SET ignored_reports = ignored_reports + 1 WHERE id = $1 AND user_id = $2 RETURNING ignored_reports', [ref.id, ref.accountId]);
      return rows[0]?.ignored_reports ?? 0;
    },
    async dueLeases(states, now, limit) {
      const { rows } = await db.query<{ user_id: string; id: number }>(
        'SELECT user_id, id FROM intentions WHERE estado = ANY($1::text[]) AND lease_expires_at < $2 ORDER BY lease_expires_at LIMIT $3', [[...states], now.getTime(), limit]);
      return rows.map((r) => ({ accountId: r.user_id, id: r.id }));
    },
    async dueExpiry(states, now, limit) {
      const { rows } = await db.query<{ user_id: string; id: number }>(
        'SELECT user_id, id FROM intentions WHERE estado = ANY($1::text[]) AND expires_at < $2 ORDER BY expires_at LIMIT $3', [[...states], now.getTime(), limit]);
      return rows.map((r) => ({ accountId: r.user_id, id: r.id }));
    },
    async findIdempotent(accountId, key) {
      // Inside a transaction: hold the key until it ends, so a concurrent insert with the same key
      // waits here, then reads the answer this one stores (outside one a lock would end at once).
      if (db.inTransaction) await db.query(`SELECT pg_advisory_xact_lock(${IDEMPOTENCY_LOCK})`, [accountId, key]);
      const { rows } = await db.query<IdemRow>('SELECT request_hash, status_code, body FROM idempotency WHERE user_id = $1 AND key = $2', [accountId, key]);
      const r = rows[0];
      return r && { requestHash: r.request_hash, statusCode: r.status_code, body: r.body };
    },
    async saveIdempotent(accountId, key, a) {
      // DO NOTHING rather than a unique violation: an error would abort an enclosing transaction,
      // where SQLite's leaves it usable; the caller decides what a DuplicateError means.
      const { rowCount } = await db.query(`INSERT INTO idempotency (user_id, key, request_hash, status_code, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT DO NOTHING`, [accountId, key, a.requestHash, a.statusCode, a.body, Date.now()]);
      if (rowCount === 0) throw new DuplicateError(`Idempotency-Key ${key} already has an answer`);
    },
  };
}
