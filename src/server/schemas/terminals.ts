// The fleet view's route schemas (a partner's key or token): GET /Terminal/GetAll, GET /Terminal/GetById.
import { Type } from 'typebox';
import { CURSOR_MAX } from '../fleet/page-cursor.js';
import { errors, ignoreUnknown, NextCursor } from './common.js';
import { TERMINAL_ID_MAX } from '../terminal-id.js';

const KeyQuery = { key: Type.Optional(Type.String({ description: 'API key or access token (or send Authorization: Bearer)' })) };
const Data = Type.Union([Type.String(), Type.Null()]);

export const TerminalHealthJson = Type.Object({
  terminalId: Type.String(),
  online: Type.Boolean({ description: 'Heard from (a poll or a heartbeat) within 2 × the heartbeat interval + 5 s' }),
  ultimoContato: Type.Union([Type.String(), Type.Null()], { description: 'Last poll or heartbeat (dd/MM/yyyy HH:mm:ss.fff); null: never' }),
  versaoAgente: Type.Union([Type.String(), Type.Null()], { description: "The client's version, as it last said" }),
  impressora: Type.Object({
    pronta: Type.Union([Type.Boolean(), Type.Null()], { description: 'The printer takes a job now; null: never reported' }),
    motivos: Type.Array(Type.String(), { description: 'media-empty, cover-open, media-low, other, offline' }),
    verificadoEm: Data,
  }),
  fila: Type.Object({
    profundidade: Type.Integer({ description: "The terminal's own jobs waiting in the queue" }),
    maisAntigaEm: Data,
    idadeMaisAntigaSegundos: Type.Union([Type.Integer(), Type.Null()]),
  }),
});

/** GetAll's page: 100 terminals unless `limite` says otherwise, at most 500 (more is 400 invalid-request). */
export const TERMINAL_PAGE = { default: 100, max: 500 };

/** GetAll's `situacao`: only the terminals needing attention. */
export const SITUACOES = ['offline', 'impressora', 'problema'] as const;

export const terminalsGetAllSchema = {
  tags: ['terminals'],
  summary: "The account's terminals with their health: online, last contact, the client's version, the printer's state, the queue; "
    + 'in terminal-id order, a page at a time: ask again with `cursor` set to `proximoCursor` until it is null',
  querystring: Type.Object({
    ...KeyQuery,
    limite: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: `Terminals in this page (1-${TERMINAL_PAGE.max}, default ${TERMINAL_PAGE.default})` })),
    cursor: Type.Optional(Type.String({ maxLength: CURSOR_MAX, description: "The previous page's proximoCursor (opaque)" })),
    situacao: Type.Optional(Type.Union(SITUACOES.map((s) => Type.Literal(s)), {
      description: 'Only terminals needing attention: `offline` (online false), `impressora` (the printer reported not ready, or any reason), `problema` (either)',
    })),
  }, ignoreUnknown),
  response: {
    200: Type.Object({
      data: Type.String(),
      terminais: Type.Array(TerminalHealthJson),
      proximoCursor: NextCursor,
    }),
    ...errors(400),
  },
};

export const terminalsGetByIdSchema = {
  tags: ['terminals'],
  summary: "One of the account's terminals with its health",
  querystring: Type.Object({ ...KeyQuery, terminalId: Type.String({ minLength: 1, maxLength: TERMINAL_ID_MAX }) }, ignoreUnknown),
  response: { 200: Type.Object({ data: Type.String(), terminal: TerminalHealthJson }), ...errors(400, 404) },
};
