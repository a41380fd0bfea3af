// TypeBox schemas of the partner API: the single source for validation, serialisation and the
// generated OpenAPI document. Field names are the spec's (sections 2 and 4).
import { Type, type Static } from 'typebox';
import { RenewJson, ReportJson, TerminalStateJson, TrabalhoJson } from '../delivery/protocol.js';

export const Problem = Type.Object(
  {
    message: Type.String(),
    code: Type.String(),
    requestId: Type.String(),
  },
  { additionalProperties: true, description: 'Every error: a message, a stable code and the request id' },
);

const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, Problem]));

/**
 * Requests are read tolerantly: a field the API does not know is removed during validation
 * (fastify's ajv `removeAdditional` acts on `additionalProperties: false`), so it is never hashed,
 * stored or echoed, however deep it is.
 */
const ignoreUnknown = { additionalProperties: false } as const;

// ---- login (§2.1, §2.2, §4.1)
export const LoginRequest = Type.Object({
  email: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  grant_type: Type.Optional(Type.String({ description: '`password`, or `refresh_token` to rotate a refresh token' })),
  refresh_token: Type.Optional(Type.String()),
}, ignoreUnknown);
export type LoginRequest = Static<typeof LoginRequest>;

export const LoginResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  refresh_token: Type.String(),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
  scope: Type.String(),
  user_detail: Type.Object({
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    metadata: Type.Array(
      Type.Object({
        id: Type.Object({ userId: Type.String(), key: Type.String() }),
        value: Type.String(),
        schema: Type.String(),
      }),
    ),
    roles: Type.Array(Type.String()),
  }),
});
export type LoginResponse = Static<typeof LoginResponse>;

export const loginSchema = {
  tags: ['auth'],
  summary: 'Exchange e-mail and password (or a refresh token) for an access token',
  body: LoginRequest,
  response: { 200: LoginResponse, ...errors(400, 401, 429, 500) },
};

// ---- printing endpoints (§4.2 - §4.4)
const KeyQuery = { key: Type.Optional(Type.String({ description: 'Access token or API key (or send Authorization: Bearer)' })) };

export const Template = Type.Object({
  id: Type.Integer(),
  nome: Type.String(),
  codigoImpressora: Type.String(),
  isGeneric: Type.Boolean(),
});

export const templatesSchema = {
  tags: ['printing'],
  summary: 'All printer templates',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  response: {
    200: Type.Object({ data: Type.String({ description: 'dd/MM/yyyy HH:mm:ss.fff' }), impressoraTemplates: Type.Array(Template) }),
    ...errors(401),
  },
};

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Optional(Type.Union([Type.Null(), t]));

export const InsertBody = Type.Object({
  referencia: nullable(Type.String()),
  conteudo: Type.String({ description: 'Text with embedded tags (§4.4)' }),
  terminalId: nullable(Type.String()),
  impressoraId: nullable(Type.Union([Type.Integer(), Type.String()])),
  codigoImpressora: nullable(Type.Union([Type.String(), Type.Integer()])),
  aguardarClienteIniciarImpressao: nullable(Type.Boolean()),
  urlCallback: nullable(Type.String({ maxLength: 2000, description: 'Where this job\'s end-of-job webhook also goes (https; README: Webhooks)' })),
}, ignoreUnknown);
export type InsertBody = Static<typeof InsertBody>;

const Position = Type.Object({ offset: Type.Integer(), line: Type.Integer(), column: Type.Integer() });
export const DiagnosticOut = Type.Object({
  code: Type.String(),
  severity: Type.String(),
  message: Type.String(),
  line: Type.Integer(),
  column: Type.Integer(),
  span: Type.Object({ start: Position, end: Position }),
});

export const JobState = Type.Union(
  [
    Type.Literal('held'), Type.Literal('queued'), Type.Literal('acquired'), Type.Literal('printing'), Type.Literal('stopped'),
    Type.Literal('completed'), Type.Literal('failed'), Type.Literal('canceled'), Type.Literal('expired'),
  ],
  { description: 'Internal state: held, queued, acquired, printing, stopped; finals completed, failed, canceled, expired' },
);

