// Webhook host lookups when one account names hosts whose nameserver never answers (issue 20,
// dns-gate.ts). The service resolves through an injected lookup that behaves as libuv's does: at
// most two lookups run at once, the rest wait for a free thread, and a lookup that gets no answer
// keeps its thread. Another account's registration, urlCallback and delivery must still go through,
// and the stuck account is answered within the deadline, saying DNS timeout.
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressPolicy } from '../../src/server/webhooks/address-policy.js';
import { LookupGate, type HostLookup } from '../../src/server/webhooks/dns-gate.js';
import { webhookOutbox } from '../../src/server/webhooks/outbox.js';
import { webhookSender, type WebhookSender } from '../../src/server/webhooks/sender.js';
import { ALICE, BOB, harness, login, type Harness } from './helpers.js';
import { startReceiver, until, type Receiver } from './webhook-receiver.js';

const STUCK = ['hang-0.alice.test', 'hang-1.alice.test', 'hang-2.alice.test', 'hang-3.alice.test'];
const POLICY: AddressPolicy = { allowPrivate: true, httpHosts: ['alice.test', 'bob.test', ...STUCK] };
/** Short, so the test does not wait long for the answers it checks; the gate's default is 5 s. */
const DEADLINE_MS = 400;

/**
 * A resolver with libuv's two lookup threads: a host in `answers` resolves to its address, any
 * other never answers and keeps its thread until `release()` (then fails, as glibc finally does).
 */
function twoThreadResolver(answers: Record<string, string>) {
  const started: string[] = [];
  const waiting: Array<() => void> = [];
  const hung: Array<() => void> = [];
  let running = 0;
  const freeOne = () => {
    running--;
    waiting.shift()?.();
  };
  const lookup: HostLookup = (host) => new Promise((resolve, reject) => {
    const run = () => {
      running++;
      started.push(host);
      const address = answers[host];
      if (address === undefined) {
        hung.push(() => {
          freeOne();
          reject(Object.assign(new Error(`getaddrinfo EAI_AGAIN ${host}`), { code: 'EAI_AGAIN' }));
        });
        return;
      }
      setImmediate(() => {
        freeOne();
        resolve([{ address, family: 4 }]);
      });
    };
    if (running < 2) run();
    else waiting.push(run);
  });
  return { lookup, started, release: () => hung.splice(0).forEach((f) => f()) };
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function service(answers: Record<string, string>, policy: AddressPolicy = POLICY) {
  const dns = twoThreadResolver(answers);
  const lookups = new LookupGate(DEADLINE_MS, dns.lookup);
  let sender: WebhookSender | undefined;
  const h: Harness = await harness({
    withStore: (store) => {
      // Retries far off: each message is tried once while the test looks.
      sender = webhookSender(store, { policy, lookups, pollMs: 20, timeoutMs: 2_000, retry: { firstDelayMs: 60_000, maxDelayMs: 60_000, windowMs: 600_000, jitter: 0 } });
      return { jobEvents: webhookOutbox({ onEnqueued: sender.wake }), workers: [sender], webhookPolicy: policy, webhookLookups: lookups, wakeWebhooks: sender.wake };
    },
  });
  // Released first, closed last: the hung lookups end as the service stops.
  open.push(h, { close: async () => dns.release() });
  const alice = (await login(h.app)).access_token;
  const bob = (await login(h.app, BOB)).access_token;
  const aliceId = (await h.store.accounts.findByEmail(ALICE.email))!.id;
  return { h, dns, alice, bob, aliceId };
}

const addWebhook = (h: Harness, key: string, url: string) => h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url } });
const insert = (h: Harness, key: string, extra: Record<string, unknown> = {}) =>
  h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'x', codigoImpressora: 'GENERICA', ...extra } });

async function receiver(host: string) {
  const r: Receiver = await startReceiver(undefined, undefined, host);
  open.push(r);
  return r;
}

const dnsTimeout = (path: string, host: RegExp) => ({
  code: 'webhook-url-dns-timeout',
  errors: [{ path, message: expect.stringMatching(new RegExp(`^DNS timeout: host ${host.source} `)) }],
});

