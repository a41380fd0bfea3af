// End-of-job webhooks (issue 12) against a real receiver on 127.0.0.1: the message a final state
// writes to the outbox in the state change's own transaction, its Standard Webhooks signature
// (checked with the exported verifier and with an HMAC computed here), and the sender's behaviour
// under a receiver that is down, failing, gone, rate-limiting or slow.
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../src/index.js';
import type { JobEvent } from '../../src/server/jobs/events.js';
import type { Store } from '../../src/server/store/repositories.js';
import { AddressRefused, checkUrlShape, isPrivateAddress, STRICT_POLICY, type AddressPolicy } from '../../src/server/webhooks/address-policy.js';
import { webhookOutbox } from '../../src/server/webhooks/outbox.js';
import { afterFailure, DEFAULT_SCHEDULE } from '../../src/server/webhooks/retry.js';
import { webhookSender, type SenderOptions, type WebhookSender } from '../../src/server/webhooks/sender.js';
import type { WebhookMessage } from '../../src/server/store/types.js';
import { ALICE, BOB, harness, login, type Harness } from './helpers.js';
import { mostOpen, startReceiver, until } from './webhook-receiver.js';

const LOCAL: AddressPolicy = { allowPrivate: true, httpHosts: ['127.0.0.1'] };
const FAST: Partial<SenderOptions> = { pollMs: 20, timeoutMs: 2_000, retry: { firstDelayMs: 30, maxDelayMs: 200, windowMs: 60_000, jitter: 0 } };

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function service(sender: Partial<SenderOptions> = {}, policy: AddressPolicy = LOCAL) {
  let worker: WebhookSender | undefined;
  const h = await harness({
    withStore: (store) => {
      worker = webhookSender(store, { policy, ...FAST, ...sender });
      return { jobEvents: webhookOutbox({ onEnqueued: worker.wake }), workers: [worker], webhookPolicy: policy, wakeWebhooks: worker.wake };
    },
  });
  open.push(h);
  const key = (await login(h.app)).access_token;
  const accountId = (await h.store.accounts.findByEmail(ALICE.email))!.id;
  return { h, key, accountId, sender: worker! };
}

async function receiver(port?: number, host?: string) {
  const r = await startReceiver(port, undefined, host);
  open.push(r);
  return r;
}

async function addWebhook(h: Harness, key: string, url: string, events?: string[]) {
  const res = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url, ...(events ? { events } : {}) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { webhook: { id: string; enabled: boolean }; secret: string };
}

/** A generic printer without waiting for the client: the job is final (completed) at insert. */
async function printNow(h: Harness, key: string, extra: Record<string, unknown> = {}) {
  const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'x', terminalId: 'ANDROID', referencia: 'pedido-7', ...extra } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().intencaoImpressao as { id: number; status: string };
}

const log = async (h: Harness, key: string, query = '') => (await h.app.inject({ url: `/Webhook/GetLog?key=${key}${query}` })).json() as {
  attempts: Array<{ statusCode: number | null; error: string | null; messageId: string; messageState: string }>;
  messages: Array<{ messageId: string; state: string; attempts: number; nextAttemptAt: string | null }>;
};

