// The partner's job use cases: record a compiled intention (Insert), read one, list them (GetAll),
// compile one again for its terminal's printer now (Recompilar), cancel one nobody holds, start a
// held one (Iniciar), print a counted second copy (Reimprimir), hand out its bytes (GetBytes). The
// routes and `bobina jobs` call these. Each state change is one store transaction through lifecycle.ts.
import { escape, loadProfile } from '../../index.js';
import { Problem } from '../errors.js';
import type { IdempotentAnswer, IntentionSummary, JobFilter, NewIntention } from '../store/types.js';
import type { JobContext } from './context.js';
import { insertEvent, insertJob, transition, type JobWithHistory } from './lifecycle.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';
import { notRecompilable, recompiled, type Recompiled } from './printer-change.js';
import { startJob } from './start.js';

/** An Insert's outcome: the job it made, or the answer a key already has (a job, or the body fixed for it). */
export type Recorded = { created: JobWithHistory } | { replay: IdempotentAnswer };

/** Insert's options: the generic-printer rule, and an Idempotency-Key with the hash of its request. */
export interface InsertOptions {
  generic: boolean;
  idempotency?: { key: string; requestHash: string };
}

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
   * its Idempotency-Key (the key names the job; the route fixes the answer's body once the job is
   * committed, with answerFor).
   */
  async insert(
    draft: Omit<NewIntention, 'estado' | 'status' | 'expiresAt'>,
    o: InsertOptions,
  ): Promise<Recorded> {
    const now = draft.createdAt;
    const event = insertEvent({ generic: o.generic, aguardar: draft.aguardarClienteIniciarImpressao });
    const recorded = await this.c.store.transaction(async (tx): Promise<Recorded> => {
      if (o.idempotency) {
        // Checked again inside the transaction: two concurrent requests with one key insert once.
        const prior = await tx.intentions.findIdempotent(draft.accountId, o.idempotency.key);
        if (prior) return { replay: prior };
      }
      // A reprint is counted on its original in the same transaction: a copy is never made uncounted.
      if (draft.reprintOf != null && !(await tx.intentions.countReprint({ accountId: draft.accountId, id: draft.reprintOf }))) {
        throw new Problem('intention-not-found', { intencaoImpressaoId: draft.reprintOf });
      }
      // A job with no terminal goes to the account's template-jobs terminals; with none, it says so.
      const routeless = event === 'insert-queued' && draft.terminalId === null && !(await tx.terminals.hasTemplateRoute(draft.accountId, draft.impressoraId));
      const created = await insertJob(tx, this.c.sink, { ...draft, expiresAt: new Date(now.getTime() + this.c.settings.ttlMs) }, event, {
        origem: 'server', at: now, ...(routeless ? { motivos: ['no-route'], detalhe: 'no terminal of this account takes template jobs for this printer' } : {}),
      });
      if (o.idempotency) {
        const answer = { requestHash: o.idempotency.requestHash, statusCode: 200, body: null, intentionId: created.job.id };
        await tx.intentions.saveIdempotent(draft.accountId, o.idempotency.key, answer);
      }
      return { created };
    });
    if ('created' in recorded) this.c.queued(recorded.created.job);
    return recorded;
  }

  /**
   * The body an Idempotency-Key answers with: `body` (the route's serialisation of the job) when it
   * is the first to be fixed, else the one fixed before it, so every answer for a key is the same bytes.
   */
  answerFor(accountId: string, key: string, body: string): Promise<string> {
    return this.c.store.intentions.fixIdempotentBody(accountId, key, body);
  }

  async get(accountId: string, id: number): Promise<JobWithHistory | undefined> {
    const job = await this.c.store.intentions.get(accountId, id);
    return job && { job, history: await this.c.store.intentions.history(accountId, id) };
  }

  /**
   * Compiles a job again for its terminal's printer now (after the terminal was linked to another
   * printer) and queues it; `compile` compiles the job's conteudo for a template id (and throws the
   * route's problem for content errors). 409 job-not-recompilable when the job is not queued or
   * stopped, or its terminal has no printer.
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
      const changed = await recompiled(tx, this.c.sink, { ...job, accountId }, printerId, out, new Date());
      if (!changed) throw new Problem('job-not-recompilable', { intencaoImpressaoId: id }, 'the job changed state meanwhile: ask again');
      return { job: changed, history: await tx.intentions.history(accountId, id) };
    });
    this.c.queued(result.job);
    return result;
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
  async reprint(
    accountId: string, id: number,
    o: Omit<InsertOptions, 'generic'> & { marcador?: string | undefined; compile: (conteudo: string, printerId: number) => Promise<Recompiled> },
  ): Promise<Recorded> {
    const original = await this.c.store.intentions.get(accountId, id);
    if (!original) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    if (original.terminalId !== null) {
      const terminal = await this.c.store.terminals.find(accountId, original.terminalId);
      if (terminal && !terminal.enabled) throw new Problem('terminal-disabled', { terminalId: original.terminalId });
    }
    const conteudo = markedContent(original.conteudo, o.marcador);
    const profile = loadProfile(original.impressoraId);
    const { bytes, diagnostics } = await o.compile(conteudo, profile.id);
    return this.insert({
      accountId, referencia: original.referencia, conteudo, terminalId: original.terminalId, impressoraId: profile.id, codigoImpressora: profile.code,
      aguardarClienteIniciarImpressao: original.aguardarClienteIniciarImpressao, bytes, diagnostics, createdAt: new Date(),
      urlCallback: original.urlCallback ?? null, reprintOf: id,
    }, { generic: profile.isGeneric, ...(o.idempotency ? { idempotency: o.idempotency } : {}) });
  }
}
