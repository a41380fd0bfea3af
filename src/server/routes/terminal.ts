// The terminal client protocol's routes (its wire objects and mapping: src/delivery/protocol.ts),
// for `bobina agent` or a partner's own client, authenticated with the terminal's own key:
//   POST /TerminalImpressao/ObterProxima?espera=30  lease the next job (long-poll, ≤ 60 s)
//   POST /TerminalImpressao/Reportar                 printing | completed | stopped | failed, with the delivery token
//   POST /TerminalImpressao/Renovar                  keep the lease of a job still being delivered
//   GET  /TerminalImpressao/ListarRetidas            jobs waiting to be started, a page at a time, without their content
//   POST /TerminalImpressao/Iniciar?intencaoImpressaoId=N
//   POST /TerminalImpressao/Retomar                  the printer is ready again: stopped jobs queued again
//   POST /TerminalImpressao/Sinal                    the heartbeat: the client is there, its printer in this state
// Every poll and heartbeat is a contact the fleet's health records (fleet/fleet.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatData } from '../dates.js';
import { Problem } from '../errors.js';
import { fromPollJson, fromRenewJson, fromReportJson, fromSignalJson, MAX_WAIT_MS, toIntervalo, toTrabalho } from '../../delivery/protocol.js';
import type { Fleet } from '../fleet/fleet.js';
import type { Jobs } from '../jobs/jobs.js';
import { HELD_PAGE, heldSchema, nextSchema, renewSchema, reportSchema, resumeSchema, signalSchema, startSchema } from '../schemas/terminal.js';
import { intentionSummary, intentionView } from './intention-view.js';

const DEFAULT_WAIT_MS = 30_000;

/**
 * These answers are built field by field in the schema's order, so JSON.stringify writes what the
 * schema says; skipping fast-json-stringify's per-route compile keeps the app's start-up (and every
 * test that builds an app) from paying for five more serializers.
 */
export const plainJson = () => (data: unknown) => JSON.stringify(data);

export async function terminalRoutes(app: FastifyInstance, { jobs, fleet }: { jobs: Jobs; fleet: Fleet }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post('/TerminalImpressao/ObterProxima', { schema: nextSchema, serializerCompiler: plainJson }, async (request, reply) => {
    const { espera, terminalId } = request.query;
    if (terminalId !== undefined && request.principal.kind === 'terminal' && terminalId !== request.principal.terminalId) throw new Problem('terminal-mismatch');
    const waitMs = espera === undefined ? DEFAULT_WAIT_MS : Math.min(MAX_WAIT_MS, Math.round(Number(espera) * 1000));
    // A client that hangs up stops waiting, so no job is leased to a request nobody will read:
    // watched before anything is awaited, and found already gone if it hung up while its key was
    // checked (a killed agent's last poll once took the job a person had just started again).
    const gone = new AbortController();
    const onClose = () => gone.abort();
    // (The response's close, not the request's: a request closes as soon as its body has been read;
    // and the connection's end, seen sooner: the service then closes it without an answer.)
    reply.raw.once('close', onClose);
    const socket = request.raw.socket;
    socket.once('end', onClose);
    if (socket.destroyed || socket.readableEnded) gone.abort();
    try {
      await fleet.contact(request.principal, fromPollJson(request.body ?? undefined));
      const offer = await jobs.terminal.next(request.principal, waitMs, gone.signal);
      // A client that hung up reads no answer: its terminal's view is not looked up for it.
      const terminal = gone.signal.aborted ? null : (await jobs.terminal.terminalView(request.principal)) ?? null;
      const trabalho = offer ? toTrabalho(offer.job, offer.token, jobs.settings.leaseMs) : null;
      return { data: formatData(new Date()), trabalho, terminal, intervaloSegundos: toIntervalo(fleet.settings.heartbeatMs) };
    } finally {
      reply.raw.off('close', onClose);
      socket.off('end', onClose);
    }
  });

  api.post('/TerminalImpressao/Reportar', { schema: reportSchema, serializerCompiler: plainJson }, async (request) => {
    const r = await jobs.terminal.report(request.principal, fromReportJson(request.body));
    // A summary: the whole job (2 MiB of content, the history) is GetById's to send.
    return { data: formatData(new Date()), aceito: r.aceito, intencaoImpressao: intentionSummary(r.job) };
  });

  api.post('/TerminalImpressao/Renovar', { schema: renewSchema, serializerCompiler: plainJson }, async (request) => {
    const { aceito, leaseMs } = await jobs.terminal.renew(request.principal, fromRenewJson(request.body));
    return { data: formatData(new Date()), aceito, prazoSegundos: leaseMs / 1000 };
  });

  api.get('/TerminalImpressao/ListarRetidas', { schema: heldSchema, serializerCompiler: plainJson }, async (request) => {
    const { limite, apos } = request.query;
    const limit = Math.min(HELD_PAGE.max, Math.max(1, limite === undefined ? HELD_PAGE.default : Number(limite)));
    const page = await jobs.terminal.held(request.principal, apos === undefined ? 0 : Number(apos), limit);
    return { data: formatData(new Date()), intencoes: page.jobs.map(intentionSummary), proxima: page.next };
  });

  api.post('/TerminalImpressao/Iniciar', { schema: startSchema, serializerCompiler: plainJson }, async (request) => intentionView(await jobs.terminal.start(request.principal, Number(request.query.intencaoImpressaoId))));

  api.post('/TerminalImpressao/Sinal', { schema: signalSchema, serializerCompiler: plainJson }, async (request) => {
    await fleet.contact(request.principal, fromSignalJson(request.body));
    return { data: formatData(new Date()), intervaloSegundos: toIntervalo(fleet.settings.heartbeatMs) };
  });

  api.post('/TerminalImpressao/Retomar', { schema: resumeSchema, serializerCompiler: plainJson }, async (request) => ({ data: formatData(new Date()), retomadas: await jobs.terminal.resume(request.principal) }));
}