const Reasons = Type.Array(Type.String(), {
  description: 'Machine-readable reasons (PWG style): media-empty, media-low, cover-open, offline, other, outcome-unknown, lease-expired, max-attempts, no-route, …',
});

export const HistoryOut = Type.Object({
  estado: JobState,
  motivos: Reasons,
  origem: Type.Union([Type.Literal('server'), Type.Literal('client'), Type.Literal('printer')]),
  data: Type.String({ description: 'dd/MM/yyyy HH:mm:ss.fff' }),
  evento: Type.String({ description: 'The lifecycle event, or `ignored-report` for a report recorded and ignored' }),
  detalhe: Type.Union([Type.String(), Type.Null()]),
});

export const IntencaoImpressao = Type.Object({
  id: Type.Integer(),
  referencia: Type.Union([Type.String(), Type.Null()]),
  conteudo: Type.String(),
  terminalId: Type.Union([Type.String(), Type.Null()]),
  impressoraId: Type.Integer({ description: 'The template used' }),
  codigoImpressora: Type.String({ description: 'The code of the template used' }),
  aguardarClienteIniciarImpressao: Type.Boolean(),
  status: Type.String({
    description: '`ImpressaoEnviada` while not final; `Impresso` once printed (and at insert for the generic printer without waiting for the client); '
      + '`FalhaImpressao` (failed), `Cancelado` (canceled), `Expirado` (expired)',
  }),
  diagnostics: Type.Array(DiagnosticOut),
  tamanhoBytes: Type.Integer({ description: 'Size of the compiled ESC/POS output' }),
  dataCriacao: Type.String({ description: 'dd/MM/yyyy HH:mm:ss.fff' }),
  estado: JobState,
  motivos: Reasons,
  tentativas: Type.Integer({ description: 'Delivery attempts: leases given to a client' }),
  confirmacao: Type.Union([Type.Literal('none'), Type.Literal('sent'), Type.Literal('printer')], {
    description: 'How we know it printed: `none` (not printed, or the generic-printer rule), `sent` (every byte written), `printer` (the printer confirmed the end of printing)',
  }),
  historico: Type.Array(HistoryOut, { description: 'Every transition, oldest first, and the first 10 reports ignored' }),
  reportesIgnorados: Type.Integer({ description: 'Reports ignored (a stale token, a final job): all counted, the first 10 also in historico' }),
});

/** A job without its content, diagnostics and history: the Reportar answer and ListarRetidas' items. */
export const IntencaoResumo = Type.Object({
  id: Type.Integer(),
  referencia: Type.Union([Type.String(), Type.Null()]),
  terminalId: Type.Union([Type.String(), Type.Null()]),
  impressoraId: Type.Integer(),
  codigoImpressora: Type.String(),
  aguardarClienteIniciarImpressao: Type.Boolean(),
  status: Type.String(),
  tamanhoBytes: Type.Integer(),
  dataCriacao: Type.String({ description: 'dd/MM/yyyy HH:mm:ss.fff' }),
  estado: JobState,
  motivos: Reasons,
  tentativas: Type.Integer(),
  confirmacao: Type.Union([Type.Literal('none'), Type.Literal('sent'), Type.Literal('printer')]),
  reportesIgnorados: Type.Integer(),
}, { description: 'The job without conteudo, diagnostics and historico (GetById has them)' });

export const IntentionResponse = Type.Object({ data: Type.String(), intencaoImpressao: IntencaoImpressao });
export type IntentionResponse = Static<typeof IntentionResponse>;

export const insertSchema = {
  tags: ['printing'],
  summary: 'Compile content for a printer and record a print intention',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 200 })) }),
  body: InsertBody,
  response: { 200: IntentionResponse, ...errors(400, 401, 404, 409, 413, 422) },
};