const hmac = (secret: string, id: string, ts: string, body: string) =>
  createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${ts}.${body}`).digest('base64');

describe('a job reaching a final state', { timeout: 30_000 }, () => {
  it('sends one signed Standard Webhooks message to each subscribed endpoint and to the urlCallback', async () => {
    const { h, key } = await service();
    const a = await receiver();
    const b = await receiver();
    const { secret } = await addWebhook(h, key, `${a.url}/hooks?source=bobina`);
    const job = await printNow(h, key, { urlCallback: `${b.url}/cb` });
    expect(job.status).toBe('Impresso');
    const [got] = await a.waitFor(1);
    const [cb] = await b.waitFor(1);

    expect(got!.path).toBe(`/hooks?source=bobina&intencaoImpressaoId=${job.id}`);
    expect(cb!.path).toBe(`/cb?intencaoImpressaoId=${job.id}`);
    expect(JSON.parse(got!.body)).toEqual({
      type: 'intencaoImpressao.completed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: { intencaoImpressaoId: job.id, referencia: 'pedido-7', status: 'Impresso', estado: 'completed', motivos: [], confirmacao: 'none', sequence: 1 },
    });
    const id = got!.headers['webhook-id'] as string;
    const ts = got!.headers['webhook-timestamp'] as string;
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(got!.headers['webhook-signature']).toBe(`v1,${hmac(secret, id, ts, got!.body)}`);
    expect(await verifyWebhook(secret, got!.headers, got!.body, { toleranceSeconds: 300 })).toMatchObject({ data: { intencaoImpressaoId: job.id } });
    // The callback is signed with the account's (first) endpoint secret.
    expect(await verifyWebhook(secret, cb!.headers, cb!.body)).toMatchObject({ type: 'intencaoImpressao.completed' });
    expect(cb!.headers['webhook-id']).not.toBe(id);

    await until(async () => (await log(h, key)).messages.every((m) => m.state === 'delivered') || undefined, 5_000, 'both delivered');
    const attempts = (await log(h, key, `&intencaoImpressaoId=${job.id}`)).attempts;
    expect(attempts.map((x) => x.statusCode)).toEqual([200, 200]);
    expect(h.logs()).not.toContain('whsec_');
    expect(h.logs()).not.toContain(secret.slice(6, 20));
  });

  it('writes no message for a job that is not final, nor for an endpoint not subscribed or disabled', async () => {
    const { h, key } = await service();
    const a = await receiver();
    await addWebhook(h, key, a.url, ['failed']);
    const off = await addWebhook(h, key, `${a.url}/all`);
    expect((await h.app.inject({ method: 'POST', url: `/Webhook/Remove?key=${key}`, payload: { webhookId: off.webhook.id } })).statusCode).toBe(200);
    await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'x', terminalId: 'CAIXA-01' } });
    await printNow(h, key);
    expect((await log(h, key)).messages).toEqual([]);
  });

  it('sends the notice of a state change made by the job lifecycle: a queued job canceled by the partner', async () => {
    const { h, key } = await service();
    const a = await receiver();
    const cb = await receiver();
    const { secret } = await addWebhook(h, key, a.url);
    const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'x', terminalId: 'CAIXA-01', referencia: 'pedido-9', urlCallback: `${cb.url}/cb` } });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json().intencaoImpressao as { id: number; estado: string };
    expect(job.estado).toBe('queued');
    const canceled = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Cancelar?key=${key}&intencaoImpressaoId=${job.id}` });
    expect(canceled.statusCode, canceled.body).toBe(200);
    const [got] = await a.waitFor(1);
    const [viaCallback] = await cb.waitFor(1);
    expect(await verifyWebhook(secret, got!.headers, got!.body)).toEqual({
      type: 'intencaoImpressao.canceled',
      timestamp: expect.any(String),
      data: { intencaoImpressaoId: job.id, referencia: 'pedido-9', status: 'Cancelado', estado: 'canceled', motivos: [], confirmacao: 'none', sequence: 2 },
    });
    expect(viaCallback!.path).toBe(`/cb?intencaoImpressaoId=${job.id}`);
    expect(JSON.parse(viaCallback!.body).type).toBe('intencaoImpressao.canceled');
  });

  it('delivers every final state and, when asked, stopped — whoever reports the change (the sink delivery will call)', async () => {
    const { h, key, accountId, sender } = await service();
    const a = await receiver();
    const { secret } = await addWebhook(h, key, a.url, ['completed', 'failed', 'canceled', 'expired', 'stopped']);
    const finalOnly = await receiver();
    await addWebhook(h, key, finalOnly.url);
    const sink = webhookOutbox({ onEnqueued: sender.wake });
    const states = ['stopped', 'failed', 'canceled', 'expired', 'completed'] as const;
    for (const [i, estado] of states.entries()) {
      const event: JobEvent = {
        accountId, intencaoImpressaoId: 100 + i, referencia: null, status: estado, estado, motivos: estado === 'failed' ? ['media-empty'] : [],
        confirmacao: 'printer', sequence: 3, at: new Date(), urlCallback: null, evento: 'completed', from: 'printing', createdAt: new Date(),
      };
      await h.store.transaction((tx) => sink(tx, event));
    }
    const got = await a.waitFor(5);
    await finalOnly.waitFor(4);
    const bodies = await Promise.all(got.map((r) => verifyWebhook<{ type: string; data: { estado: string; motivos: string[] } }>(secret, r.headers, r.body)));
    expect(bodies.map((b) => b.data.estado).sort()).toEqual([...states].sort());
    expect(bodies.find((b) => b.data.estado === 'failed')!.data.motivos).toEqual(['media-empty']);
    await until(async () => (await log(h, key)).messages.filter((m) => m.state === 'delivered').length === 9 || undefined, 5_000, 'nine delivered');
    expect(finalOnly.received.map((r) => JSON.parse(r.body).type)).not.toContain('intencaoImpressao.stopped');
  });

  it('rolls the message back with the state change when the transaction fails', async () => {
    const { h, key, accountId } = await service();
    const a = await receiver();
    await addWebhook(h, key, a.url);
    const sink = webhookOutbox();
    const event: JobEvent = {
      accountId, intencaoImpressaoId: 1, referencia: null, status: 'Impresso', estado: 'completed', motivos: [], confirmacao: 'none', sequence: 1, at: new Date(),
      evento: 'completed', from: 'printing', createdAt: new Date(),
    };
    await expect(h.store.transaction(async (tx) => {
      await sink(tx, event);
      throw new Error('state change refused');
    })).rejects.toThrow('state change refused');
    expect((await log(h, key)).messages).toEqual([]);
  });
});

