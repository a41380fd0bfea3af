// The terminal client protocol's route schemas (a terminal's own key: `bobina terminals add …
// --print-key`). The wire objects themselves are the protocol's (src/delivery/protocol.ts).
import { Type } from 'typebox';
import { IntervaloJson, PollJson, RenewJson, ReportJson, SignalJson, TerminalStateJson, TrabalhoJson } from '../../delivery/protocol.js';
import { errors, ignoreUnknown, JobIdQuery } from './common.js';
import { IntencaoResumo, IntentionResponse } from './intentions.js';

const TerminalKeyQuery = { key: Type.Optional(Type.String({ description: "The terminal's own key (or send Authorization: Bearer)" })) };

export const nextSchema = {
  tags: ['terminal'],
  summary: "Lease the terminal's next job: answers as soon as one is queued, or `trabalho: null` after `espera` seconds (0-60, default 30)",
  querystring: Type.Object({
    ...TerminalKeyQuery,
    terminalId: Type.Optional(Type.String({ description: 'The terminal the client believes it serves: refused (403 terminal-mismatch) when the key is of another' })),
    espera: Type.Optional(Type.String({ pattern: '^[0-9]{1,2}(\\.[0-9]{1,3})?$', description: 'Seconds to wait, at most 60' })) }, ignoreUnknown),
  body: PollJson,
  response: {
    200: Type.Object({ data: Type.String(), trabalho: Type.Union([TrabalhoJson, Type.Null()]), terminal: Type.Union([TerminalStateJson, Type.Null()]), intervaloSegundos: IntervaloJson }),
    ...errors(400),
  },
};

export const reportSchema = {
  tags: ['terminal'],
  summary: 'Report progress or the outcome of a leased job; `aceito: false` when the token is stale or the job is already final (recorded in its history)',
  querystring: Type.Object(TerminalKeyQuery, ignoreUnknown),
  body: ReportJson,
  response: { 200: Type.Object({ data: Type.String(), aceito: Type.Boolean(), intencaoImpressao: IntencaoResumo }), ...errors(400, 404) },
};

/** ListarRetidas' page: 50 jobs unless `limite` says fewer or more (at most 200). */
export const HELD_PAGE = { default: 50, max: 200 };

export const renewSchema = {
  tags: ['terminal'],
  summary: 'Keep the lease of a job you are still delivering: send it every prazoSegundos / 3 from ObterProxima until your final report. '
    + 'Changes nothing else (no history row); `aceito: false` when you no longer hold the job',
  querystring: Type.Object(TerminalKeyQuery, ignoreUnknown),
  body: RenewJson,
  response: {
    200: Type.Object({ data: Type.String(), aceito: Type.Boolean(), prazoSegundos: Type.Number({ description: 'Seconds the lease now runs' }) }),
    ...errors(400),
  },
};

export const heldSchema = {
  tags: ['terminal'],
  summary: "The terminal's jobs waiting to be started: held (aguardarClienteIniciarImpressao) and stopped with outcome-unknown, "
    + 'oldest first, a page at a time: ask again with `apos` set to `proxima` until it is null',
  querystring: Type.Object({
    ...TerminalKeyQuery,
    limite: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: `Jobs looked at in this page (1-${HELD_PAGE.max}, default ${HELD_PAGE.default})` })),
    apos: Type.Optional(JobIdQuery('Only jobs with a greater id (the `proxima` of the page before)')),
  }, ignoreUnknown),
  response: {
    200: Type.Object({
      data: Type.String(),
      intencoes: Type.Array(IntencaoResumo),
      proxima: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as `apos` for the next page; null: this was the last' }),
    }),
    ...errors(400),
  },
};

export const startSchema = {
  tags: ['terminal'],
  summary: 'Start a held job (or print again one whose outcome is unknown): it is queued for this terminal',
  querystring: Type.Object({ ...TerminalKeyQuery, intencaoImpressaoId: JobIdQuery() }, ignoreUnknown),
  response: { 200: IntentionResponse, ...errors(400, 404, 409) },
};

export const resumeSchema = {
  tags: ['terminal'],
  summary: "The terminal's printer answers well again: its stopped jobs (not those of unknown outcome) are queued again, in insert order",
  querystring: Type.Object(TerminalKeyQuery, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), retomadas: Type.Integer() }) },
};

export const signalSchema = {
  tags: ['terminal'],
  summary: "The heartbeat: the terminal's client is there, and its printer is in this state. Send it at least every `intervaloSegundos` "
    + '(15) while idle; a terminal not heard from (heartbeat or poll) for 2 × that + 5 s is offline (GET /Terminal/GetAll, webhook terminal.offline)',
  querystring: Type.Object(TerminalKeyQuery, ignoreUnknown),
  body: SignalJson,
  response: {
    200: Type.Object({ data: Type.String(), intervaloSegundos: IntervaloJson }),
    ...errors(400),
  },
};
