// Signing side of Standard Webhooks (the receiver's side is src/webhooks/verify.ts): secrets are
// `whsec_` + base64 of 32 random bytes; a message is signed with every secret still valid, so a
// receiver that has either the old or the new one during a rotation accepts it.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { WebhookSecret } from '../store/types.js';

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The `webhook-id` of a new message: `msg_` and 128 random bits. */
export const newMessageId = (): string => `msg_${randomUUID().replaceAll('-', '')}`;

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one `v1,…` per secret still valid at `now`, space-separated (empty when none is). */
export function signatureHeader(secrets: readonly WebhookSecret[], id: string, timestamp: number, body: string, now: Date): string {
  return secrets
    .filter((s) => s.expiresAt === null || s.expiresAt > now)
    .map((s) => sign(s.secret, id, timestamp, body))
    .join(' ');
}