describe('the sender', { timeout: 30_000 }, () => {
  it('retries a receiver that is down until it is up: delivered, exactly one 2xx recorded', async () => {
    const { h, key } = await service();
    const probe = await startReceiver();
    const port = probe.port;
    await probe.close();
    await addWebhook(h, key, `http://127.0.0.1:${port}/down`);
    await printNow(h, key);
    await until(async () => (await log(h, key)).attempts.length >= 2 || undefined, 5_000, 'two refused attempts');
    expect((await log(h, key)).attempts.every((x) => x.statusCode === null && /ECONNREFUSED/.test(x.error ?? ''))).toBe(true);
    const up = await receiver(port);
    await up.waitFor(1);
    await until(async () => (await log(h, key)).messages[0]!.state === 'delivered' || undefined, 5_000, 'delivered');
    const { attempts } = await log(h, key);
    expect(attempts.filter((x) => x.statusCode !== null && x.statusCode >= 200 && x.statusCode < 300)).toHaveLength(1);
    expect(up.received).toHaveLength(1);
  });

  it('keeps the same webhook-id across 500, 500, 500 then 200', async () => {
    const { h, key } = await service();
    const a = await receiver();
    a.script = [{ status: 500 }, { status: 500 }, { status: 500 }];
    await addWebhook(h, key, a.url);
    await printNow(h, key);
    const got = await a.waitFor(4);
    await until(async () => (await log(h, key)).messages[0]!.state === 'delivered' || undefined, 5_000, 'delivered');
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect((await log(h, key)).attempts.map((x) => x.statusCode).reverse()).toEqual([500, 500, 500, 200]);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const { h, key } = await service();
    const a = await receiver();
    const elsewhere = await receiver();
    a.script = [{ status: 302, headers: { location: `${elsewhere.url}/x` } }];
    await addWebhook(h, key, a.url);
    await printNow(h, key);
    await a.waitFor(2);
    await until(async () => (await log(h, key)).messages[0]!.state === 'delivered' || undefined, 5_000, 'delivered');
    expect((await log(h, key)).attempts.map((x) => x.statusCode).reverse()).toEqual([302, 200]);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('disables an endpoint that answers 410 Gone, and writes it no more messages', async () => {
    const { h, key } = await service();
    const a = await receiver();
    a.fallback = { status: 410 };
    const { webhook } = await addWebhook(h, key, a.url);
    await printNow(h, key);
    await until(async () => (await log(h, key)).messages[0]!.state === 'dead' || undefined, 5_000, 'dead');
    const list = (await h.app.inject({ url: `/Webhook/GetAll?key=${key}` })).json();
    expect(list.webhooks).toEqual([expect.objectContaining({ id: webhook.id, enabled: false, disabledReason: 'gone' })]);
    await printNow(h, key);
    expect((await log(h, key)).messages).toHaveLength(1);
    expect(a.received).toHaveLength(1);
  });

  it('waits as long as a 429 Retry-After asks, not the shorter backoff', async () => {
    const { h, key } = await service();
    const a = await receiver();
    a.script = [{ status: 429, headers: { 'retry-after': '1' } }];
    await addWebhook(h, key, a.url);
    await printNow(h, key);
    await a.waitFor(1);
    const after429 = await until(async () => (await log(h, key)).messages.find((m) => m.attempts === 1), 5_000, 'first attempt recorded');
    const first = await h.store.webhooks.getMessage((await h.store.accounts.findByEmail(ALICE.email))!.id, after429.messageId);
    const [attempt] = await h.store.webhooks.listAttempts(first!.accountId, { limit: 1 });
    // The next try is Retry-After after the answer came (no jitter, no backoff), where backoff alone would say 30 ms.
    const answered = attempt!.at.getTime() + attempt!.latencyMs;
    // (latencyMs is rounded to the millisecond: the answer may have come up to half of one earlier.)
    expect(first!.nextAttemptAt.getTime() - answered).toBeGreaterThanOrEqual(999);
    // Not the backoff's 30 ms; the slack is the event loop's between the answer and the next try's planning.
    expect(first!.nextAttemptAt.getTime() - answered).toBeLessThan(5_000);
    const got = await a.waitFor(2, 5_000);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('marks a message dead after the retry window, flags the endpoint, and replays it with the same webhook-id', async () => {
    const { h, key } = await service({ retry: { firstDelayMs: 20, maxDelayMs: 40, windowMs: 150, jitter: 0 } });
    const a = await receiver();
    a.fallback = { status: 500 };
    await addWebhook(h, key, a.url);
    await printNow(h, key);
    const dead = await until(async () => (await log(h, key)).messages.find((m) => m.state === 'dead'), 5_000, 'dead');
    const list = (await h.app.inject({ url: `/Webhook/GetAll?key=${key}` })).json();
    expect(list.webhooks[0].failingSince).toEqual(expect.any(String));
    // As many tries as fitted in the window (how many depends on the machine's speed), each one kept.
    const tries = a.received.length;
    expect(tries).toBeGreaterThanOrEqual(1);
    expect((await log(h, key)).attempts.map((x) => x.statusCode)).toEqual(Array(tries).fill(500));

    a.fallback = { status: 200 };
    const replay = await h.app.inject({ method: 'POST', url: `/Webhook/Replay?key=${key}`, payload: { messageId: dead.messageId } });
    expect(replay.statusCode, replay.body).toBe(200);
    await a.waitFor(tries + 1);
    await until(async () => (await log(h, key)).messages[0]!.state === 'delivered' || undefined, 5_000, 'delivered after replay');
    expect(a.received[tries]!.headers['webhook-id']).toBe(dead.messageId);
    expect((await h.app.inject({ url: `/Webhook/GetAll?key=${key}` })).json().webhooks[0].failingSince).toBeNull();
    // A delivered message can be replayed too.
    expect((await h.app.inject({ method: 'POST', url: `/Webhook/Replay?key=${key}`, payload: { messageId: dead.messageId } })).statusCode).toBe(200);
    await a.waitFor(tries + 2);
    expect((await h.app.inject({ method: 'POST', url: `/Webhook/Replay?key=${key}`, payload: { messageId: 'msg_nope' } })).statusCode).toBe(404);
  });

  it('lets a slow receiver delay neither inserts nor another endpoint\'s deliveries', async () => {
    // One message in flight per endpoint: the slow one holds its first and keeps the other four waiting.
    const { h, key } = await service({ timeoutMs: 8_000, perTarget: 1 });
    const slow = await receiver();
    slow.fallback = 'hang';
    const fast = await receiver();
    await addWebhook(h, key, slow.url);
    await addWebhook(h, key, fast.url);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await printNow(h, key)).id);
    await fast.waitFor(5, 5_000);
    // Everything above happened while the slow receiver had answered none of its requests.
    expect(slow.received.length).toBeGreaterThan(0);
    expect(slow.held()).toBe(slow.received.length);
    expect(fast.received.map((r) => JSON.parse(r.body).data.intencaoImpressaoId).sort((x, y) => x - y)).toEqual(ids);
    slow.fallback = { status: 200 };
    slow.release();
    await slow.waitFor(5, 5_000);
  });

  it('re-checks the address at send time: a private address is refused when the sender is not allowed it', async () => {
    const { h, key } = await service({}, LOCAL);
    // Registered under the allowing policy, but sent by a sender with the strict one (http to 127.0.0.1 allowed, private not).
    const strictSender = webhookSender(h.store as Store, { ...FAST, policy: { allowPrivate: false, httpHosts: ['127.0.0.1'] } } as SenderOptions);
    const a = await receiver();
    await addWebhook(h, key, a.url);
    await h.app.close();
    await printNowDirect(h);
    const logs: string[] = [];
    const quiet = { debug() {}, info: (_: object, m: string) => logs.push(m), warn: (_: object, m: string) => logs.push(m), error() {} };
    strictSender.start(quiet);
    try {
      await until(async () => (await h.store.webhooks.listAttempts((await h.store.accounts.findByEmail(ALICE.email))!.id, { limit: 1 }))[0], 5_000, 'an attempt');
      const [attempt] = await h.store.webhooks.listAttempts((await h.store.accounts.findByEmail(ALICE.email))!.id, { limit: 1 });
      expect(attempt!.error).toMatch(/^refused: .*127\.0\.0\.1.*private/);
      expect(a.received).toHaveLength(0);
    } finally {
      await strictSender.stop();
    }
  });
});

describe('what one account can make the sender do (issue 20)', { timeout: 30_000 }, () => {
  it('never tries again sooner than the first backoff step, whatever Retry-After says', async () => {
    const { h, key, accountId } = await service({ retry: { firstDelayMs: 300, maxDelayMs: 1_000, windowMs: 60_000, jitter: 0 } });
    const a = await receiver();
    a.script = [0, 1, 2].map(() => ({ status: 429, headers: { 'retry-after': '0' } }));
    await addWebhook(h, key, a.url);
    await printNow(h, key);
    await until(async () => (await log(h, key)).messages[0]?.state === 'delivered' || undefined, 10_000, 'delivered');
    const tries = (await h.store.webhooks.listAttempts(accountId, { limit: 10 })).map((x) => x.at.getTime()).reverse();
    expect(tries).toHaveLength(4);
    // Each try came no sooner than 300 ms after the one before (Retry-After: 0 asked for at once).
    for (let i = 1; i < tries.length; i++) expect(tries[i]! - tries[i - 1]!).toBeGreaterThanOrEqual(300);
  });

  it('plans the next try at the first backoff step for a Retry-After below it, and as asked above it', () => {
    const now = new Date(1_000_000);
    const m = { attempts: 0, windowStart: now } as WebhookMessage;
    expect(afterFailure(m, now, DEFAULT_SCHEDULE, 0)).toEqual({ state: 'pending', nextAttemptAt: new Date(1_005_000) });
    expect(afterFailure(m, now, DEFAULT_SCHEDULE, 4_999)).toEqual({ state: 'pending', nextAttemptAt: new Date(1_005_000) });
    expect(afterFailure(m, now, DEFAULT_SCHEDULE, 120_000)).toEqual({ state: 'pending', nextAttemptAt: new Date(1_120_000) });
    // The 30th try is the last, whatever comes next.
    expect(afterFailure({ ...m, attempts: 28 }, now, DEFAULT_SCHEDULE, 120_000).state).toBe('pending');
    expect(afterFailure({ ...m, attempts: 29 }, now, DEFAULT_SCHEDULE, 120_000)).toEqual({ state: 'dead' });
    expect(DEFAULT_SCHEDULE).toMatchObject({ firstDelayMs: 5_000, maxAttempts: 30 });
  });

  it('gives a message up after maxAttempts tries, even when Retry-After keeps asking for more', async () => {
    const { h, key } = await service({ retry: { firstDelayMs: 20, maxDelayMs: 40, windowMs: 60_000, jitter: 0, maxAttempts: 3 } });
    const a = await receiver();
    a.fallback = { status: 503, headers: { 'retry-after': '0' } };
    await addWebhook(h, key, a.url);
    await printNow(h, key);
    const dead = await until(async () => (await log(h, key)).messages.find((m) => m.state === 'dead'), 10_000, 'dead');
    expect(dead.attempts).toBe(3);
    expect(a.received).toHaveLength(3);
    // A replay gets a fresh count (and window).
    a.fallback = { status: 200 };
    expect((await h.app.inject({ method: 'POST', url: `/Webhook/Replay?key=${key}`, payload: { messageId: dead.messageId } })).statusCode).toBe(200);
    await until(async () => (await log(h, key)).messages[0]!.state === 'delivered' || undefined, 10_000, 'delivered after replay');
    expect((await log(h, key)).messages[0]!.attempts).toBe(1);
  });

  /**
   * A message from another account to a receiver on another address (127.0.0.2), which neither
   * limit holds back: once it has arrived, the sender has claimed and posted since everything
   * before it, so whatever it could send to the others has been sent.
   */
  async function barrier(h: Harness) {
    const z = await receiver(undefined, '127.0.0.2');
    const bob = (await login(h.app, BOB)).access_token;
    await addWebhook(h, bob, z.url);
    const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${bob}`, payload: { conteudo: 'x', codigoImpressora: 'GENERICA' } });
    expect(res.json().intencaoImpressao.status).toBe('Impresso');
    await z.waitFor(1);
  }
  const TWO_ADDRESSES: AddressPolicy = { allowPrivate: true, httpHosts: ['127.0.0.1', '127.0.0.2'] };

  it('has at most 4 messages in flight to one origin, however many endpoints point there', async () => {
    const { h, key } = await service({ timeoutMs: 8_000 }, TWO_ADDRESSES);
    const a = await receiver();
    a.fallback = 'hang';
    for (let i = 0; i < 20; i++) await addWebhook(h, key, `${a.url}/e${i}`);
    await printNow(h, key);
    await a.waitFor(4);
    await barrier(h);
    expect(a.received).toHaveLength(4);
    // Answered one at a time, the rest go four at once at most.
    for (let n = 5; n <= 20; n++) {
      a.releaseOne();
      await a.waitFor(n);
    }
    a.release();
    expect(mostOpen(a)).toBe(4);
    expect(new Set(a.received.map((r) => r.path.split('?')[0])).size).toBe(20);
  });

  it('has at most perAddress messages in flight to one IP address, whatever the origins', async () => {
    // Two receivers on 127.0.0.1 (two origins: two ports), one address.
    const { h, key } = await service({ timeoutMs: 8_000, perAddress: 1 }, TWO_ADDRESSES);
    const receivers = [await receiver(), await receiver()];
    for (const r of receivers) {
      r.fallback = 'hang';
      await addWebhook(h, key, r.url);
    }
    await printNow(h, key);
    const first = await until(() => receivers.find((r) => r.received.length > 0), 10_000, 'a first message');
    await barrier(h);
    expect(receivers.map((r) => r.received.length).sort()).toEqual([0, 1]);
    first.releaseOne();
    await until(() => receivers.every((r) => r.received.length === 1), 10_000, 'the second message');
    for (const r of receivers) r.release();
    expect(mostOpen(...receivers)).toBe(1);
  });

  it("holds at most perAccount of one account's messages in flight: its hanging receivers, on any number of origins, keep no other account waiting", async () => {
    // Eight receivers that never answer (eight origins, so perTarget holds none back), and a sender with room for four.
    const { h, key } = await service({ timeoutMs: 20_000, maxInFlight: 4, perAccount: 2 }, TWO_ADDRESSES);
    const hanging: Array<Awaited<ReturnType<typeof receiver>>> = [];
    for (let i = 0; i < 8; i++) {
      const r = await receiver();
      r.fallback = 'hang';
      await addWebhook(h, key, r.url);
      hanging.push(r);
    }
    await printNow(h, key);
    await until(() => hanging.filter((r) => r.received.length > 0).length >= 2 || undefined, 10_000, 'two messages in flight');
    // Another account's message arrives while all of those still hang (without the limit, they took all four places for 20 s).
    await barrier(h);
    expect(hanging.filter((r) => r.received.length > 0)).toHaveLength(2);
    for (const r of hanging) r.release();
  });

  it('sends nothing more to a disabled endpoint: its messages are held, out of the way of others, until it is enabled', async () => {
    // Retried every 200 ms while the 140 inserts go on (8 s and more under load), the first messages
    // would use up the 30 tries of the default schedule and be dead before the endpoint is
    // disabled, never to be delivered: the tries are not what this test is about.
    const { h, key, accountId, sender } = await service({ timeoutMs: 8_000, retry: { ...FAST.retry!, maxAttempts: 1_000 } }, TWO_ADDRESSES);
    const a = await receiver();
    a.fallback = { status: 500 };
    const { webhook } = await addWebhook(h, key, a.url);
    // More undelivered messages than the claim's window of the 128 longest due.
    for (let i = 0; i < 140; i++) await printNow(h, key);
    await a.waitFor(4);
    expect(await h.store.webhooks.setEnabled(accountId, webhook.id, false, 'operator')).toBe(true);
    // Held at once, those in flight too (they finish their attempt; the barrier lets them arrive).
    const ofEndpoint = async () => (await log(h, key, `&webhookId=${webhook.id}&limit=1000`)).messages;
    await until(async () => (await ofEndpoint()).every((m) => m.state !== 'pending') || undefined, 10_000, 'none pending');
    await barrier(h);
    const sent = a.received.length;
    const messages = await ofEndpoint();
    expect(messages.filter((m) => m.state === 'held').length).toBeGreaterThan(130);
    // A replay of one of them waits with them; enabled again, all go.
    const replayed = await h.app.inject({ method: 'POST', url: `/Webhook/Replay?key=${key}`, payload: { messageId: messages[0]!.messageId } });
    expect(replayed.json().message.state).toBe('held');
    // Nothing went to it meanwhile: another account's message went through since the replay.
    await barrier(h);
    expect(a.received.length).toBe(sent);
    a.fallback = { status: 200 };
    expect(await h.store.webhooks.setEnabled(accountId, webhook.id, true)).toBe(true);
    sender.wake();
    await until(async () => (await log(h, key, `&webhookId=${webhook.id}&limit=1000`)).messages.every((m) => m.state === 'delivered') || undefined, 20_000, 'all delivered once enabled');
  });

  it('signs with at most five secrets however often the secret is rotated, and stops the previous ones at once when asked', async () => {
    const { h, key } = await service();
    const a = await receiver();
    const { webhook } = await addWebhook(h, key, a.url);
    const rotate = async (body: Record<string, unknown> = {}) => {
      const res = await h.app.inject({ method: 'POST', url: `/Webhook/RotateSecret?key=${key}`, payload: { webhookId: webhook.id, ...body } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { webhook: { secrets: number }; secret: string };
    };
    for (let i = 0; i < 12; i++) await rotate();
    expect((await rotate()).webhook.secrets).toBe(5);
    await printNow(h, key);
    const [first] = await a.waitFor(1);
    expect((first!.headers['webhook-signature'] as string).split(' ')).toHaveLength(5);
    const last = await rotate({ previousExpiresInSeconds: 0 });
    expect(last.webhook.secrets).toBe(1);
    await printNow(h, key);
    const got = await a.waitFor(2);
    const signatures = (got[1]!.headers['webhook-signature'] as string).split(' ');
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toBe(`v1,${hmac(last.secret, got[1]!.headers['webhook-id'] as string, got[1]!.headers['webhook-timestamp'] as string, got[1]!.body)}`);
    expect((await h.app.inject({ method: 'POST', url: `/Webhook/RotateSecret?key=${key}`, payload: { webhookId: webhook.id, previousExpiresInSeconds: 86_401 } })).statusCode).toBe(400);
  });

  it('refuses to replay a message whose endpoint was removed', async () => {
    const { h, key } = await service({ timeoutMs: 8_000 }, TWO_ADDRESSES);
    const a = await receiver();
    a.fallback = { status: 500 };
    const { webhook } = await addWebhook(h, key, a.url);
    await printNow(h, key);
    await a.waitFor(1);
    expect((await h.app.inject({ method: 'POST', url: `/Webhook/Remove?key=${key}`, payload: { webhookId: webhook.id } })).statusCode).toBe(200);
    const [message] = (await log(h, key)).messages;
    expect(message).toMatchObject({ state: 'dead' });
    const res = await h.app.inject({ method: 'POST', url: `/Webhook/Replay?key=${key}`, payload: { messageId: message!.messageId } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'webhook-endpoint-removed', message: expect.any(String), messageId: message!.messageId, webhookId: webhook.id, requestId: expect.any(String) });
  });

  it('refuses an endpoint past the account\'s limit, and a second one for the same URL, with a JSON problem', async () => {
    const { h, key } = await service({}, { ...LOCAL, maxEndpoints: 3 });
    const a = await receiver();
    const { webhook } = await addWebhook(h, key, `${a.url}/hook`);
    // The same URL as posted to: host case, default port and dot segments change nothing.
    const same = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: `${a.url.replace('http://', 'HTTP://')}/./hook` } });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({ code: 'webhook-url-duplicate', webhookId: webhook.id });
    await addWebhook(h, key, `${a.url}/two`);
    await addWebhook(h, key, `${a.url}/three`);
    const over = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: `${a.url}/four` } });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'webhook-limit-reached', max: 3 });
    expect((await h.app.inject({ url: `/Webhook/GetAll?key=${key}` })).json().webhooks).toHaveLength(3);
    // Another account has its own allowance.
    const bob = (await login(h.app, BOB)).access_token;
    expect((await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${bob}`, payload: { url: `${a.url}/four` } })).statusCode).toBe(200);
  });

  it('keeps an account to its limit when endpoints are added at once', async () => {
    const { h, key } = await service({}, { ...LOCAL, maxEndpoints: 3 });
    const a = await receiver();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: `${a.url}/p${i}` } })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 409, 409, 409, 409, 409]);
    expect((await h.app.inject({ url: `/Webhook/GetAll?key=${key}` })).json().webhooks).toHaveLength(3);
  });
});

