// examples/webhook-receiver/receiver.mjs, started as its README says (PORT=0): it accepts a message
// signed the way the service signs it (src/server/webhooks/sign.ts), once per webhook-id, and
// refuses one with a wrong signature or an old timestamp.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMessageId, newWebhookSecret, sign } from '../../src/server/webhooks/sign.js';
import { startExample } from './run.js';

const secret = newWebhookSecret();
// Started in beforeAll, not when the file is collected: `vitest list`, or a filter that runs none
// of these tests, collects the file without running its hooks, and would leave the child running.
let receiver: ReturnType<typeof startExample>;
let url = '';

beforeAll(async () => {
  receiver = startExample('examples/webhook-receiver/receiver.mjs', { BOBINA_WEBHOOK_SECRET: secret, PORT: '0', HOST: '127.0.0.1' }, /^listening on (http:\/\/127\.0\.0\.1:\d+)$/);
  url = (await receiver.started)[1]!;
}, 30_000);
afterAll(() => receiver?.stop());

const body = JSON.stringify({
  type: 'intencaoImpressao.completed',
  timestamp: '2026-11-24T03:12:45.120Z',
  data: { intencaoImpressaoId: 42, referencia: 'pedido-7', status: 'Impresso', estado: 'completed', motivos: [], confirmacao: 'none', sequence: 1 },
});

function post(id: string, timestamp: number, signature: string) {
  return fetch(`${url}/?intencaoImpressaoId=42`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature },
    body,
    signal: AbortSignal.timeout(10_000),
  });
}

describe('examples/webhook-receiver', { timeout: 30_000 }, () => {
  it('answers 204 to a signed message and prints it once, however often it is delivered', async () => {
    const id = newMessageId();
    const now = Math.floor(Date.now() / 1000);
    expect((await post(id, now, sign(secret, id, now, body))).status).toBe(204);
    expect((await post(id, now, sign(secret, id, now, body))).status).toBe(204);
    expect(receiver.lines.filter((l) => !l.startsWith('listening'))).toEqual(['intencaoImpressao.completed 42 Impresso']);
  });

  it('accepts a message signed during a rotation by the old and the new secret', async () => {
    const id = newMessageId();
    const now = Math.floor(Date.now() / 1000);
    expect((await post(id, now, `${sign(newWebhookSecret(), id, now, body)} ${sign(secret, id, now, body)}`)).status).toBe(204);
  });

  it('answers 400 to a wrong signature or a timestamp outside ±300 s, and prints nothing for them', async () => {
    const before = receiver.lines.length;
    const id = newMessageId();
    const now = Math.floor(Date.now() / 1000);
    expect((await post(id, now, sign(newWebhookSecret(), id, now, body))).status).toBe(400);
    expect((await post(id, now - 301, sign(secret, id, now - 301, body))).status).toBe(400);
    expect(receiver.lines.length).toBe(before);
  });
});