export const getByIdSchema = {
  tags: ['printing'],
  summary: 'Status of a print intention',
  // Query strings are not coerced (see app.ts), so the integer id is checked by pattern.
  querystring: Type.Object({ ...KeyQuery, intencaoImpressaoId: Type.String({ pattern: '^[0-9]{1,15}$', description: 'Integer id of the print intention' }) }, ignoreUnknown),
  response: { 200: IntentionResponse, ...errors(400, 401, 404) },
};

export const recompileSchema = {
  tags: ['printing'],
  summary: "Compile a job again for its terminal's printer now (a job stopped with printer-mismatch after the terminal was linked to another printer, "
    + 'or one still queued) and queue it; 409 job-not-recompilable otherwise',
  querystring: Type.Object({ ...KeyQuery, intencaoImpressaoId: Type.String({ pattern: '^[0-9]{1,15}$', description: 'Integer id of the print intention' }) }, ignoreUnknown),
  response: { 200: IntentionResponse, ...errors(400, 401, 403, 404, 409, 422) },
};

export const cancelSchema = {
  tags: ['printing'],
  summary: 'Cancel a print intention that no client holds (held, queued or stopped); 409 once a client has acquired it or it is final',
  querystring: Type.Object({ ...KeyQuery, intencaoImpressaoId: Type.String({ pattern: '^[0-9]{1,15}$', description: 'Integer id of the print intention' }) }, ignoreUnknown),
  response: { 200: IntentionResponse, ...errors(400, 401, 403, 404, 409) },
};

// ---- terminal client protocol (a terminal's own key: `bobina terminals add … --print-key`)
const TerminalKeyQuery = { key: Type.Optional(Type.String({ description: "The terminal's own key (or send Authorization: Bearer)" })) };

export const nextSchema = {
  tags: ['terminal'],
  summary: "Lease the terminal's next job: answers as soon as one is queued, or `trabalho: null` after `espera` seconds (0-60, default 30)",
  querystring: Type.Object({
    ...TerminalKeyQuery,
    terminalId: Type.Optional(Type.String({ description: 'The terminal the client believes it serves: refused (403 terminal-mismatch) when the key is of another' })),
    espera: Type.Optional(Type.String({ pattern: '^[0-9]{1,2}(\\.[0-9]{1,3})?$', description: 'Seconds to wait, at most 60' })) }, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), trabalho: Type.Union([TrabalhoJson, Type.Null()]), terminal: Type.Union([TerminalStateJson, Type.Null()]) }), ...errors(400, 401, 403) },
};

export const reportSchema = {
  tags: ['terminal'],
  summary: 'Report progress or the outcome of a leased job; `aceito: false` when the token is stale or the job is already final (recorded in its history)',
  querystring: Type.Object(TerminalKeyQuery, ignoreUnknown),
  body: ReportJson,
  response: { 200: Type.Object({ data: Type.String(), aceito: Type.Boolean(), intencaoImpressao: IntencaoResumo }), ...errors(400, 401, 403, 404) },
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
    ...errors(400, 401, 403),
  },
};

export const heldSchema = {
  tags: ['terminal'],
  summary: "The terminal's jobs waiting to be started: held (aguardarClienteIniciarImpressao) and stopped with outcome-unknown, "
    + 'oldest first, a page at a time: ask again with `apos` set to `proxima` until it is null',
  querystring: Type.Object({
    ...TerminalKeyQuery,
    limite: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: `Jobs looked at in this page (1-${HELD_PAGE.max}, default ${HELD_PAGE.default})` })),
    apos: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'Only jobs with a greater id (the `proxima` of the page before)' })),
  }, ignoreUnknown),
  response: {
    200: Type.Object({
      data: Type.String(),
      intencoes: Type.Array(IntencaoResumo),
      proxima: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as `apos` for the next page; null: this was the last' }),
    }),
    ...errors(400, 401, 403),
  },
};

export const startSchema = {
  tags: ['terminal'],
  summary: 'Start a held job (or print again one whose outcome is unknown): it is queued for this terminal',
  querystring: Type.Object({ ...TerminalKeyQuery, intencaoImpressaoId: Type.String({ pattern: '^[0-9]{1,15}$' }) }, ignoreUnknown),
  response: { 200: IntentionResponse, ...errors(400, 401, 403, 404, 409) },
};

