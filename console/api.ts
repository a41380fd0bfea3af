// The partner API as the console calls it: the login (POST /auth/reconciliation/token), then every
// request with the access token in the Authorization header — held in this module's memory only
// (never in storage, a cookie or a URL), renewed with the refresh token once when an answer says
// 401, forgotten on logout or when the renewal is refused. Answers are read only when their
// Content-Type is the one expected; a problem body becomes an ApiError with its message.
import { learnServerZone } from './format.js';

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }

  /** The service has no such route: an endpoint this version does not have. */
  get notAvailable(): boolean {
    return this.status === 404 && this.code === 'route-not-found';
  }
}

export interface LoginAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  user_detail: { name: string; email: string };
}

const LOGIN_PATH = '/auth/reconciliation/token';

type Query = Record<string, string | number | undefined | null>;

interface Tokens {
  access: string;
  refresh: string | undefined;
}

let tokens: Tokens | undefined;
/** One renewal at a time: a refresh token used twice revokes its whole family. */
let renewing: Promise<boolean> | undefined;
let onExpired: () => void = () => undefined;

/** Called when the session ends without the person asking (renewal refused): the page shows the login again. */
export function whenExpired(callback: () => void): void {
  onExpired = callback;
}

export const loggedIn = () => tokens !== undefined;

export function logout(): void {
  tokens = undefined;
}

async function problem(res: Response): Promise<ApiError> {
  if (/^application\/(problem\+)?json\b/.test(res.headers.get('content-type') ?? '')) {
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    return new ApiError(res.status, body.code ?? 'unknown', body.message ?? `HTTP ${res.status}`);
  }
  return new ApiError(res.status, 'unexpected-answer', `HTTP ${res.status} (${res.headers.get('content-type') ?? 'no content type'})`);
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw await problem(res);
  if (!/^application\/json\b/.test(res.headers.get('content-type') ?? '')) throw new ApiError(res.status, 'unexpected-answer', 'the answer is not JSON');
  const body = (await res.json()) as T;
  // Every answer says the service's clock: the zone the page shows times in (format.ts).
  learnServerZone((body as { data?: unknown } | null)?.data);
  return body;
}

async function token(body: Record<string, string>): Promise<LoginAnswer> {
  const answer = await json<LoginAnswer>(await fetch(LOGIN_PATH, {
    method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), credentials: 'omit', cache: 'no-store',
  }));
  tokens = { access: answer.access_token, refresh: answer.refresh_token };
  return answer;
}

export const login = (email: string, password: string) => token({ grant_type: 'password', email, password });

/**
 * Why a login failed, in the console's words. The login's answers are the partner spec's and stay
 * as they are ("Invalid access token" for a wrong password): the page says what they mean.
 */
export function loginFailure(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return 'Wrong e-mail or password.';
    if (err.status === 429) return 'Too many failed logins: wait a few minutes, then try again.';
    if (err.status === 400) return 'Type the e-mail and the password.';
  }
  return `Login failed: ${err instanceof Error ? err.message : String(err)}`;
}

function renew(): Promise<boolean> {
  const refresh = tokens?.refresh;
  if (!refresh) return Promise.resolve(false);
  renewing ??= token({ grant_type: 'refresh_token', refresh_token: refresh })
    .then(() => true, () => false)
    .finally(() => (renewing = undefined));
  return renewing;
}

function url(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const q = params.toString();
  return q ? `${path}?${q}` : path;
}

/** A request with the session's token; renewed and sent once more on a 401. */
async function send(method: 'GET' | 'POST', path: string, query?: Query, body?: object, accept = 'application/json', extra: Record<string, string> = {}): Promise<Response> {
  const attempt = () => {
    if (!tokens) throw new ApiError(401, 'logged-out', 'Not logged in');
    const headers: Record<string, string> = { ...extra, authorization: `Bearer ${tokens.access}`, accept };
    if (body) headers['content-type'] = 'application/json';
    return fetch(url(path, query), { method, headers, credentials: 'omit', cache: 'no-store', ...(body ? { body: JSON.stringify(body) } : {}) });
  };
  const sentWith = tokens;
  let res = await attempt();
  if (res.status === 401 && tokens) {
    // Another request may have renewed the token meanwhile.
    if ((tokens === sentWith && !(await renew())) || !tokens) {
      tokens = undefined;
      onExpired();
      throw new ApiError(401, 'session-ended', 'The session ended: log in again');
    }
    res = await attempt();
  }
  return res;
}

export const get = async <T>(path: string, query?: Query) => json<T>(await send('GET', path, query));
export const post = async <T>(path: string, query?: Query, body?: object, headers?: Record<string, string>) => json<T>(await send('POST', path, query, body, 'application/json', headers));

/** A job's stored bytes and the printer they were compiled for. */
export async function bytes(path: string, query: Query): Promise<{ bytes: Uint8Array; printer: string }> {
  const res = await send('GET', path, query, undefined, 'application/octet-stream');
  if (!res.ok) throw await problem(res);
  if (!/^application\/octet-stream\b/.test(res.headers.get('content-type') ?? '')) throw new ApiError(res.status, 'unexpected-answer', 'the answer is not application/octet-stream');
  const printer = res.headers.get('x-codigo-impressora');
  if (!printer) throw new ApiError(res.status, 'unexpected-answer', 'the answer does not say which printer (X-Codigo-Impressora)');
  return { bytes: new Uint8Array(await res.arrayBuffer()), printer };
}