describe('webhook host lookups, one account naming hosts whose nameserver never answers (issue 20)', { timeout: 30_000 }, () => {
  it("registers another account's webhook at once while three of one account's registrations wait for DNS, and answers those 503 webhook-url-dns-timeout", async () => {
    const { h, dns, alice, bob } = await service({ 'bob.test': '127.0.0.1' });
    const stuck = STUCK.slice(1).map((host) => addWebhook(h, alice, `http://${host}/hook`));
    await until(() => dns.started.length > 0 || undefined, 5_000, "Alice's first lookup");
    const other = await addWebhook(h, bob, 'http://bob.test:9/hook');
    expect(other.statusCode, other.body).toBe(200);
    for (const res of await Promise.all(stuck)) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toMatchObject(dnsTimeout('/url', /hang-\d\.alice\.test/));
    }
    // One of libuv's two threads, whatever the number of Alice's requests; none registered.
    expect(dns.started.filter((host) => host.endsWith('alice.test'))).toHaveLength(1);
    expect((await h.app.inject({ url: `/Webhook/GetAll?key=${alice}` })).json().webhooks).toEqual([]);
  });

  it("answers a urlCallback whose host does not resolve in time 503 on /urlCallback, storing no job, while another account's Insert with a urlCallback goes through", async () => {
    const { h, dns, alice, bob } = await service({ 'bob.test': '127.0.0.1' });
    const stuck = STUCK.slice(1).map((host) => insert(h, alice, { urlCallback: `http://${host}/cb` }));
    await until(() => dns.started.length > 0 || undefined, 5_000, "Alice's first lookup");
    const other = await insert(h, bob, { urlCallback: 'http://bob.test:9/cb' });
    expect(other.statusCode, other.body).toBe(200);
    for (const res of await Promise.all(stuck)) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject(dnsTimeout('/urlCallback', /hang-\d\.alice\.test/));
    }
    expect((await h.app.inject({ url: `/IntencaoImpressao/GetAll?key=${alice}` })).json().intencoes).toEqual([]);
  });

  it('refuses a duplicate URL and an endpoint past the limit before any lookup', async () => {
    const { h, dns, alice } = await service({ 'alice.test': '127.0.0.1' }, { ...POLICY, maxEndpoints: 1 });
    expect((await addWebhook(h, alice, 'http://alice.test:9/one')).statusCode).toBe(200);
    const same = await addWebhook(h, alice, 'http://ALICE.test:9/./one');
    expect(same.statusCode, same.body).toBe(409);
    expect(same.json()).toMatchObject({ code: 'webhook-url-duplicate' });
    const over = await addWebhook(h, alice, `http://${STUCK[0]}/two`);
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json()).toMatchObject({ code: 'webhook-limit-reached', max: 1 });
    expect(dns.started).toEqual(['alice.test']);
  });

  it("delivers another account's message while one account's registration and sends wait for DNS (one gate for routes and sender), and records those attempts as DNS timeouts", async () => {
    const { h, dns, alice, bob, aliceId } = await service({ 'bob.test': '127.0.0.2' });
    // Alice's endpoints written as registered earlier, when their hosts still answered.
    for (const host of STUCK.slice(1, 3)) {
      const created = await h.store.webhooks.createEndpoint({ accountId: aliceId, url: `http://${host}/hook`, events: ['completed'], secret: 'whsec_dGVzdA==' }, 20);
      expect(created).toHaveProperty('id');
    }
    // Alice's registration takes her turn; the sender's two lookups of hers wait behind it.
    const registering = addWebhook(h, alice, `http://${STUCK[0]}/hook`);
    await until(() => dns.started.length > 0 || undefined, 5_000, "Alice's first lookup");
    expect((await insert(h, alice)).statusCode).toBe(200);
    const z = await receiver('127.0.0.2');
    const other = await addWebhook(h, bob, `http://bob.test:${z.port}/hook`);
    expect(other.statusCode, other.body).toBe(200);
    expect((await insert(h, bob)).statusCode).toBe(200);
    await z.waitFor(1, 10_000);
    expect((await registering).statusCode).toBe(503);
    const attempts = await until(async () => {
      const got = await h.store.webhooks.listAttempts(aliceId, { limit: 10 });
      return got.length >= 2 ? got : undefined;
    }, 10_000, "Alice's two attempts");
    for (const a of attempts) expect(a.error).toMatch(/^DNS timeout: host hang-[12]\.alice\.test /);
    expect(dns.started.filter((host) => host.endsWith('alice.test'))).toHaveLength(1);
  });
});
