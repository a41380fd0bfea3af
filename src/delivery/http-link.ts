// The terminal client protocol (protocol.ts) over HTTP (src/server/routes/terminal.ts is the other
// side): what `bobina agent` talks. The key goes in the Authorization header, never in a URL or a
// log line. No answer is read past what a job can be (MAX_ANSWER_BYTES), whatever the other end sends.
import { DEFAULT_LIMITS } from '../limits.js';
import { LinkRefusedError, LinkRequestError, type TerminalLink } from './loop.js';
import { esperaOf, fromTrabalho, heartbeatOf, terminalStateOf, toPollJson, toRenewJson, toReportJson, toSignalJson, type TerminalStateJson, type TrabalhoJson } from './protocol.js';

export interface HttpLinkOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  /** The terminal's key (`bobina terminals add … --print-key`). */
  key: string;
  /** The terminal the key is for: the service refuses a key of another terminal. */
  terminal: string;
  /** Longest wait for an answer besides the long-poll itself (default 10 s). */
  timeoutMs?: number;
  /** Longest answer read (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
}

/** Text a job carries from its Insert (its referencia): at most the service's 2 MiB body. */
const INSERT_TEXT_BYTES = 2 * 1024 * 1024;

/**
 * The largest answer the agent reads: a job's bytes at the compiler's output limit in base64
 * (4 bytes per 3), the text the job carries from its Insert, and 64 KiB for the rest (3,560,792
 * bytes with the default limits). A longer answer is refused unread, as a failed request.
 */
export const MAX_ANSWER_BYTES = 4 * Math.ceil(DEFAULT_LIMITS.maxOutputBytes / 3) + INSERT_TEXT_BYTES + 64 * 1024;

/** An answer longer than the agent reads. */
export class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
}

/** The body as text, reading no more than `cap` bytes of it (the rest is never taken off the socket). */
async function readCapped(res: Response, cap: number, what: string): Promise<string> {
  const tooLarge = () => new AnswerTooLargeError(`${what}: the answer is larger than ${cap} bytes, more than a job can be; not read`);
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > cap) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function httpLink(o: HttpLinkOptions): TerminalLink {
  const base = o.url.replace(/\/+$/, '');
  const timeoutMs = o.timeoutMs ?? 10_000;
  const cap = o.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  const call = async (method: string, path: string, body: unknown, waitMs: number, signal?: AbortSignal): Promise<unknown> => {
    const signals = [AbortSignal.timeout(waitMs + timeoutMs), ...(signal ? [signal] : [])];
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${o.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'user-agent': 'bobina-agent' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.any(signals),
    });
    const text = await readCapped(res, cap, `${method} ${path.split('?')[0]}`);
    let json: { code?: string; message?: string } | undefined;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.ok) return json;
    const what = `${method} ${path.split('?')[0]}: ${res.status} ${json?.code ?? ''} ${json?.message ?? ''}`.trim();
    if (res.status === 401 || res.status === 403) throw new LinkRefusedError(what);
    if (res.status >= 400 && res.status < 500) throw new LinkRequestError(what);
    throw new Error(what);
  };
  return {
    async next(waitMs, signal, health) {
      let answer: { trabalho: TrabalhoJson | null; terminal?: TerminalStateJson | null; intervaloSegundos?: unknown };
      try {
        const path = `/TerminalImpressao/ObterProxima?espera=${esperaOf(waitMs)}&terminalId=${encodeURIComponent(o.terminal)}`;
        answer = (await call('POST', path, health ? toPollJson(health) : undefined, waitMs, signal)) as typeof answer;
      } catch (err) {
        if (signal.aborted) return {};
        throw err;
      }
      const heartbeatMs = heartbeatOf(answer.intervaloSegundos);
      const terminal = { ...(answer.terminal ? { terminal: terminalStateOf(answer.terminal) } : {}), ...(heartbeatMs ? { heartbeatMs } : {}) };
      return answer.trabalho ? { offer: fromTrabalho(answer.trabalho), ...terminal } : terminal;
    },
    async report(r) {
      const answer = (await call('POST', '/TerminalImpressao/Reportar', toReportJson(r), 0)) as { aceito: boolean };
      return { aceito: answer.aceito };
    },
    async renew(id, token) {
      const answer = (await call('POST', '/TerminalImpressao/Renovar', toRenewJson(id, token), 0)) as { aceito: boolean };
      return { aceito: answer.aceito };
    },
    async resume() {
      return ((await call('POST', '/TerminalImpressao/Retomar', undefined, 0)) as { retomadas: number }).retomadas;
    },
    async signal(health) {
      await call('POST', '/TerminalImpressao/Sinal', toSignalJson(health), 0);
    },
  };
}
