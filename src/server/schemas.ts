// TypeBox schemas of the partner API: the single source for validation, serialisation and the
// generated OpenAPI document. Field names are the spec's (sections 2 and 4).
import { Type, type Static } from 'typebox';

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

export const IntencaoImpressao = Type.Object({
  id: Type.Integer(),
  referencia: Type.Union([Type.String(), Type.Null()]),
  conteudo: Type.String(),
  terminalId: Type.Union([Type.String(), Type.Null()]),
  impressoraId: Type.Integer({ description: 'The template used' }),
  codigoImpressora: Type.String({ description: 'The code of the template used' }),
  aguardarClienteIniciarImpressao: Type.Boolean(),
  status: Type.String({ description: '`ImpressaoEnviada`, or `Impresso` for the generic printer without waiting for the client' }),
  diagnostics: Type.Array(DiagnosticOut),
  tamanhoBytes: Type.Integer({ description: 'Size of the compiled ESC/POS output' }),
  dataCriacao: Type.String({ description: 'dd/MM/yyyy HH:mm:ss.fff' }),
});

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
