// POST /IntencaoImpressao/Insert and GET /IntencaoImpressao/GetById (spec §4.3, §4.4), behind the
// printing scope's authentication. Insert resolves the printer, compiles (see compiler.ts), and commits
// bytes + diagnostics before answering.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { hasErrors } from '../../index.js';
import type { Compiler } from '../compiler.js';
import type { JobEventSink } from '../jobs/events.js';
import { AddressRefused, checkWebhookUrl, type AddressPolicy } from '../webhooks/address-policy.js';
import { Problem } from '../errors.js';
import { getByIdSchema, insertSchema } from '../schemas.js';
import type { Store } from '../store/repositories.js';
import type { IdempotentAnswer } from '../store/types.js';
import { recordIntention } from '../use-cases/record-intention.js';
import { assertWellFormed, insertRequestHash } from './insert-request.js';
import { diagnosticView, intentionView } from './intention-view.js';
import { resolvePrinter } from './resolve-printer.js';

function replay(reply: FastifyReply, answer: IdempotentAnswer, requestHash: string) {
  if (answer.requestHash !== requestHash) throw new Problem('idempotency-key-reused');
  return reply.code(answer.statusCode).header('idempotent-replayed', 'true').type('application/json').send(answer.body as never);
}

export interface IntentionRouteOptions {
  store: Store;
  compiler: Compiler;
  jobEvents: JobEventSink;
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

export async function intentionRoutes(app: FastifyInstance, { store, compiler, jobEvents, webhookPolicy }: IntentionRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post('/IntencaoImpressao/Insert', { schema: insertSchema }, async (request, reply) => {
    const { body } = request;
    const { accountId } = request.principal;
    const key = request.headers['idempotency-key'];
    assertWellFormed(body);
    const requestHash = insertRequestHash(body);
    if (key) {
      const prior = await store.intentions.findIdempotent(accountId, key);
      if (prior) return replay(reply, prior, requestHash);
    }
    if (body.urlCallback) await checkCallback(body.urlCallback, webhookPolicy);
    const profile = await resolvePrinter(store, accountId, body);
    const { bytes, diagnostics } = await compiler.run({ conteudo: body.conteudo, printer: profile.id });
    if (hasErrors(diagnostics)) throw new Problem('content-invalid', { diagnostics: diagnostics.map(diagnosticView) });
    const aguardar = body.aguardarClienteIniciarImpressao ?? false;
    const recorded = await recordIntention(
      store,
      {
        accountId, referencia: body.referencia ?? null, conteudo: body.conteudo, terminalId: body.terminalId || null,
        impressoraId: profile.id, codigoImpressora: profile.code, aguardarClienteIniciarImpressao: aguardar,
        status: profile.isGeneric && !aguardar ? 'Impresso' : 'ImpressaoEnviada', bytes, diagnostics, createdAt: new Date(),
        urlCallback: body.urlCallback || null,
      },
      key ? { key, requestHash, statusCode: 200 } : undefined,
      (intention) => JSON.stringify(intentionView(intention)),
      jobEvents,
    );
    if ('replay' in recorded) return replay(reply, recorded.replay, requestHash);
    // With a key, the body was serialised once and stored; send those exact bytes.
    return recorded.answer ? reply.type('application/json').send(recorded.answer.body as never) : intentionView(recorded.intention);
  });

  api.get('/IntencaoImpressao/GetById', { schema: getByIdSchema }, async (request) => {
    const id = Number(request.query.intencaoImpressaoId);
    const intention = await store.intentions.get(request.principal.accountId, id);
    if (!intention) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    return intentionView(intention);
  });
}
