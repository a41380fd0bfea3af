// One POST of a webhook message, on node:http/https: the host is resolved and checked against the
// address policy first, and the connection goes to that checked address (no second lookup a DNS
// rebinding could change). Redirects are not followed; the whole try, DNS included, is bounded by
// a timeout, waiting for a free connection to the address included (address-gate.ts); the lookup
// goes through the account's turn and deadline (dns-gate.ts); the response body is read (at most
// 64 KiB) and dropped.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressGate } from './address-gate.js';
import { checkUrlShape, resolveAllowed, type AddressPolicy } from './address-policy.js';
import type { HostLookup } from './dns-gate.js';

export interface PostResult {
  statusCode: number | null;
  /** The Retry-After header, as sent. */
  retryAfter?: string;
  error: string | null;
  latencyMs: number;
}

const MAX_BODY = 64 * 1024;

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * `stop` aborts the try when the sender stops; `lookup` resolves the host (the sender's: its
 * account's turn on the shared LookupGate), and is aborted with the try. One controller and one timer per try: AbortSignal.any
 * on the sender's long-lived stop signal would keep a listener per try on it (Node 20).
 */
export async function postWebhook(
  address: string, headers: Record<string, string>, body: string, policy: AddressPolicy, lookup: HostLookup, timeoutMs: number, stop?: AbortSignal, gate?: AddressGate,
): Promise<PostResult> {
  const started = performance.now();
  const controller = new AbortController();
  const { signal } = controller;
  let why: 'timeout' | 'stopping' | undefined;
  const abort = (reason: 'timeout' | 'stopping') => {
    why ??= reason;
    controller.abort(new Error(reason));
  };
  const timer = setTimeout(() => abort('timeout'), timeoutMs);
  const onStop = () => abort('stopping');
  if (stop?.aborted) abort('stopping');
  stop?.addEventListener('abort', onStop, { once: true });
  const done = (r: Omit<PostResult, 'latencyMs'>): PostResult => ({ ...r, latencyMs: Math.round(performance.now() - started) });
  let release: (() => void) | undefined;
  let waitingFor: string | undefined;
  let resolving: string | undefined;
  try {
    const url = checkUrlShape(address, policy);
    resolving = url.hostname;
    const [target] = await resolveAllowed(url.hostname, policy, lookup, signal);
    resolving = undefined;
    if (gate) {
      waitingFor = target!.address;
      release = await gate.acquire(target!.address, signal);
      waitingFor = undefined;
    }
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [target!]);
      else callback(null, target!.address, target!.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = client.request(url, {
        method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pinned, signal,
        agent: url.protocol === 'https:' ? agents.https : agents.http,
      }, resolve);
      req.on('error', reject);
      req.end(body);
    });
    let read = 0;
    await new Promise<void>((resolve) => {
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_BODY) res.destroy();
      });
      res.on('end', resolve);
      res.on('close', resolve);
      res.on('error', () => resolve());
    });
    const status = res.statusCode ?? 0;
    const retryAfter = res.headers['retry-after'];
    if (status >= 300 && status < 400) return done({ statusCode: status, error: `redirect (${status}) not followed` });
    return done({ statusCode: status, error: status >= 200 && status < 300 ? null : `HTTP ${status}`, ...(retryAfter ? { retryAfter } : {}) });
  } catch (err) {
    const e = err as Error & { code?: string };
    if (why === 'stopping') return done({ statusCode: null, error: 'service stopping' });
    if (why === 'timeout' && resolving) return done({ statusCode: null, error: `DNS timeout: host ${resolving} did not resolve within the attempt's ${timeoutMs} ms` });
    if (why === 'timeout' && waitingFor) return done({ statusCode: null, error: `timeout after ${timeoutMs} ms waiting for a free connection to ${waitingFor} (at most ${gate!.limit} at once)` });
    if (why === 'timeout') return done({ statusCode: null, error: `timeout after ${timeoutMs} ms` });
    return done({ statusCode: null, error: e.name === 'AddressRefused' ? `refused: ${e.message}` : (e.code ? `${e.code}: ${e.message}` : e.message) });
  } finally {
    release?.();
    clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
  }
}
