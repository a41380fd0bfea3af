// The partner's job use cases: record a compiled intention (Insert), read one, compile one again
// for its terminal's printer now (Recompilar), cancel one nobody holds. Each state change is one
// store transaction through lifecycle.ts.
import { Problem } from '../errors.js';
import type { IdempotentAnswer, NewIntention } from '../store/types.js';
import type { JobContext } from './context.js';
import { insertEvent, insertJob, transition, type JobWithHistory } from './lifecycle.js';
import { notRecompilable, recompiled, type Recompiled } from './printer-change.js';

/** An Insert's outcome: the job it made, or the answer a key already has (a job, or the body fixed for it). */
export type Recorded = { created: JobWithHistory } | { replay: IdempotentAnswer };

export class PartnerJobs {
  constructor(private readonly c: JobContext) {}

  /**
   * Records a compiled intention in its first state with history row 1, in one transaction with
   * its Idempotency-Key (the key names the job; the route fixes the answer's body once the job is
   * committed, with answerFor).
   */
  async insert(
    draft: Omit<NewIntention, 'estado' | 'status' | 'expiresAt'>,
    o: { generic: boolean; idempotency?: { key: string; requestHash: string } },
  ): Promise<Recorded> {
    const now = draft.createdAt;
    const event = insertEvent({ generic: o.generic, aguardar: draft.aguardarClienteIniciarImpressao });
    const recorded = await this.c.store.transaction(async (tx): Promise<Recorded> => {
      if (o.idempotency) {
        // Checked again inside the transaction: two concurrent requests with one key insert once.
        const prior = await tx.intentions.findIdempotent(draft.accountId, o.idempotency.key);
        if (prior) return { replay: prior };
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
}
