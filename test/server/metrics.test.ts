// GET /metrics and GET /health/ready, on the store under test: the exposition read back with a
// Prometheus text parser and its values checked against a known sequence of jobs (inserts, some
// printed through the terminal path, one failed, one webhook attempt); the series do not grow with
// jobs, accounts or terminals; the token guards the service's port; the metrics port answers and
// logs as the service's port does; readiness follows the database.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/secrets.js';
import { metricsServer } from '../../src/server/metrics/endpoint.js';
import type { ServiceMetrics } from '../../src/server/metrics/metrics.js';
import { prometheusMetrics } from '../../src/server/metrics/prometheus.js';
import { countCommitted } from '../../src/server/metrics/wiring.js';
import type { Principal } from '../../src/server/store/types.js';
import { webhookOutbox } from '../../src/server/webhooks/outbox.js';
import { webhookSender, type WebhookSender } from '../../src/server/webhooks/sender.js';
import { scrape } from '../support/prometheus.js';
import { STORE_KIND } from '../support/store-target.js';
import { ALICE, BOB, harness, login, type Harness } from './helpers.js';
import { startReceiver, until } from './webhook-receiver.js';

const TOKEN = 'metrics-token-for-the-tests-0123';
const LOCAL = { allowPrivate: true, httpHosts: ['127.0.0.1'] };

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** The service with metrics (no process metrics: they vary by themselves), its webhook sender counting attempts. */
async function measured(extra: Parameters<typeof harness>[0] = {}) {
  const metrics = prometheusMetrics({ processMetrics: false });
  let sender: WebhookSender | undefined;
  const h = await harness({
    metrics, metricsToken: TOKEN,
    withStore: (store) => {
      sender = webhookSender(store, { policy: LOCAL, pollMs: 20, timeoutMs: 2_000, onAttempt: metrics.webhookAttempt });
      return { jobEvents: webhookOutbox({ onEnqueued: sender.wake }), workers: [sender], webhookPolicy: LOCAL, wakeWebhooks: sender.wake };
    },
    ...extra,
  });
  open.push(h);
  return { h, metrics };
}

async function read(h: Harness) {
  const res = await h.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return scrape(res.body);
}

async function insert(h: Harness, key: string, terminalId: string) {
  const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'Pedido <b>7</b>', terminalId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().intencaoImpressao as { id: number };
}

/** A terminal's client, in process: takes its next job and reports it. */
async function print(h: Harness, who: Principal, estado: 'completed' | 'failed') {
  const offer = await h.app.jobs.terminal.next(who, 0);
  expect(offer).toBeDefined();
  const r = await h.app.jobs.terminal.report(who, { id: offer!.job.id, token: offer!.token, estado, ...(estado === 'failed' ? { motivos: ['media-empty'] } : {}) });
  expect(r.aceito).toBe(true);
}