/** The outbox written directly, as a state change would, with the app closed (its sender stopped). */
async function printNowDirect(h: Harness) {
  const accountId = (await h.store.accounts.findByEmail(ALICE.email))!.id;
  await h.store.transaction((tx) => webhookOutbox()(tx, {
    accountId, intencaoImpressaoId: 9, referencia: null, status: 'Impresso', estado: 'completed', motivos: [], confirmacao: 'none', sequence: 1, at: new Date(),
    evento: 'completed', from: 'printing', createdAt: new Date(),
  }));
}

describe('addresses', { timeout: 30_000 }, () => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await harness({ webhookPolicy: STRICT_POLICY });
    key = (await login(h.app)).access_token;
  });
  afterAll(() => h.close());

  it.each([
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback by name', 'https://localhost/hook'],
    ['private', 'https://10.1.2.3/hook'],
    ['private 192.168', 'https://192.168.0.10/hook'],
    ['link-local', 'https://[fe80::1]/hook'],
    ['deprecated site-local (fec0::/10)', 'https://[fec0::1]/hook'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['IPv4-mapped loopback in hex', 'https://[::ffff:7f00:1]/hook'],
    ['IPv4-compatible loopback (::a.b.c.d)', 'https://[::127.0.0.1]/hook'],
    ['IPv4-compatible, a public address', 'https://[::8.8.8.8]/hook'],
    ['IPv4-translated loopback (::ffff:0:a.b.c.d)', 'https://[::ffff:0:127.0.0.1]/hook'],
    ['6to4 (2002::/16) of a private address', 'https://[2002:a00:1::1]/hook'],
    ['Teredo (2001::/32)', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook'],
    ['local-use NAT64 (64:ff9b:1::/48)', 'https://[64:ff9b:1::a00:1]/hook'],
    ['the 6to4 relay anycast (192.88.99.0/24)', 'https://192.88.99.1/hook'],
    ['a tab inside', 'https://example.com/a\tb'],
    ['a line break in front', '\nhttps://example.com/hook'],
    ['a NUL (PostgreSQL cannot keep it)', 'https://example.com/hook\u0000'],
    ['a C1 control', 'https://example.com/\u0085'],
    ['DEL', 'https://example.com/\u007f'],
    ['plain http to a host not allowed', 'http://example.com/hook'],
    ['another scheme', 'ftp://example.com/hook'],
    ['credentials in the URL', 'https://user:pw@example.com/hook'],
  ])('refuses %s without the operator\'s switch', async (_what, url) => {
    const res = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('webhook-url-refused');
    expect((await h.app.inject({ url: `/Webhook/GetAll?key=${key}` })).json().webhooks).toEqual([]);
  });

  it.each([
    ['a NUL', 'https://example.com/cb\u0000'],
    ['a line break', 'https://example.com/cb\r\n'],
  ])('refuses a urlCallback with %s on Insert, and stores no job', async (_what, urlCallback) => {
    const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'x', terminalId: 'ANDROID', urlCallback } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'webhook-url-refused', errors: [{ path: '/urlCallback', message: expect.stringMatching(/control character/) }] });
  });

  it('refuses a URL with a lone surrogate (it would be stored as other characters than the ones checked), on every path; a surrogate pair passes', async () => {
    // The probe: 200 echoing https://8.8.8.8/\ud800, stored as U+FFFD on PostgreSQL and other bytes on SQLite.
    const res = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: 'https://8.8.8.8/\ud800' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'webhook-url-refused', errors: [{ path: '/url', message: expect.stringMatching(/lone surrogate \(U\+D800\) at offset 16/) }] });
    expect((await h.app.inject({ url: `/Webhook/GetAll?key=${key}` })).json().webhooks).toEqual([]);
    // The shape check is the one every path shares (Webhook/Insert, the CLI, urlCallback, the sender), whatever the policy.
    for (const url of ['https://example.com/\udc00x', 'https://example.com/a\ud83d', 'https://\ud800example.com/']) {
      expect(() => checkUrlShape(url, { allowPrivate: true, httpHosts: [] }), url).toThrow(AddressRefused);
    }
    expect(checkUrlShape('https://example.com/\ud83d\ude00', STRICT_POLICY).pathname).toBe('/%F0%9F%98%80');
  });

  it('refuses a private urlCallback on Insert, before recording anything', async () => {
    const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'x', terminalId: 'ANDROID', urlCallback: 'https://127.0.0.1/cb' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'webhook-url-refused', errors: [{ path: '/urlCallback' }] });
  });

  it('knows the private, loopback, link-local and metadata ranges', () => {
    for (const ip of [
      '127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', 'fd00:ec2::254',
      '::ffff:7f00:1', '::7f00:1', '::808:808', '::ffff:0:7f00:1', '::ffff:0:808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '64:ff9b::808:808',
      '64:ff9b:1::808:808', '192.88.99.1', '3fff::1', '::',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1']) expect(isPrivateAddress(ip), ip).toBe(false);
  });

  // IANA's IPv4 and IPv6 special-purpose address registries, every block not globally reachable
  // (and multicast, and the deprecated site-local fec0::/10): the first and the last address of
  // each are refused; the public neighbours of some are not.
  it.each([
    ['0.0.0.0/8', '0.0.0.0', '0.255.255.255'], ['10.0.0.0/8', '10.0.0.0', '10.255.255.255'], ['100.64.0.0/10', '100.64.0.0', '100.127.255.255'],
    ['127.0.0.0/8', '127.0.0.0', '127.255.255.255'], ['169.254.0.0/16', '169.254.0.0', '169.254.255.255'], ['172.16.0.0/12', '172.16.0.0', '172.31.255.255'],
    ['192.0.0.0/24', '192.0.0.0', '192.0.0.255'], ['192.0.2.0/24', '192.0.2.0', '192.0.2.255'], ['192.88.99.0/24', '192.88.99.0', '192.88.99.255'],
    ['192.168.0.0/16', '192.168.0.0', '192.168.255.255'], ['198.18.0.0/15', '198.18.0.0', '198.19.255.255'], ['198.51.100.0/24', '198.51.100.0', '198.51.100.255'],
    ['203.0.113.0/24', '203.0.113.0', '203.0.113.255'], ['224.0.0.0/4', '224.0.0.0', '239.255.255.255'], ['240.0.0.0/4', '240.0.0.0', '255.255.255.254'],
    ['255.255.255.255/32', '255.255.255.255', '255.255.255.255'],
    ['::/128', '::', '::'], ['::1/128', '::1', '::1'], ['::ffff:0:0/96', '::ffff:0.0.0.0', '::ffff:127.255.255.255'],
    ['64:ff9b::/96', '64:ff9b::', '64:ff9b::ffff:ffff'], ['64:ff9b:1::/48', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    ['100::/64', '100::', '100::ffff:ffff:ffff:ffff'], ['100:0:0:1::/64', '100:0:0:1::', '100:0:0:1:ffff:ffff:ffff:ffff'],
    ['2001::/23', '2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'], ['2001:db8::/32', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2002::/16', '2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['3fff::/20', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['5f00::/16', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['fc00::/7', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fe80::/10', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], ['fec0::/10', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['ff00::/8', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ])('refuses all of %s', (_block, first, last) => {
    expect(isPrivateAddress(first), first).toBe(true);
    expect(isPrivateAddress(last), last).toBe(true);
  });

  it('accepts the public addresses next to those blocks', () => {
    for (const ip of ['9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255', '2001:200::1', '2001:db9::1', '2003::1']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });

  it('needs an account credential for the webhook routes', async () => {
    expect((await h.app.inject({ url: '/Webhook/GetAll' })).statusCode).toBe(401);
  });
});

describe('verifyWebhook', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef01234567').toString('base64')}`;
  const body = '{"type":"intencaoImpressao.completed"}';
  const id = 'msg_1';
  const now = 1_700_000_000;
  const headers = (ts: number, sig: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sig });

  it('accepts any one matching signature of a space-separated list (a rotation)', async () => {
    const sig = `v1,${hmac(secret, id, String(now), body)}`;
    await expect(verifyWebhook(secret, headers(now, `v1,AAAA ${sig}`), body, { now: () => now * 1000 })).resolves.toEqual({ type: 'intencaoImpressao.completed' });
    await expect(verifyWebhook(secret, new Headers(headers(now, sig)), new TextEncoder().encode(body), { now: () => now * 1000 })).resolves.toBeTruthy();
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers', async () => {
    const sig = `v1,${hmac(secret, id, String(now), body)}`;
    const opts = { toleranceSeconds: 300, now: () => now * 1000 };
    await expect(verifyWebhook(secret, headers(now, sig), `${body} `, opts)).rejects.toThrow(WebhookVerificationError);
    await expect(verifyWebhook(`whsec_${Buffer.from('another secret of 24 b!!').toString('base64')}`, headers(now, sig), body, opts)).rejects.toThrow(/no webhook-signature/);
    await expect(verifyWebhook(secret, headers(now, sig), body, { toleranceSeconds: 300, now: () => (now + 301) * 1000 })).rejects.toThrow(/timestamp/);
    await expect(verifyWebhook(secret, { 'webhook-id': id }, body, opts)).rejects.toThrow(/missing/);
  });
});
