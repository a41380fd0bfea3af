// Checks a Standard Webhooks signature the way the service makes it (src/server/webhooks/sign.ts):
// `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, several space-separated
// during a secret rotation. Web-standard globals only (WebCrypto, atob/btoa): it runs in Node 20+,
// Deno, Bun, browsers and workers, and keeps the core entry free of `node:` modules.

/** Headers as a plain object (any case), a Fetch `Headers`, or Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds (default 300); replays older than that are refused. */
  toleranceSeconds?: number;
  /** The clock, for tests (default Date.now). */
  now?: () => number;
}

/** Why a message was refused: a missing header, a stale timestamp, or no signature that matches. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(' ') : v;
  }
  return undefined;
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text);
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** Compares in time independent of where the strings first differ. */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The base64 HMAC-SHA256 of `id.timestamp.body` under a `whsec_…` secret (the part after `v1,`). */
export async function webhookSignature(secret: string, id: string, timestamp: string | number, body: string | Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const enc = new TextEncoder();
  const head = enc.encode(`${id}.${timestamp}.`);
  const raw = typeof body === 'string' ? enc.encode(body) : body;
  const signed = new Uint8Array(head.length + raw.length);
  signed.set(head);
  signed.set(raw, head.length);
  return toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, signed)));
}

/**
 * Verifies a webhook from the bobina service and returns its parsed body; throws
 * WebhookVerificationError when a header is missing, the timestamp is outside the tolerance, or
 * no `v1` signature matches. Pass the body exactly as received (before any JSON parsing).
 *
 * @example
 * import { verifyWebhook } from 'bobina';
 * const event = await verifyWebhook(process.env.BOBINA_WEBHOOK_SECRET, req.headers, rawBody, { toleranceSeconds: 300 });
 * // dedupe by req.headers['webhook-id'], then act on event.data.intencaoImpressaoId
 */
export async function verifyWebhook<T = unknown>(secret: string, headers: WebhookHeaders, rawBody: string | Uint8Array, options: VerifyWebhookOptions = {}): Promise<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError(`webhook-timestamp is more than ${tolerance} s from now`);
  const expected = await webhookSignature(secret, id, timestamp, rawBody);
  const matched = signatures.split(' ').some((s) => {
    const comma = s.indexOf(',');
    return comma > 0 && s.slice(0, comma) === 'v1' && same(s.slice(comma + 1), expected);
  });
  if (!matched) throw new WebhookVerificationError('no webhook-signature matches');
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  return JSON.parse(text) as T;
}