describe('GET /metrics', { timeout: 30_000 }, () => {
  it('counts a known sequence of jobs: inserts, transitions, latencies, jobs by state, one webhook attempt', async () => {
    const { h } = await measured();
    const key = (await login(h.app)).access_token;
    const alice = (await h.store.accounts.findByEmail(ALICE.email))!.id;
    const caixa: Principal = { kind: 'terminal', accountId: alice, terminalId: 'CAIXA-01' };
    const receiver = await startReceiver();
    open.push(receiver);
    const hook = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: receiver.url, events: ['failed'] } });
    expect(hook.statusCode, hook.body).toBe(200);

    const before = await read(h);
    expect(before.value('bobina_jobs', { state: 'queued' })).toBe(0);
    // Five jobs; two printed, one failed (its webhook goes out), two left queued.
    for (let i = 0; i < 5; i++) await insert(h, key, 'CAIXA-01');
    await print(h, caixa, 'completed');
    await print(h, caixa, 'completed');
    await print(h, caixa, 'failed');
    await receiver.waitFor(1);
    await until(async () => (await read(h)).value('bobina_webhook_attempts_total', { outcome: 'delivered' }) === 1 || undefined, 5_000, 'the attempt counted');

    const m = await read(h);
    const transitions = (from: string, event: string, to: string) => m.value('bobina_job_transitions_total', { from, event, to });
    expect(transitions('new', 'insert-queued', 'queued')).toBe(5);
    expect(transitions('queued', 'acquire', 'acquired')).toBe(3);
    expect(transitions('acquired', 'completed', 'completed')).toBe(2);
    expect(transitions('acquired', 'failed', 'failed')).toBe(1);
    expect(transitions('printing', 'completed', 'completed')).toBe(0);
    expect(m.samples('bobina_job_transitions_total')!.reduce((n, s) => n + s.value, 0)).toBe(11);
    expect(m.value('bobina_jobs', { state: 'queued' })).toBe(2);
    expect(m.value('bobina_jobs', { state: 'acquired' })).toBe(0);
    expect(m.value('bobina_jobs', { state: 'completed' })).toBeUndefined();
    // Each state is counted up to a bound: a scrape reads at most that many rows per state.
    expect(await h.store.intentions.countByState(['queued', 'held', 'completed'], 1)).toEqual({ queued: 1, held: 0, completed: 1 });
    expect(m.value('bobina_insert_duration_seconds', { code: '2xx' })).toBe(5);
    expect(m.value('bobina_insert_duration_seconds', { code: '4xx' })).toBe(0);
    expect(m.value('bobina_compile_duration_seconds', { result: 'ok' })).toBe(5);
    expect(m.value('bobina_job_insert_to_completed_seconds')).toBe(2);
    expect(m.value('bobina_webhook_attempts_total', { outcome: 'delivered' })).toBe(1);
    expect(m.value('bobina_webhook_attempts_total', { outcome: 'pending' })).toBe(0);
    // Nothing waits in the outbox once that one is delivered.
    expect(m.value('bobina_webhook_messages', { state: 'pending' })).toBe(0);
    expect(m.value('bobina_webhook_messages', { state: 'held' })).toBe(0);
    expect(m.value('bobina_webhook_oldest_due_seconds')).toBe(0);
    // The database's connections: SQLite has one; the pg pool ten at most.
    expect(m.value('bobina_db_connections_max')).toBe(STORE_KIND === 'sqlite' ? 1 : 10);
    // How many are busy or waiting depends on what runs at the moment (the scrape's own query, the webhook sender's poll).
    expect(m.value('bobina_db_waiting')).toBeGreaterThanOrEqual(0);
    expect(m.value('bobina_db_connections', { state: 'busy' })! + m.value('bobina_db_connections', { state: 'idle' })!).toBeLessThanOrEqual(STORE_KIND === 'sqlite' ? 1 : 10);
    // Histograms are cumulative: every Insert took less than +Inf, and the sums are times.
    expect(m.bucket('bobina_insert_duration_seconds', { code: '2xx' }, '+Inf')).toBe(5);
    expect(m.sum('bobina_insert_duration_seconds', { code: '2xx' })).toBeGreaterThan(0);
    expect(m.families.find((f) => f.name === 'bobina_insert_duration_seconds')!.type).toBe('histogram');
    // An Insert refused before compiling is timed under its class, and compiles nothing.
    const bad = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'x' } });
    expect(bad.statusCode).toBe(400);
    const after = await read(h);
    expect(after.value('bobina_insert_duration_seconds', { code: '4xx' })).toBe(1);
    expect(after.value('bobina_compile_duration_seconds', { result: 'ok' })).toBe(5);
  });

  it('shows a stalled outbox: messages pending and held, and how long the longest-due one has waited', async () => {
    // A sender that never runs: what the service queues stays due.
    const metrics = prometheusMetrics({ processMetrics: false });
    const h = await harness({ metrics, metricsToken: TOKEN, withStore: () => ({ jobEvents: webhookOutbox(), webhookPolicy: LOCAL }) });
    open.push(h);
    const key = (await login(h.app)).access_token;
    const alice = (await h.store.accounts.findByEmail(ALICE.email))!.id;
    const add = async (url: string) => (await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url, events: ['completed'] } })).json().webhook.id as string;
    await add('http://127.0.0.1:9/a');
    const paused = await add('http://127.0.0.1:9/b');
    expect((await read(h)).value('bobina_webhook_oldest_due_seconds')).toBe(0);
    for (let i = 0; i < 3; i++) {
      const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'x', codigoImpressora: 'GENERICA' } });
      expect(res.statusCode, res.body).toBe(200);
    }
    // One endpoint's three are held: not due, and not counted as waiting to be sent.
    expect(await h.store.webhooks.setEnabled(alice, paused, false, 'operator')).toBe(true);
    await new Promise((r) => setTimeout(r, 1_100));
    const m = await read(h);
    expect(m.value('bobina_webhook_messages', { state: 'pending' })).toBe(3);
    expect(m.value('bobina_webhook_messages', { state: 'held' })).toBe(3);
    expect(m.value('bobina_webhook_oldest_due_seconds')).toBeGreaterThanOrEqual(1);
    // Counted up to a bound: a scrape reads at most that many rows per state.
    expect(await h.store.webhooks.backlog(new Date(), 2)).toMatchObject({ pending: 2, held: 2 });
  });

  it("has the fleet gauges from the store's fleet counts (buildApp wires them), or any provider set, with unknown printer reasons counted as other", async () => {
    const { h, metrics } = await measured();
    const m = await read(h);
    // The seeded accounts' three enabled terminals, none heard from yet.
    expect(m.value('bobina_terminals', { state: 'online' })).toBe(0);
    expect(m.value('bobina_terminals', { state: 'offline' })).toBe(3);
    expect(m.value('bobina_printers', { reason: 'media-empty' })).toBe(0);
    metrics.setFleetCounts(async () => ({ online: 3, offline: 1, printersByReason: { 'media-empty': 2, 'cover-open': 1, 'made-up': 4 } }));
    const f = await read(h);
    expect(f.value('bobina_terminals', { state: 'online' })).toBe(3);
    expect(f.value('bobina_terminals', { state: 'offline' })).toBe(1);
    expect(f.value('bobina_printers', { reason: 'media-empty' })).toBe(2);
    expect(f.value('bobina_printers', { reason: 'other' })).toBe(4);
    expect(f.value('bobina_printers', { reason: 'media-low' })).toBe(0);
    expect(f.value('bobina_printers', { reason: 'made-up' })).toBeUndefined();
    // A provider that fails leaves them out of that scrape, and is counted (seen from the next scrape on:
    // a scrape collects its families at once).
    metrics.setFleetCounts(async () => {
      throw new Error('fleet query failed');
    });
    const failed = await read(h);
    expect(failed.samples('bobina_terminals')).toEqual([]);
    expect(failed.samples('bobina_printers')).toEqual([]);
    expect((await read(h)).value('bobina_metrics_read_errors_total', { gauge: 'fleet' })).toBeGreaterThanOrEqual(1);
  });

  it('keeps the same series after 200 jobs from 3 accounts on 4 terminals, and no label names an account, job or terminal', async () => {
    const { h } = await measured();
    const carol = await h.store.accounts.create({ email: 'carol@example.com', name: 'Carol', passwordHash: await hashPassword('carol-secret-pw'), metadata: [], roles: [] });
    await h.store.terminals.put({ accountId: carol.id, terminalId: 'CAROL-01', printerId: 1, enabled: true });
    const keys = [
      { key: (await login(h.app, ALICE)).access_token, terminals: ['CAIXA-01', 'ANDROID'] },
      { key: (await login(h.app, BOB)).access_token, terminals: ['BOB-01'] },
      { key: (await login(h.app, { email: 'carol@example.com', password: 'carol-secret-pw' })).access_token, terminals: ['CAROL-01'] },
    ];
    // One of each kind first (queued, completed at insert, printed, failed): every series exists from the start anyway.
    const first = await read(h);
    const ids: number[] = [];
    // Ten at a time, as several clients would send them.
    for (let batch = 0; batch < 20; batch++) {
      ids.push(...(await Promise.all(Array.from({ length: 10 }, async (_, j) => {
        const i = batch * 10 + j;
        const { key, terminals } = keys[i % 3]!;
        return (await insert(h, key, terminals[i % terminals.length]!)).id;
      }))));
    }
    const alice = (await h.store.accounts.findByEmail(ALICE.email))!.id;
    for (let i = 0; i < 5; i++) await print(h, { kind: 'terminal', accountId: alice, terminalId: 'CAIXA-01' }, i % 2 ? 'failed' : 'completed');
    const later = await read(h);
    expect(later.series).toBe(first.series);
    expect(later.value('bobina_insert_duration_seconds', { code: '2xx' })).toBe(200);
    const labelValues = later.families.flatMap((f) => f.samples.flatMap((s) => Object.entries(s.labels).filter(([k]) => k !== 'le').map(([, v]) => v)));
    const named = [alice, carol.id, (await h.store.accounts.findByEmail(BOB.email))!.id, 'CAIXA-01', 'ANDROID', 'BOB-01', 'CAROL-01', ...ids.map(String)];
    expect(labelValues.filter((v) => named.includes(v))).toEqual([]);
  });

  it('counts a state change only once its transaction commits', async () => {
    const { h } = await measured({ metrics: undefined, metricsToken: undefined });
    const heard: string[] = [];
    const metrics = { transitioned: (t) => heard.push(`${t.from} ${t.event} ${t.to}`) } as Partial<ServiceMetrics> as ServiceMetrics;
    const counted = countCommitted(h.store, async () => {}, metrics);
    const event = {
      accountId: 'a', intencaoImpressaoId: 1, referencia: null, status: 'Cancelado', estado: 'canceled', motivos: [], confirmacao: 'none', sequence: 2,
      at: new Date(), evento: 'cancel', from: 'queued', createdAt: new Date(),
    } as const;
    await expect(counted.store.transaction(async (tx) => {
      await counted.sink(tx, { ...event, motivos: [] });
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(heard).toEqual([]);
    await counted.store.transaction(async (tx) => {
      await counted.sink(tx, { ...event, motivos: [] });
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(['queued cancel canceled']);
  });
});

describe('who may read /metrics on the service port', { timeout: 30_000 }, () => {
  it('answers 401 with a problem body without the token or with a wrong one, 200 with it', async () => {
    const { h } = await measured();
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const res = await h.app.inject({ url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized', requestId: expect.any(String) });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('bobina_');
    }
    expect((await h.app.inject({ url: '/metrics', headers: { authorization: `bearer ${TOKEN}` } })).statusCode).toBe(200);
    // The token is never logged.
    expect(h.logs()).not.toContain(TOKEN);
  });

  it('is 404 on the service port when no token is configured, with or without metrics', async () => {
    const { h } = await measured({ metricsToken: undefined });
    const res = await h.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('route-not-found');
    const plain = await harness();
    open.push(plain);
    expect((await plain.app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
});

describe('the metrics port', { timeout: 30_000 }, () => {
  /** One raw request on a fresh connection, read until the server closes it (bounded in time). */
  const exchange = (port: number, raw: string) => new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('no answer within 5 s')); }, 5000);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => { clearTimeout(timer); resolve(Buffer.concat(chunks).toString('utf8')); });
    socket.write(raw);
  });

  it('answers with the service port\'s request ids and security headers, and logs each request as it does, without a token or key', async () => {
    const { h, metrics } = await measured();
    const exposed = await metricsServer(metrics, 0, h.app.log);
    open.push(exposed);
    const policy = (await h.app.inject({ url: '/health' })).headers;
    const secret = 'key-in-a-metrics-url-0123456789';
    for (const [path, status] of [[`/metrics?key=${secret}`, 200], ['/health', 404]] as const) {
      const res = await fetch(`${exposed.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status, path).toBe(status);
      for (const name of ['x-content-type-options', 'referrer-policy', 'x-frame-options', 'content-security-policy']) {
        expect(res.headers.get(name), `${path} ${name}`).toBe(policy[name]);
      }
      const id = res.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await res.arrayBuffer();
      // Its request lines, like the service port's: marked as the metrics server's, with the path and its query redacted.
      const lines = h.logs().split('\n').filter((l) => l.includes(id)).map((l) => JSON.parse(l) as { server?: string; msg: string; req?: { url: string } });
      expect(lines.map((l) => l.msg), path).toEqual(['incoming request', 'request completed']);
      expect(lines.every((l) => l.server === 'metrics')).toBe(true);
      expect(lines[0]!.req!.url).toBe(path.replace(secret, '[REDACTED]'));
    }
    // A path the router cannot decode: the same problem body and headers (http-policy.ts frameworkErrors).
    const bad = await fetch(`${exposed.url}/%ZZ`);
    expect(bad.status).toBe(400);
    const problem = await bad.json() as { code: string; requestId: string };
    expect(problem.code).toBe('malformed-request');
    expect(bad.headers.get('x-request-id')).toBe(problem.requestId);
    for (const name of ['x-content-type-options', 'referrer-policy', 'x-frame-options', 'content-security-policy']) expect(bad.headers.get(name), name).toBe(policy[name]);
    // A request the HTTP parser refuses: the JSON problem with the same headers, logged by its id.
    const raw = await exchange(Number(new URL(exposed.url).port), `GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nBad Header: y\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('x-content-type-options: nosniff\r\n');
    const requestId = /x-request-id: ([0-9a-f-]{36})/.exec(raw)![1]!;
    expect(h.logs()).toContain(requestId);
    expect(h.logs()).not.toContain(TOKEN);
    expect(h.logs()).not.toContain(secret);
  });
});

describe('GET /health/ready', { timeout: 30_000 }, () => {
  it('is ready while the database answers, and 503 database-unavailable once it does not; /health stays 200', async () => {
    const h = await harness();
    open.push({ close: async () => h.close().catch(() => undefined) });
    const ready = await h.app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'ok' });
    await h.store.close();
    const down = await h.app.inject({ url: '/health/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('1');
    expect(down.json()).toEqual({ message: 'The database is unavailable; retry shortly', code: 'database-unavailable', requestId: expect.any(String) });
    expect((await h.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
  });
});

describe.runIf(STORE_KIND === 'postgres')('GET /health/ready on PostgreSQL', { timeout: 60_000 }, () => {
  it('is 503 once the database the pool points at is dropped, while /health stays 200', async () => {
    const { PG_BASE_URL } = await import('../support/postgres.js');
    const { openPostgresStore } = await import('../../src/server/store/postgres.js');
    const { buildApp } = await import('../../src/server/app.js');
    const pg = (await import('pg')).default;
    const name = `bobina_ready_${Math.random().toString(16).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: PG_BASE_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(PG_BASE_URL);
      url.pathname = `/${name}`;
      const store = await openPostgresStore(url.toString(), { connectTimeoutMs: 2_000 });
      const app = await buildApp({ store, logLevel: 'silent' });
      try {
        expect((await app.inject({ url: '/health/ready' })).statusCode).toBe(200);
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
        const down = await app.inject({ url: '/health/ready' });
        expect(down.statusCode).toBe(503);
        expect(down.json().code).toBe('database-unavailable');
        expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
      } finally {
        await app.close();
        await store.close();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  });
});
