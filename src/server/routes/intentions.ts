// POST /IntencaoImpressao/Insert, GET /IntencaoImpressao/GetById (spec §4.3, §4.4), POST
// /IntencaoImpressao/Cancelar, /Recompilar, /Reimprimir and /Iniciar, GET /IntencaoImpressao/GetAll
// and /GetBytes, behind the printing scope's authentication. Insert resolves the printer, compiles
// (see compiler.ts), and commits bytes + diagnostics + the job's first state and history row before
// answering (jobs/partner.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { hasErrors } from '../../index.js';
import { sha256 } from '../auth/secrets.js';
import type { Compiler } from '../compiler.js';
import { compileFor, compileJob } from '../compile-for.js';
import { formatData } from '../dates.js';
import { checkWebhookUrl, type AddressPolicy } from '../webhooks/address-policy.js';
import { sharedLookups, type LookupGate } from '../webhooks/dns-gate.js';
import { Problem } from '../errors.js';
import { pageSize } from '../paging.js';
import type { Inserted, Jobs } from '../jobs/jobs.js';
import { cancelSchema, getAllSchema, getByIdSchema, getBytesSchema, insertSchema, LIST_PAGE, partnerStartSchema, recompileSchema, reprintSchema } from '../schemas/intentions.js';
import type { Store } from '../store/repositories.js';
import { assertWellFormed, insertRequestHash } from './insert-request.js';
import { diagnosticView, intentionRow, intentionView } from './intention-view.js';
import { resolvePrinter } from './resolve-printer.js';
import { plainJson } from './terminal.js';
import { webhookUrlProblem } from './webhooks.js';

/** An Insert's (or Reimprimir's) answer, serialised here the same way whether made now or replayed for its Idempotency-Key. */
function sendInserted(reply: FastifyReply, inserted: Inserted) {
  reply.code(inserted.statusCode);
  if (inserted.replayed) reply.header('idempotent-replayed', 'true');
  // A body an earlier version stored for the key goes out as it was.
  if ('body' in inserted) return reply.type('application/json').send(inserted.body);
  return intentionView(inserted.answer);
}

export interface IntentionRouteOptions {
  store: Store;
  compiler: Compiler;
  jobs: Jobs;
  webhookPolicy: AddressPolicy;
  /** Where a urlCallback's host is resolved (default the process's sharedLookups, the sender's too). */
  webhookLookups?: LookupGate;
}

/** A urlCallback is held to the same rules as an endpoint's address (webhooks/address-policy.ts), its host resolved in the account's turn. */
async function checkCallback(url: string, policy: AddressPolicy, lookups: LookupGate, accountId: string): Promise<void> {
  try {
    await checkWebhookUrl(url, policy, lookups.for(accountId));
  } catch (err) {
    throw webhookUrlProblem(err, '/urlCallback', lookups) ?? err;
  }
}

export async function intentionRoutes(app: FastifyInstance, { store, compiler, jobs, webhookPolicy, webhookLookups = sharedLookups }: IntentionRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post('/IntencaoImpressao/Insert', { schema: insertSchema }, async (request, reply) => {
    const { body } = request;
    const { accountId } = request.principal;
    const key = request.headers['idempotency-key'];
    assertWellFormed(body);
    const idempotency = key ? { key, requestHash: insertRequestHash(body) } : undefined;
    const inserted = await jobs.partner.insert(accountId, idempotency, async () => {
      if (body.urlCallback) await checkCallback(body.urlCallback, webhookPolicy, webhookLookups, accountId);
      const profile = await resolvePrinter(store, accountId, body);
      const { bytes, diagnostics } = await compileFor(compiler, store, request.principal, { conteudo: body.conteudo, printer: profile.id });
      if (hasErrors(diagnostics)) throw new Problem('content-invalid', { diagnostics: diagnostics.map(diagnosticView) });
      return {
        job: {
          accountId, referencia: body.referencia ?? null, conteudo: body.conteudo, terminalId: body.terminalId || null, impressoraId: profile.id,
          codigoImpressora: profile.code, aguardarClienteIniciarImpressao: body.aguardarClienteIniciarImpressao ?? false, bytes, diagnostics,
          createdAt: new Date(), urlCallback: body.urlCallback || null,
        },
        generic: profile.isGeneric,
      };
    });
    return sendInserted(reply, inserted);
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
    return intentionView(await jobs.partner.recompile(request.principal.accountId, Number(request.query.intencaoImpressaoId), compileJob(compiler, store, request.principal)));
  });

  api.get('/IntencaoImpressao/GetAll', { schema: getAllSchema, serializerCompiler: plainJson }, async (request) => {
    const q = request.query;
    const limit = pageSize(q.limite, LIST_PAGE);
    const page = await jobs.partner.list({
      accountId: request.principal.accountId,
      ...(q.estado === undefined ? {} : { estado: q.estado }),
      ...(q.terminalId === undefined ? {} : { terminalId: q.terminalId }),
      ...(q.referencia === undefined ? {} : { referencia: q.referencia }),
      ...(q.desde === undefined ? {} : { since: instant(q.desde, 'desde') }),
      ...(q.ate === undefined ? {} : { until: instant(q.ate, 'ate') }),
    }, { cursor: q.cursor, limit });
    return { data: formatData(new Date()), intencoes: page.jobs.map(intentionRow), proximoCursor: page.nextCursor };
  });

  // A new job, compiled as Insert compiles; with an Idempotency-Key a retried request replays the first answer instead of a third copy.
  api.post('/IntencaoImpressao/Reimprimir', {
    schema: reprintSchema,
    // The body is optional: a POST without one is `{}` (no marker).
    preValidation: async (request) => {
      if (request.body === undefined || request.body === null) request.body = {};
    },
  }, async (request, reply) => {
    const { accountId } = request.principal;
    const id = Number(request.query.intencaoImpressaoId);
    const marcador = request.body.marcador || undefined;
    const key = request.headers['idempotency-key'];
    const idempotency = key ? { key, requestHash: sha256(JSON.stringify(['Reimprimir', id, marcador ?? null])) } : undefined;
    return sendInserted(reply, await jobs.partner.reprint(accountId, id, { idempotency, marcador, compile: compileJob(compiler, store, request.principal) }));
  });

  api.post('/IntencaoImpressao/Iniciar', { schema: partnerStartSchema, serializerCompiler: plainJson }, async (request) => {
    return intentionView(await jobs.partner.start(request.principal.accountId, Number(request.query.intencaoImpressaoId)));
  });

  api.get('/IntencaoImpressao/GetBytes', { schema: getBytesSchema }, async (request, reply) => {
    const { bytes, codigoImpressora } = await jobs.partner.bytes(request.principal.accountId, Number(request.query.intencaoImpressaoId));
    return reply.type('application/octet-stream').header('x-codigo-impressora', codigoImpressora).send(Buffer.from(bytes));
  });
}

/** A validated date-time as an instant; one the format lets through but Date cannot hold (a leap second) is 400. */
function instant(value: string, field: string): Date {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new Problem('invalid-request', { errors: [{ path: `/${field}`, message: 'not a date-time this service can read' }] }, `querystring/${field} is not a valid date-time`);
  return at;
}
