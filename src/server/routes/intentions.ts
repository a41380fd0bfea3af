// POST /IntencaoImpressao/Insert, GET /IntencaoImpressao/GetById (spec §4.3, §4.4), POST
// /IntencaoImpressao/Cancelar and /IntencaoImpressao/Recompilar, behind the printing scope's
// authentication. Insert resolves the printer, compiles (see compiler.ts), and commits bytes +
// diagnostics + the job's first state and history row before answering (jobs/partner.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { hasErrors } from '../../index.js';
import { CompileTimeout, type CompileTask, type Compiler } from '../compiler.js';
import { AddressRefused, checkWebhookUrl, type AddressPolicy } from '../webhooks/address-policy.js';
import { Problem } from '../errors.js';
import type { Jobs } from '../jobs/jobs.js';
import type { JobWithHistory } from '../jobs/lifecycle.js';
import { cancelSchema, getByIdSchema, insertSchema, recompileSchema } from '../schemas/intentions.js';
import type { Store } from '../store/repositories.js';
import type { IdempotentAnswer, Principal } from '../store/types.js';
import { assertWellFormed, insertRequestHash } from './insert-request.js';
import { diagnosticView, intentionView } from './intention-view.js';
import { resolvePrinter } from './resolve-printer.js';
import { plainJson } from './terminal.js';

/** The job as the Insert answers with it when an Idempotency-Key was given: its bytes are what the key replays. */
const insertAnswer = (job: JobWithHistory) => JSON.stringify(intentionView(job));

/**
 * The answer a key already has, for the same request: its body, or (stored without one: the Insert
 * that made the job has not fixed it yet, or never could) the job as it is now, fixed for good.
 */
async function replay(reply: FastifyReply, jobs: Jobs, accountId: string, key: string, answer: IdempotentAnswer, requestHash: string) {
  if (answer.requestHash !== requestHash) throw new Problem('idempotency-key-reused');
  let body = answer.body;
  if (body === null) {
    // Only a key stored with its job has no body (jobs are never deleted).
    const job = (await jobs.partner.get(accountId, answer.intentionId!))!;
    body = await jobs.partner.answerFor(accountId, key, insertAnswer(job));
  }
  return reply.code(answer.statusCode).header('idempotent-replayed', 'true').type('application/json').send(body);
}

export interface IntentionRouteOptions {
  store: Store;
  compiler: Compiler;
  jobs: Jobs;
  webhookPolicy: AddressPolicy;
}

/** A urlCallback is held to the same rules as an endpoint's address (webhooks/address-policy.ts). */
async function checkCallback(url: string, policy: AddressPolicy): Promise<void> {
  try {
    await checkWebhookUrl(url, policy);
  } catch (err) {
    if (err instanceof AddressRefused) throw new Problem('webhook-url-refused', { errors: [{ path: '/urlCallback', message: err.message }] }, `urlCallback: ${err.message}`);
    throw err;
  }
}

/**
 * Compiles for the caller's account, with the account's tag set (`bobina users set --tags`, read
 * with its key); the pool takes accounts in turn; a compile past its time budget is 422 compile-timeout.
 */
async function compileFor(compiler: Compiler, store: Store, principal: Principal, task: Omit<CompileTask, 'tags'>) {
  const tags = principal.kind === 'account' ? principal.tags : ((await store.accounts.findById(principal.accountId))?.tags ?? 'all');
  try {
    return await compiler.run({ ...task, tags }, principal.accountId);
  } catch (err) {
    if (err instanceof CompileTimeout) throw new Problem('compile-timeout', { budgetMs: err.budgetMs }, `The content took longer than ${err.budgetMs} ms to compile; nothing was stored`);
    throw err;
  }
}

export async function intentionRoutes(app: FastifyInstance, { store, compiler, jobs, webhookPolicy }: IntentionRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post('/IntencaoImpressao/Insert', { schema: insertSchema }, async (request, reply) => {
    const { body } = request;
    const { accountId } = request.principal;
    const key = request.headers['idempotency-key'];
    assertWellFormed(body);
    const requestHash = insertRequestHash(body);
    if (key) {
      const prior = await store.intentions.findIdempotent(accountId, key);
      if (prior) return replay(reply, jobs, accountId, key, prior, requestHash);
    }
    if (body.urlCallback) await checkCallback(body.urlCallback, webhookPolicy);
    const profile = await resolvePrinter(store, accountId, body);
    const { bytes, diagnostics } = await compileFor(compiler, store, request.principal, { conteudo: body.conteudo, printer: profile.id });
    if (hasErrors(diagnostics)) throw new Problem('content-invalid', { diagnostics: diagnostics.map(diagnosticView) });
    const aguardar = body.aguardarClienteIniciarImpressao ?? false;
    const recorded = await jobs.partner.insert(
      {
        accountId, referencia: body.referencia ?? null, conteudo: body.conteudo, terminalId: body.terminalId || null,
        impressoraId: profile.id, codigoImpressora: profile.code, aguardarClienteIniciarImpressao: aguardar, bytes, diagnostics, createdAt: new Date(),
        urlCallback: body.urlCallback || null,
      },
      { generic: profile.isGeneric, ...(key ? { idempotency: { key, requestHash } } : {}) },
    );
    if ('replay' in recorded) return replay(reply, jobs, accountId, key!, recorded.replay, requestHash);
    if (!key) return intentionView(recorded.created);
    // Serialised once, and those bytes fixed as the key's answer (or the ones a retry fixed first).
    return reply.type('application/json').send((await jobs.partner.answerFor(accountId, key, insertAnswer(recorded.created))) as never);
  });

  api.get('/IntencaoImpressao/GetById', { schema: getByIdSchema }, async (request) => {
    const id = Number(request.query.intencaoImpressaoId);
    const found = await jobs.partner.get(request.principal.accountId, id);
    if (!found) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    return intentionView(found);
  });

  api.post('/IntencaoImpressao/Cancelar', { schema: cancelSchema, serializerCompiler: plainJson }, async (request) => {
    return intentionView(await jobs.partner.cancel(request.principal.accountId, Number(request.query.intencaoImpressaoId)));
  });

  // Compiled as Insert compiles: on the pool, with the same limits, and refused the same way.
  api.post('/IntencaoImpressao/Recompilar', { schema: recompileSchema, serializerCompiler: plainJson }, async (request) => {
    return intentionView(await jobs.partner.recompile(request.principal.accountId, Number(request.query.intencaoImpressaoId), async (conteudo, printer) => {
      const { bytes, diagnostics } = await compileFor(compiler, store, request.principal, { conteudo, printer });
      if (hasErrors(diagnostics)) throw new Problem('content-invalid', { diagnostics: diagnostics.map(diagnosticView) });
      return { bytes, diagnostics };
    }));
  });
}
