// The terminal client protocol over HTTP (src/server/routes/terminal.ts is the other side): what
// `bobina agent` talks. The key goes in the Authorization header, never in a URL or a log line. No
// answer is read past what a job can be (MAX_ANSWER_BYTES), whatever the other end sends.
import { DEFAULT_LIMITS } from '../limits.js';
import { LinkRefusedError, LinkRequestError, type TerminalLink, type TerminalOffer, type TerminalReport, type TerminalState } from './loop.js';

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
 * (4 bytes per 3), the text the job carries from its Insert, and 64 KiB for the rest (3,559,768
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

interface Trabalho {
  intencaoImpressaoId: number;
  tokenEntrega: string;
  codigoImpressora: string;
  bytes: string;
  reimprimir: boolean;
  tentativas: number;
  prazoSegundos?: number;
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
    async next(waitMs, signal) {
      const seconds = Math.max(0, Math.min(60, waitMs / 1000)).toFixed(3).replace(/\.?0+$/, '');
      let answer: { trabalho: Trabalho | null; terminal?: TerminalState | null };
      try {
        answer = (await call('POST', `/TerminalImpressao/ObterProxima?espera=${seconds || '0'}&terminalId=${encodeURIComponent(o.terminal)}`, undefined, waitMs, signal)) as typeof answer;
      } catch (err) {
        if (signal.aborted) return {};
        throw err;
      }
      const terminal = answer.terminal ? { terminal: { codigoImpressora: answer.terminal.codigoImpressora, parados: answer.terminal.parados } } : {};
      const t = answer.trabalho;
      if (!t) return terminal;
      const offer: TerminalOffer = {
        id: t.intencaoImpressaoId, token: t.tokenEntrega, codigoImpressora: t.codigoImpressora,
        bytes: new Uint8Array(Buffer.from(t.bytes, 'base64')), reprint: t.reimprimir, tentativas: t.tentativas,
        ...(typeof t.prazoSegundos === 'number' && t.prazoSegundos > 0 ? { leaseMs: t.prazoSegundos * 1000 } : {}),
      };
      return { offer, ...terminal };
    },
    async report(r: TerminalReport) {
      const answer = (await call('POST', '/TerminalImpressao/Reportar', {
        intencaoImpressaoId: r.id, tokenEntrega: r.token, estado: r.estado,
        ...(r.motivos ? { motivos: r.motivos } : {}), ...(r.confirmacao ? { confirmacao: r.confirmacao } : {}), ...(r.detalhe ? { detalhe: r.detalhe } : {}),
      }, 0)) as { aceito: boolean };
      return { aceito: answer.aceito };
    },
    async renew(id, token) {
      const answer = (await call('POST', '/TerminalImpressao/Renovar', { intencaoImpressaoId: id, tokenEntrega: token }, 0)) as { aceito: boolean };
      return { aceito: answer.aceito };
    },
    async resume() {
      return ((await call('POST', '/TerminalImpressao/Retomar', undefined, 0)) as { retomadas: number }).retomadas;
    },
  };
}
