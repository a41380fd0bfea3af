// The login route's schemas (spec §2.1, §2.2, §4.1).
import { Type, type Static } from 'typebox';
import { errors, ignoreUnknown } from './common.js';

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
