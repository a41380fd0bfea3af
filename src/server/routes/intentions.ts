// POST /IntencaoImpressao/Insert and GET /IntencaoImpressao/GetById (spec §4.3, §4.4), behind the
// printing scope's authentication. Insert resolves the printer, calls compile(), and commits
// bytes + diagnostics before answering.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { compile, hasErrors } from '../../index.js';
import { sha256 } from '../auth/secrets.js';
import { Problem } from '../errors.js';
import { getByIdSchema, insertSchema } from '../schemas.js';
import type { IdempotentAnswer, Store } from '../store/types.js';
import { diagnosticView, intentionView } from './intention-view.js';
import { resolvePrinter } from './resolve-printer.js';

function replay(reply: FastifyReply, answer: IdempotentAnswer, requestHash: string) {
  if (answer.requestHash !== requestHash) throw new Problem('idempotency-key-reused');
  return reply.code(answer.statusCode).header('idempotent-replayed', 'true').type('application/json').send(answer.body as never);
}

export async function intentionRoutes(app: FastifyInstance, { store }: { store: Store }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post('/IntencaoImpressao/Insert', { schema: insertSchema }, async (request, reply) => {
    const { body, userId } = request;
    const key = request.headers['idempotency-key'];
    const requestHash = sha256(JSON.stringify(body));
    if (key) {
      const prior = await store.findIdempotent(userId, key);
      if (prior) return replay(reply, prior, requestHash);
    }
    const profile = await resolvePrinter(store, userId, body);
    const { bytes, diagnostics } = compile(body.conteudo, { printer: profile.id });
    if (hasErrors(diagnostics)) throw new Problem('content-invalid', { diagnostics: diagnostics.map(diagnosticView) });
    const aguardar = body.aguardarClienteIniciarImpressao ?? false;
    const outcome = await store.insertIntention(
      {
        userId, referencia: body.referencia ?? null, conteudo: body.conteudo, terminalId: body.terminalId || null,
        impressoraId: profile.id, codigoImpressora: profile.code, aguardarClienteIniciarImpressao: aguardar,
        status: profile.isGeneric && !aguardar ? 'Impresso' : 'ImpressaoEnviada', bytes, diagnostics, createdAt: new Date(),
      },
      key ? { key, requestHash, statusCode: 200, body: (i) => JSON.stringify(intentionView(i)) } : undefined,
    );
    if ('existing' in outcome) return replay(reply, outcome.existing, requestHash);
    // The idempotent answer was serialised once, in the transaction; send those exact bytes.
    return outcome.body !== undefined ? reply.type('application/json').send(outcome.body as never) : intentionView(outcome.intention);
  });

  api.get('/IntencaoImpressao/GetById', { schema: getByIdSchema }, async (request) => {
    const id = Number(request.query.intencaoImpressaoId);
    const intention = await store.getIntention(request.userId, id);
    if (!intention) throw new Problem('intention-not-found', { intencaoImpressaoId: id });
    return intentionView(intention);
  });
}
