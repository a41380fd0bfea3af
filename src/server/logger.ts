// Logger options: nothing secret is ever written. A logged URL is the path, each segment shown only
// when it has the form of a path word (a key a client put in the path by mistake, `;key=…` or a
// double-encoded `%3Fkey%3D…`, is hidden), plus the query as the parser decodes it, showing only the
// names the API knows and no value but one of a fixed form (an integer id, a state word, a page
// size, a date, a wait in seconds: never shop data, a terminal id, a reference or a cursor); the
// Authorization header is never serialised, and bodies (passwords) are not logged.
import type { FastifyServerOptions } from 'fastify';
import { JOB_ID_PATTERN } from '../delivery/job-id.js';

/** Query parameters whose value may be logged, with the form a loggable value must have. */
const SHOWN_VALUES: Readonly<Record<string, RegExp>> = {
  intencaoImpressaoId: new RegExp(JOB_ID_PATTERN),
  estado: /^[a-z-]{1,32}$/,
  limite: /^[0-9]{1,4}$/,
  situacao: /^[a-z]{1,16}$/,
  desde: /^[0-9]{4}-[0-9]{2}-[0-9]{2}[0-9T:.+Z-]{0,24}$/,
  ate: /^[0-9]{4}-[0-9]{2}-[0-9]{2}[0-9T:.+Z-]{0,24}$/,
  // ObterProxima's long-poll wait, in seconds: how long a terminal's client asked to wait.
  espera: /^[0-9]{1,2}(\.[0-9]{1,3})?$/,
};
/** Query parameters the API knows: their names are logged, their values hidden. */
const KNOWN_NAMES = new Set(['key', 'terminalId', 'referencia', 'cursor', ...Object.keys(SHOWN_VALUES)]);
const HIDDEN = '[REDACTED]';

/**
 * A path segment that may be logged: letters, digits, `.` and `-`, at most 32 (every route's words
 * and the console's and playground's file names). Keys (`bob_…`, `bobt_…`: 40 and more, with `_`),
 * tokens (36) and anything percent-encoded or holding `;`, `&` or `=` are not.
 */
const PATH_WORD = /^[A-Za-z0-9.-]{1,32}$/;

const loggablePath = (path: string) => path.split('/').map((s) => (s === '' || PATH_WORD.test(s) ? s : HIDDEN)).join('/');

/**
 * The URL as it may be logged. The query is decoded the way a handler would see it (`%6Bey` is
 * `key`), then re-written: a known name with its value hidden unless it is a plain integer id;
 * any other parameter (a misspelt key, `key%3D…`, `key[]`) entirely hidden, name and value.
 *
 * @example
 * loggableUrl('/GetById?k%65y=s3cret&intencaoImpressaoId=7&x=1'); // '/GetById?key=[REDACTED]&intencaoImpressaoId=7&[REDACTED]'
 * loggableUrl('/Terminal/GetAll;key=bob_s3cret'); // '/Terminal/[REDACTED]'
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return loggablePath(url);
  const shown: string[] = [];
  for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
    if (!KNOWN_NAMES.has(name)) shown.push(HIDDEN);
    else shown.push(`${name}=${SHOWN_VALUES[name]?.test(value) ? value : HIDDEN}`);
  }
  return `${loggablePath(url.slice(0, q))}?${shown.join('&')}`;
}

export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'password', 'refresh_token', 'access_token'], censor: HIDDEN },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: req.method,
        url: loggableUrl(req.url),
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
    },
  };
}
