// The printing endpoints' schemas (spec §4.2 - §4.4): templates, Insert, GetById, Recompilar,
// Cancelar, and the job as every answer shows it (the terminal routes' answers too).
import { Type, type Static } from 'typebox';
import { errors, ignoreUnknown, JobIdQuery, KeyQuery, NextCursor, nullable } from './common.js';
import { TERMINAL_ID_MAX } from '../terminal-id.js';

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
  },
};

/**
 * The longest `referencia` (characters): an identifier, not a document. Every light row of a list
 * (GetAll, ListarRetidas) carries it whole, so it bounds their answers; GetAll filters on it.
 */
export const REFERENCIA_MAX = 2000;

export const InsertBody = Type.Object({
  referencia: nullable(Type.String({ maxLength: REFERENCIA_MAX, description: `The partner's reference for the job (at most ${REFERENCIA_MAX} characters)` })),
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

/** How a job is linked to its explicit reprints (Reimprimir): appended to the job and to GetAll's rows. */
const Reprints = {
  reimpressaoDe: Type.Union([Type.Integer(), Type.Null()], { description: 'The job this one is an explicit reprint of (Reimprimir), or null' }),
  reimpressoes: Type.Integer({ description: 'Explicit reprints made of this job (Reimprimir)' }),
};

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
  ...Reprints,
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

/** A row of GetAll: the job without conteudo, diagnostics and historico, and its reprint links. */
export const IntencaoLinha = Type.Object({ ...IntencaoResumo.properties, ...Reprints }, { description: 'The job without conteudo, diagnostics and historico (GetById has them), with its reprint links' });

export const IntentionResponse = Type.Object({ data: Type.String(), intencaoImpressao: IntencaoImpressao });
export type IntentionResponse = Static<typeof IntentionResponse>;

export const insertSchema = {
  tags: ['printing'],
  summary: 'Compile content for a printer and record a print intention',
  querystring: Type.Object(KeyQuery, ignoreUnknown),
  headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 200 })) }),
  body: InsertBody,
  response: { 200: IntentionResponse, ...errors(400, 404, 409, 413, 422, 503) },
};

export const getByIdSchema = {
  tags: ['printing'],
  summary: 'Status of a print intention',
  // Query strings are not coerced (see app.ts), so the integer id is checked by pattern.
  querystring: Type.Object({ ...KeyQuery, intencaoImpressaoId: JobIdQuery('Integer id of the print intention') }, ignoreUnknown),
  response: { 200: IntentionResponse, ...errors(400, 404) },
};

export const recompileSchema = {
  tags: ['printing'],
  summary: "Compile a job again for its terminal's printer now (a job stopped with printer-mismatch after the terminal was linked to another printer, "
    + 'or one still queued) and queue it; 409 job-not-recompilable otherwise',
  querystring: Type.Object({ ...KeyQuery, intencaoImpressaoId: JobIdQuery('Integer id of the print intention') }, ignoreUnknown),
  response: { 200: IntentionResponse, ...errors(400, 404, 409, 422) },
};

export const cancelSchema = {
  tags: ['printing'],
  summary: 'Cancel a print intention that no client holds (held, queued or stopped); 409 once a client has acquired it or it is final',
  querystring: Type.Object({ ...KeyQuery, intencaoImpressaoId: JobIdQuery('Integer id of the print intention') }, ignoreUnknown),
  response: { 200: IntentionResponse, ...errors(400, 404, 409) },
};

const IdQuery = Type.Object({ ...KeyQuery, intencaoImpressaoId: JobIdQuery('Integer id of the print intention') }, ignoreUnknown);

/** GetAll's page: 50 jobs unless `limite` says otherwise, at most 500 (more is 400 invalid-request). */
export const LIST_PAGE = { default: 50, max: 500 };

export const getAllSchema = {
  tags: ['printing'],
  summary: "The account's jobs, newest first, filtered, a page at a time (keyset paging: no job twice, none skipped, while others are inserted)",
  querystring: Type.Object({
    ...KeyQuery,
    estado: Type.Optional(JobState),
    terminalId: Type.Optional(Type.String({ maxLength: TERMINAL_ID_MAX })),
    referencia: Type.Optional(Type.String({ maxLength: REFERENCIA_MAX })),
    desde: Type.Optional(Type.String({ format: 'date-time', description: 'Jobs made at or after this time (ISO 8601 with a zone: 2026-11-25T08:00:00Z), on dataCriacao' })),
    ate: Type.Optional(Type.String({ format: 'date-time', description: 'Jobs made at or before this time (ISO 8601 with a zone), on dataCriacao' })),
    cursor: Type.Optional(Type.String({ maxLength: 64, description: "The previous page's proximoCursor (opaque)" })),
    limite: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: `Jobs in this page (1-${LIST_PAGE.max}, default ${LIST_PAGE.default})` })),
  }, ignoreUnknown),
  response: {
    200: Type.Object({
      data: Type.String(),
      intencoes: Type.Array(IntencaoLinha),
      proximoCursor: NextCursor,
    }),
    ...errors(400),
  },
};

/** What a reprint's marker may be (the route's schema and `bobina jobs reprint --marcador` check the same): 64 characters, no control character, no lone surrogate. */
export const MARCADOR = { maxLength: 64, pattern: '^[^\\p{Cc}\\p{Cs}]*$' } as const;

export const ReprintBody = Type.Object({
  marcador: Type.Optional(Type.String({
    ...MARCADOR,
    description: 'Printed as written on a line of its own above the content (say "2ª VIA"); no tag in it is a command. At most 64 characters, no control characters',
  })),
}, ignoreUnknown);

export const reprintSchema = {
  tags: ['printing'],
  summary: 'Print a job again as a new job, linked to it (reimpressaoDe) and counted on it (reimpressoes): compiled from the same content for the same terminal and template',
  querystring: IdQuery,
  headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 200 })) }),
  body: ReprintBody,
  response: { 200: IntentionResponse, ...errors(400, 404, 409, 422) },
};

export const partnerStartSchema = {
  tags: ['printing'],
  summary: 'Start a held job (aguardarClienteIniciarImpressao), or print again one stopped with an unknown outcome; 409 job-not-startable otherwise',
  querystring: IdQuery,
  response: { 200: IntentionResponse, ...errors(400, 404, 409) },
};

export const getBytesSchema = {
  tags: ['printing'],
  summary: "The printer bytes stored for a job, exactly what its terminal's client is handed (application/octet-stream; the template's code in X-Codigo-Impressora)",
  querystring: IdQuery,
  response: {
    200: { description: 'The bytes', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
    ...errors(400, 404),
  },
};
