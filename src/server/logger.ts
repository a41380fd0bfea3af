// Logger options: nothing secret is ever written. The `key` query parameter is masked in logged
// URLs, the Authorization header is never serialised, and bodies (passwords) are not logged.
import type { FastifyServerOptions } from 'fastify';

const SECRET_PARAMS = /([?&](?:key|access_token|refresh_token)=)[^&#]*/gi;

export const redactUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[REDACTED]');

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'password', 'refresh_token', 'access_token'], censor: '[REDACTED]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
    },
  };
}
