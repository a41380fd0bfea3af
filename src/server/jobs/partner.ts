// The partner's job use cases: record a compiled intention (Insert), read one, list them (GetAll),
// compile one again for its terminal's printer now (Recompilar), cancel one nobody holds, start a
// held one (Iniciar), print a counted second copy (Reimprimir), hand out its bytes (GetBytes). The
// routes and `bobina jobs` call these. Each state change is one store transaction through lifecycle.ts.
// Insert and Reimprimir hand back what their answer is made from; the route serialises it.
import { escape, loadProfile } from '../../index.js';
import { Problem } from '../errors.js';
import type { IdempotentAnswer, InsertAnswer, IntentionSummary, JobFilter, NewIntention } from '../store/types.js';
import type { JobContext } from './context.js';
import { insertEvent, insertJob, transition, type JobWithHistory } from './lifecycle.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';
import { notRecompilable, recompiled, unchanged, type Recompiled } from './printer-change.js';
import { startJob } from './start.js';

/** An Idempotency-Key and the hash of the request it came with. */
export interface Idempotency {
  key: string;
  requestHash: string;
}

/** What an Insert records: the job's draft (compiled), and whether its printer is the generic one. */
export interface InsertDraft {
  job: Omit<NewIntention, 'estado' | 'status' | 'expiresAt'>;
  generic: boolean;
}

/**
 * An Insert's answer, to serialise (the same way every time): what it is made from, made now or
 * replayed for its Idempotency-Key; or, for a key an earlier version stored, the body it answered with.
 */
export type Inserted = { statusCode: number; replayed: boolean } & ({ answer: InsertAnswer } | { body: string });

/** The answer a job just inserted is given, at `at`. */
export const answerOf = ({ job, history }: JobWithHistory, at: Date): InsertAnswer => {
  const { bytes, ...rest } = job;
  return { job: { ...rest, size: bytes.length }, history, at };
};

/** A page of a job list, and the cursor of the next one (null: this was the last). */
export interface JobPage {
  jobs: IntentionSummary[];
  nextCursor: string | null;
}

/**
 * A reprint's content: the marker (say "2ª VIA") on a line of its own above the job's content,
 * escaped, so it prints as written and no tag in it is a command.
 */
export function markedContent(conteudo: string, marcador: string | undefined): string {
  return marcador ? `${escape(marcador)}\n${conteudo}` : conteudo;
}

export class PartnerJobs {
  constructor(private readonly c: JobContext) {}

  /**
   * Records a compiled intention in its first state with history row 1, in one transaction with
   * what its answer is made from under its Idempotency-Key, if it has one. A key already answered
   * (for the same request) is answered again, and `draft` (which compiles) is never called.
   */
  async insert(accountId: string, idempotency: Idempotency | undefined, draft: () => Promise<InsertDraft>): Promise<Inserted> {
    if (idempotency) {
      const prior = await this.c.store.intentions.findIdempotent(accountId, idempotency.key);
      if (prior) return this.replay(accountId, idempotency, prior);
    }
    const { job, generic } = await draft();
    const now = job.createdAt;
    const event = insertEvent({ generic, aguardar: job.aguardarClienteIniciarImpressao });
    const recorded = await this.c.store.transaction(async (tx): Promise<{ created: JobWithHistory; answer: InsertAnswer } | IdempotentAnswer> => {
      if (idempotency) {
        // Checked again inside the transaction: two concurrent requests with one key insert once.
        const prior = await tx.intentions.findIdempotent(accountId, idempotency.key);
        if (prior) return prior;
      }
      // A reprint is counted on its original in the same transaction: a copy is never made uncounted.
      if (job.reprintOf != null && !(await tx.intentions.countReprint({ accountId, id: job.reprintOf }))) {
        throw new Problem('intention-not-found', { intencaoImpressaoId: job.reprintOf });
      }
      // A job with no terminal goes to the account's template-jobs terminals; with none, it says so.
      const routeless = event === 'insert-queued' && job.terminalId === null && !(await tx.terminals.hasTemplateRoute(accountId, job.impressoraId));
      const created = await insertJob(tx, this.c.sink, { ...job, expiresAt: new Date(now.getTime() + this.c.settings.ttlMs) }, event, {
        origem: 'server', at: now, ...(routeless ? { motivos: ['no-route'], detalhe: 'no terminal of this account takes template jobs for this printer' } : {}),
      });
      const answer = answerOf(created, new Date());
      if (idempotency) {
        await tx.intentions.saveIdempotent(accountId, idempotency.key, { requestHash: idempotency.requestHash, statusCode: 200, intentionId: created.job.id, answer });
      }
      return { created, answer };
    });
    if ('requestHash' in recorded) return this.replay(accountId, idempotency!, recorded);
    this.c.queued(recorded.created.job);
    return { statusCode: 200, replayed: false, answer: recorded.answer };
  }

  /** The answer a key already has, for the same request (another request with the key is 422). */
  private async replay(accountId: string, idempotency: Idempotency, prior: IdempotentAnswer): Promise<Inserted> {
    if (prior.requestHash !== idempotency.requestHash) throw new Problem('idempotency-key-reused');
    if (prior.answer) return { statusCode: prior.statusCode, replayed: true, answer: prior.answer };
    if (prior.body !== null) return { statusCode: prior.statusCode, replayed: true, body: prior.body };
    // Stored with its job by the version before answers were kept, which stopped before it fixed the
    // body: the job as it is now, kept as the key's answer from now on; gone (past --job-keep), 404.
    const now = await this.get(accountId, prior.intentionId!);
    if (!now) throw new Problem('intention-not-found', { intencaoImpressaoId: prior.intentionId });
    return this.replay(accountId, idempotency, await this.c.store.intentions.settleIdempotent(accountId, idempotency.key, answerOf(now, new Date())));
  }