export const resumeSchema = {
  tags: ['terminal'],
  summary: "The terminal's printer answers well again: its stopped jobs (not those of unknown outcome) are queued again, in insert order",
  querystring: Type.Object(TerminalKeyQuery, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), retomadas: Type.Integer() }), ...errors(401, 403) },
};

// ---- webhooks (issue 12): endpoints of the caller's account, their attempts, replay
const WebhookEvent = Type.Union(['completed', 'failed', 'canceled', 'expired', 'stopped'].map((e) => Type.Literal(e)));

export const WebhookEndpointOut = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: '`gone` when the receiver answered 410' }),
  failingSince: Type.Union([Type.String(), Type.Null()], { description: 'Set when a message went dead; cleared by the next delivery' }),
  secrets: Type.Integer({ description: 'How many secrets sign each message now (2 during a rotation)' }),
  createdAt: Type.String(),
});

export const WebhookMessageOut = Type.Object({
  messageId: Type.String({ description: 'The webhook-id header' }),
  webhookId: Type.Union([Type.String(), Type.Null()], { description: 'null for an intention\'s urlCallback' }),
  url: Type.String(),
  type: Type.String(),
  intencaoImpressaoId: Type.Integer(),
  state: Type.String({ description: '`pending`, `delivered` or `dead`' }),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String(), Type.Null()]),
  deliveredAt: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export const WebhookAttemptOut = Type.Object({
  at: Type.String(),
  messageId: Type.String(),
  webhookId: Type.Union([Type.String(), Type.Null()]),
  url: Type.String(),
  type: Type.String(),
  intencaoImpressaoId: Type.Integer(),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  messageState: Type.String({ description: 'The message\'s state now' }),
});

const webhookTags = ['webhooks'];
const WithSecret = Type.Object({ data: Type.String(), webhook: WebhookEndpointOut, secret: Type.String({ description: 'whsec_…: shown only in this answer' }) });
const WebhookIdBody = { webhookId: Type.String() };

export const webhookInsertSchema = {
  tags: webhookTags,
  summary: 'Register a webhook endpoint for the account; the answer carries its secret, shown only this once',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  body: Type.Object({
    url: Type.String({ maxLength: 2000, description: 'https, or http to a host the operator allowed' }),
    events: Type.Optional(Type.Array(WebhookEvent, { description: 'Default: every final state; `stopped` only when asked' })),
  }, ignoreUnknown),
  response: { 200: WithSecret, ...errors(400, 401) },
};

export const webhookListSchema = {
  tags: webhookTags,
  summary: 'The account\'s webhook endpoints (never their secrets)',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), webhooks: Type.Array(WebhookEndpointOut) }), ...errors(401) },
};

export const webhookRemoveSchema = {
  tags: webhookTags,
  summary: 'Remove a webhook endpoint; its undelivered messages go dead',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  body: Type.Object(WebhookIdBody, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), removed: Type.String() }), ...errors(400, 401, 404) },
};

export const webhookRotateSchema = {
  tags: webhookTags,
  summary: 'New secret for an endpoint; the previous one keeps signing for 24 hours',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  body: Type.Object(WebhookIdBody, ignoreUnknown),
  response: { 200: WithSecret, ...errors(400, 401, 404) },
};

export const webhookLogSchema = {
  tags: webhookTags,
  summary: 'Delivery attempts, newest first (time, status code, latency, error)',
  querystring: Type.Object({
    ...KeyQuery,
    webhookId: Type.Optional(Type.String()),
    messageId: Type.Optional(Type.String()),
    intencaoImpressaoId: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'At most 1000 (default 100)' })),
  }, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), attempts: Type.Array(WebhookAttemptOut), messages: Type.Array(WebhookMessageOut) }), ...errors(400, 401) },
};

export const webhookReplaySchema = {
  tags: webhookTags,
  summary: 'Send a past or dead message again, with the same webhook-id',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  body: Type.Object({ messageId: Type.String() }, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), message: WebhookMessageOut }), ...errors(400, 401, 404) },
};
