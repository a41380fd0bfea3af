// Several service instances on one PostgreSQL (issue 13), in process: two apps, each with its own
// pool, on one schema. A long-poll on one instance wakes when the other inserts (LISTEN/NOTIFY),
// also after its listening connection was killed; and the database going away — every connection
// cut by a proxy, or killed with pg_terminate_backend — makes requests fail with 503
// `database-unavailable` meanwhile, then the service recovers by itself and loses nothing it
// answered 200. Runs in the `postgres` project only (vitest.config.ts).
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/server/auth/secrets.js';
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { harness, login, type Harness } from './helpers.js';

const open: Harness[] = [];
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.up();
  for (const h of open.splice(0).reverse()) await h.close();
  await proxy?.close();
  proxy = undefined;
});

async function instance(file?: string): Promise<Harness> {
  const h = await harness(file === undefined ? {} : { file });
  open.push(h);
  return h;
}

const schemaOf = (url: string) => new URL(url).searchParams.get('schema')!;

/** Runs one statement as a separate admin connection (not through any instance). */
async function admin<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const u = new URL(url);
  u.search = '';
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function terminalKey(h: Harness, terminalId: string): Promise<string> {
  const alice = (await h.store.accounts.findByEmail('alice@example.com'))!;
  const key = `bobt_test_${terminalId}`;
  await h.store.credentials.setTerminalKey(alice.id, terminalId, sha256(key), key.slice(0, 11));
  return key;
}

const insert = (h: Harness, token: string, referencia: string) =>
  h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${token}`, payload: { conteudo: `Olá ${referencia}<paperCutFull>`, terminalId: 'CAIXA-01', referencia } });
const next = (h: Harness, key: string, espera: number) =>
  h.app.inject({ method: 'POST', url: `/TerminalImpressao/ObterProxima?espera=${espera}`, headers: { authorization: `Bearer ${key}` } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('two instances on one PostgreSQL', () => {
  it("wake each other's long-polls: a job inserted on one is handed out by the other's waiting request", async () => {
    const a = await instance();
    const b = await instance(a.file);
    const token = (await login(a.app)).access_token;
    const key = await terminalKey(a, 'CAIXA-01');
    // Wait long: without a notice from A, B would answer empty only when the wait runs out.
    const waiting = next(b, key, 25);
    await sleep(300);
    const created = (await insert(a, token, 'wake')).json().intencaoImpressao;
    const res = await waiting;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ trabalho: { intencaoImpressaoId: created.id } });
  }, 30_000);

  it('keep waking each other after the listening connection was killed with pg_terminate_backend', async () => {
    const a = await instance();
    const b = await instance(a.file);
    const token = (await login(a.app)).access_token;
    const key = await terminalKey(a, 'CAIXA-01');
    const listening = () => admin<{ pid: number }>(a.file, "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND query LIKE $1", [`%${schemaOf(a.file)}%`]);
    await until(async () => (await listening()).length === 2, 10_000, 'both instances to listen');
    await admin(a.file, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND query LIKE $1", [`%${schemaOf(a.file)}%`]);
    await until(async () => (await listening()).length === 2, 15_000, 'both instances to listen again');
    const waiting = next(b, key, 25);
    await sleep(300);
    const created = (await insert(a, token, 'after-kill')).json().intencaoImpressao;
    expect((await waiting).json()).toMatchObject({ trabalho: { intencaoImpressaoId: created.id } });
  }, 45_000);
});

describe('the database going away', () => {
  /** Inserts in a loop until stopped; every answer is kept (status, body). */
  function load(h: Harness, token: string) {
    const answers: { status: number; body: string; retryAfter?: string; referencia: string }[] = [];
    let running = true;
    let n = 0;
    const done = (async () => {
      while (running) {
        const referencia = `load-${++n}`;
        const res = await insert(h, token, referencia);
        answers.push({ status: res.statusCode, body: res.body, retryAfter: res.headers['retry-after'] as string | undefined, referencia });
        if (res.statusCode !== 200) await sleep(20);
      }
    })();
    return { answers, stop: async () => { running = false; await done; } };
  }

  async function checkNothingLost(h: Harness, token: string, answers: { status: number; body: string; referencia: string }[]) {
    const accepted = answers.filter((a) => a.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    for (const a of answers) {
      expect([200, 503]).toContain(a.status);
      if (a.status === 503) expect(JSON.parse(a.body)).toMatchObject({ code: 'database-unavailable', requestId: expect.any(String) });
      expect(a.body).not.toMatch(/\s+at\s|password/i);
    }
    for (const a of accepted) {
      const id = JSON.parse(a.body).intencaoImpressao.id;
      const got = await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${token}&intencaoImpressaoId=${id}` });
      expect(got.statusCode).toBe(200);
      expect(got.json().intencaoImpressao.referencia).toBe(a.referencia);
    }
    const rows = await admin<{ referencia: string; n: string }>(h.file, `SELECT referencia, count(*) AS n FROM "${schemaOf(h.file)}".intentions GROUP BY referencia HAVING count(*) > 1`);
    expect(rows).toEqual([]);
  }

  it('answers 503 database-unavailable with Retry-After while it is unreachable, then recovers by itself, losing nothing answered 200', async () => {
    const seeded = await instance();
    const u = new URL(seeded.file);
    proxy = await tcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
    u.host = `127.0.0.1:${proxy.port}`;
    const h = await instance(u.toString());
    const token = (await login(h.app)).access_token;
    const traffic = load(h, token);
    await until(async () => traffic.answers.filter((a) => a.status === 200).length >= 5, 15_000, 'inserts before the outage');
    await proxy.down();
    await until(async () => traffic.answers.filter((a) => a.status === 503).length >= 3, 15_000, '503 answers during the outage');
    const outage = traffic.answers.find((a) => a.status === 503)!;
    expect(outage.retryAfter).toMatch(/^\d+$/);
    await proxy.up();
    const before = traffic.answers.length;
    await until(async () => traffic.answers.slice(before).filter((a) => a.status === 200).length >= 5, 20_000, 'inserts after the outage');
    await traffic.stop();
    await checkNothingLost(h, token, traffic.answers);
    expect(h.logs()).not.toMatch(/Error: .*\n\s+at /);
  }, 60_000);

  it("recovers after every one of its connections was killed with pg_terminate_backend under load", async () => {
    const h = await instance();
    const token = (await login(h.app)).access_token;
    const traffic = load(h, token);
    await until(async () => traffic.answers.filter((a) => a.status === 200).length >= 5, 15_000, 'inserts before the kill');
    const killed = await admin<{ pid: number }>(h.file, 'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = $1', ['bobina']);
    await admin(h.file, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY($1::int[])', [killed.map((k) => k.pid)]);
    const before = traffic.answers.length;
    await until(async () => traffic.answers.slice(before).filter((a) => a.status === 200).length >= 5, 20_000, 'inserts after the kill');
    await traffic.stop();
    await checkNothingLost(h, token, traffic.answers);
  }, 60_000);
});