  async get(accountId: string, id: number): Promise<JobWithHistory | undefined> {
    const job = await this.c.store.intentions.get(accountId, id);
    return job && { job, history: await this.c.store.intentions.history(accountId, id) };
  }

  /**
   * Compiles a job again for its terminal's printer now (after the terminal was linked to another
   * printer) and queues it; `compile` compiles the job's conteudo for a template id (and throws the
   * route's problem for content errors). 409 job-not-recompilable when the job is not queued or
   * stopped, or its terminal has no printer. A queued job it would not change is answered as it is.
   */
  async recompile(accountId: string, id: number, compile: (conteudo: string, printerId: number) => Promise<Recompiled>): Promise<JobWithHistory> {
    const job = await this.c.store.intentions.get(accountId, id);
    if (!job) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    const terminal = job.terminalId === null ? undefined : await this.c.store.terminals.find(accountId, job.terminalId);
    const why = notRecompilable(job, terminal?.printerId);
    if (why) throw new Problem('job-not-recompilable', { intencaoImpressaoId: id, estado: job.estado }, why);
    const printerId = terminal!.printerId!;
    const out = await compile(job.conteudo, printerId);
    const result = await this.c.store.transaction(async (tx) => {
      // As it is now (a client may have taken it while it compiled): left as it is if this changes nothing.
      const now = await tx.intentions.get(accountId, id);
      if (now && unchanged(now, printerId, out)) return { job: now, history: await tx.intentions.history(accountId, id), same: true };
      const changed = await recompiled(tx, this.c.sink, { ...job, accountId }, printerId, out, new Date());
      if (!changed) throw new Problem('job-not-recompilable', { intencaoImpressaoId: id }, 'the job changed state meanwhile: ask again');
      return { job: changed, history: await tx.intentions.history(accountId, id), same: false };
    });
    if (!result.same) this.c.queued(result.job);
    return { job: result.job, history: result.history };
  }

  /** Cancels a job nobody holds (held, queued, stopped); 409 once a client has it or it is final. */
  async cancel(accountId: string, id: number): Promise<JobWithHistory> {
    const result = await this.c.store.transaction(async (tx) => {
      const changed = await transition(tx, this.c.sink, { accountId, id }, 'cancel', { origem: 'server', at: new Date(), motivos: [], detalhe: 'canceled by the partner' });
      if (changed) return { job: changed, history: await tx.intentions.history(accountId, id) };
      const job = await tx.intentions.get(accountId, id);
      if (!job) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
      throw new Problem('job-not-cancelable', { intencaoImpressaoId: id, estado: job.estado });
    });
    return result;
  }

  /**
   * A page of the account's jobs (every account's with `accountId` null: the operator's CLI), newest
   * first, without content or bytes; `cursor` is the previous page's `nextCursor`.
   */
  async list(filter: Omit<JobFilter, 'after'>, page: { cursor?: string | undefined; limit: number }): Promise<JobPage> {
    const after = page.cursor === undefined ? {} : { after: decodeCursor(page.cursor) };
    const rows = await this.c.store.intentions.page({ ...filter, ...after }, page.limit + 1);
    const jobs = rows.slice(0, page.limit);
    const last = jobs[jobs.length - 1];
    return { jobs, nextCursor: rows.length > page.limit && last ? encodeCursor(last) : null };
  }

  /** Starts a held job, or one whose outcome was unknown (printed again): the terminal's Iniciar, asked by the partner. */
  async start(accountId: string, id: number): Promise<JobWithHistory> {
    const found = await this.c.store.intentions.get(accountId, id);
    if (!found) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    return startJob(this.c, found, 'server', { start: 'started by the partner', again: 'started again by the partner after an unknown outcome' });
  }

  /** The bytes stored for a job (what its terminal's client is handed) and the template they are for. */
  async bytes(accountId: string, id: number): Promise<{ bytes: Uint8Array; codigoImpressora: string }> {
    const job = await this.c.store.intentions.get(accountId, id);
    if (!job) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    return { bytes: job.bytes, codigoImpressora: job.codigoImpressora };
  }

  /**
   * A second copy as a job of its own (Reimprimir): the original's content (under `marcador`, if
   * given) compiled again by `compile` for the same template, for the same terminal, held or not as
   * the original was, linked by `reprintOf`; the original's `reprints` count goes up in the same
   * transaction. Any state of the original will do; 404 when the account has no such job, 409
   * terminal-disabled when its terminal no longer prints.
   */
  reprint(
    accountId: string, id: number,
    o: { idempotency?: Idempotency | undefined; marcador?: string | undefined; compile: (conteudo: string, printerId: number) => Promise<Recompiled> },
  ): Promise<Inserted> {
    return this.insert(accountId, o.idempotency, async () => {
      const original = await this.c.store.intentions.get(accountId, id);
      if (!original) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
      if (original.terminalId !== null) {
        const terminal = await this.c.store.terminals.find(accountId, original.terminalId);
        if (terminal && !terminal.enabled) throw new Problem('terminal-disabled', { terminalId: original.terminalId });
      }
      const conteudo = markedContent(original.conteudo, o.marcador);
      const profile = loadProfile(original.impressoraId);
      const { bytes, diagnostics } = await o.compile(conteudo, profile.id);
      return {
        job: {
          accountId, referencia: original.referencia, conteudo, terminalId: original.terminalId, impressoraId: profile.id, codigoImpressora: profile.code,
          aguardarClienteIniciarImpressao: original.aguardarClienteIniciarImpressao, bytes, diagnostics, createdAt: new Date(),
          urlCallback: original.urlCallback ?? null, reprintOf: id,
        },
        generic: profile.isGeneric,
      };
    });
  }
}
