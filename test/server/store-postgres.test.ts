// What the PostgreSQL store promises beyond the shared contract (store.test.ts): several
// instances on one schema (two pools here, as two processes would have) start together, never
// lease one job or one webhook message twice, and share login counters; a database that cannot
// be reached is a StoreUnavailableError that names no password, never a raw driver error.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/server/store/postgres.js';
import { POSTGRES_MIGRATIONS } from '../../src/server/store/postgres-migrations.js';
import type { Store } from '../../src/server/store/repositories.js';
import { StoreUnavailableError, type ClaimRoute, type InsertAnswer, type JobPatch, type NewIntention, type WebhookEndpoint } from '../../src/server/store/types.js';
import { freePort } from '../support/net.js';
import { dropSchema, freshSchemaUrl, PG_BASE_URL } from '../support/postgres.js';


describe('the PostgreSQL store across instances', () => {
  let url: string;
  let a: Store;
  let b: Store;
  let accountId: string;

  beforeAll(async () => {
    url = freshSchemaUrl();
    // Two instances starting together on a schema that does not exist yet.
    [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    accountId = (await a.accounts.create({ email: 'ana@example.com', name: 'Ana', passwordHash: 'h', metadata: [], roles: [] })).id;
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await dropSchema(url);
  }, 30_000);

  const draft = (terminalId: string, n: number): NewIntention => ({
    accountId, referencia: `r${n}`, conteudo: 'x', terminalId, impressoraId: 1, codigoImpressora: 'MAKER1MP4200',
    aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada', bytes: new Uint8Array([n & 0xff]), diagnostics: [], createdAt: new Date(),
  });

  it('both start on a fresh schema, and each migration is applied once', async () => {
    const client = new pg.Client({ connectionString: PG_BASE_URL });
    await client.connect();
    try {
      const schema = new URL(url).searchParams.get('schema');
      const { rows } = await client.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
      expect(rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    } finally {
      await client.end();
    }
    // …and each sees what the other wrote.
    expect((await b.accounts.findById(accountId))?.email).toBe('ana@example.com');
  });

  it('hands each of 50 jobs to exactly one of 4 concurrent claimers on two instances', async () => {
    for (let n = 0; n < 50; n++) await a.intentions.insert(draft('T-CLAIM', n));
    const route: ClaimRoute = { accountId, terminalId: 'T-CLAIM', templateJobs: false, printerId: null };
    const claimer = async (store: Store): Promise<number[]> => {
      const taken: number[] = [];
      for (;;) {
        const patch: JobPatch = { estado: 'acquired', status: 'ImpressaoEnviada', leasedTo: 'T-CLAIM', leaseToken: randomUUID(), leaseExpiresAt: new Date(Date.now() + 60_000) };
        const job = await store.intentions.claim(route, ['queued'], patch);
        if (!job) return taken;
        expect(job.leaseToken).toBe(patch.leaseToken);
        taken.push(job.id);
      }
    };
    const results = await Promise.all([claimer(a), claimer(b), claimer(a), claimer(b)]);
    const all = results.flat();
    expect(all).toHaveLength(50);
    expect(new Set(all).size).toBe(50);
    // Every job was left acquired by the claim that took it, and none is still queued.
    expect(await a.intentions.listForRoute(route, ['queued'])).toEqual([]);
    expect(await a.intentions.listForRoute(route, ['acquired'])).toHaveLength(50);
  }, 60_000);

  /**
   * Six senders, three on each instance, claim 5 at a time (one in flight per target) until a claim
   * takes none: no message is taken twice, each of the 40 other targets' is taken, and one of the
   * `crowd` (all to one target).
   */
  const expectEachTakenOnce = async (crowd: ReadonlyArray<{ id: string }>) => {
    const sender = async (store: Store) => {
      const taken: string[] = [];
      for (;;) {
        const t = new Date();
        const claimed = await store.webhooks.claimDue(t, new Date(t.getTime() + 60_000), 5, 1, 100);
        if (claimed.length === 0) return taken;
        taken.push(...claimed.map((m) => m.id));
      }
    };
    const all = (await Promise.all([sender(a), sender(b), sender(a), sender(b), sender(a), sender(b)])).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(41);
    expect(all.filter((id) => crowd.some((m) => m.id === id))).toHaveLength(1);
  };

  it('never hands one webhook message to two senders, nor more than perTarget of one target at once', async () => {
    const now = new Date();
    const messages = Array.from({ length: 40 }, (_, n) => ({
      id: `msg_${randomUUID()}`, accountId, endpointId: null, url: `https://r${n}.example/`, target: `origin:https://r${n}.example`, eventType: 'intencao.completed',
      intencaoImpressaoId: n + 1, body: '{}', createdAt: now,
    }));
    // Ten more to one target, queued first so that every sender's first claim reaches for them: at
    // most one of them may be in flight.
    const crowd = Array.from({ length: 10 }, (_, n) => ({ ...messages[0]!, id: `msg_${randomUUID()}`, url: 'https://one.example/', target: 'origin:https://one.example', intencaoImpressaoId: 100 + n }));
    await a.webhooks.enqueue([...crowd, ...messages]);
    await expectEachTakenOnce(crowd);
  }, 60_000);

  it('…nor when the longest due, more than a claim first looks at, are all of one target at its limit (found target by target)', async () => {
    const now = new Date();
    const message = (n: number, host: string) => ({
      id: `msg_${randomUUID()}`, accountId, endpointId: null, url: `https://${host}/`, target: `origin:https://${host}`, eventType: 'intencao.completed',
      intencaoImpressaoId: n + 1, body: '{}', createdAt: new Date(now.getTime() - 10_000 + n),
    });
    // Receivers of their own: the test before left its messages in flight.
    const crowd = Array.from({ length: 1_100 }, (_, n) => message(n, 'crowd.example'));
    for (let i = 0; i < crowd.length; i += 500) await a.webhooks.enqueue(crowd.slice(i, i + 500));
    await a.webhooks.enqueue(Array.from({ length: 40 }, (_, n) => message(2_000 + n, `s${n}.example`)));
    await expectEachTakenOnce(crowd);
  }, 60_000);

  it('claims while another instance disables and enables an endpoint with many pending messages, and neither waits on the other into a deadlock', async () => {
    const e = await a.webhooks.createEndpoint({ accountId, url: 'https://toggled.example/hook', events: ['completed'], secret: 's1' }, 20) as WebhookEndpoint;
    const rows = Array.from({ length: 3_000 }, (_, n) => ({
      id: `msg_${randomUUID()}`, accountId, endpointId: e.id, url: e.url, target: 'origin:https://toggled.example', eventType: 'intencao.completed',
      intencaoImpressaoId: 1, body: '{}', createdAt: new Date(1_000 + ((n * 7919) % 3_000)),
    }));
    for (let i = 0; i < rows.length; i += 500) await a.webhooks.enqueue(rows.slice(i, i + 500));
    const errors: string[] = [];
    const until = Date.now() + 4_000;
    let t = 100_000;
    let claims = 0;
    const claimer = async () => {
      for (; Date.now() < until; claims++) {
        t += 10;
        await a.webhooks.claimDue(new Date(t), new Date(t + 5), 64, 4, 64).catch((err: Error) => errors.push(`claim: ${err.message}`));
      }
    };
    const toggler = async () => {
      for (let on = false; Date.now() < until; on = !on) await b.webhooks.setEnabled(accountId, e.id, on, 'x').catch((err: Error) => errors.push(`toggle: ${err.message}`));
    };
    await Promise.all([claimer(), toggler()]);
    expect(errors).toEqual([]);
    expect(claims).toBeGreaterThan(0);
    // Its messages end dead, out of the next tests' claims.
    expect(await b.webhooks.removeEndpoint(accountId, e.id)).toBe(true);
  }, 60_000);

  it('records an attempt only under the lease it was claimed with', async () => {
    const t = new Date();
    await a.webhooks.enqueue([{ id: 'msg_lease', accountId, endpointId: null, url: 'https://lease.example/', target: 'origin:https://lease.example', eventType: 'intencao.failed', intencaoImpressaoId: 7, body: '{}', createdAt: t }]);
    const [m] = await b.webhooks.claimDue(t, new Date(t.getTime() + 1000), 10, 1, 100);
    expect(m?.id).toBe('msg_lease');
    const stale = { ...m!, leaseUntil: new Date(m!.leaseUntil.getTime() - 1) };
    expect(await a.webhooks.recordAttempt(stale, { at: t, statusCode: 500, latencyMs: 3, error: null }, { state: 'dead' })).toBe(false);
    expect(await a.webhooks.recordAttempt(m!, { at: t, statusCode: 200, latencyMs: 4, error: null }, { state: 'delivered' })).toBe(true);
    expect((await b.webhooks.getMessage(accountId, 'msg_lease'))).toMatchObject({ state: 'delivered', attempts: 1, deliveredAt: t, lastError: null });
    // Both attempts are kept (the first was made, even though its lease had been lost).
    expect((await b.webhooks.listAttempts(accountId, { messageId: 'msg_lease', limit: 10 })).map((x) => x.statusCode)).toEqual([200, 500]);
  });

  it('shows in GetLog an attempt an instance of an earlier version recorded during a rolling upgrade (without its account and endpoint)', async () => {
    const e = await a.webhooks.createEndpoint({ accountId, url: 'https://rolling.example/hook', events: ['completed'], secret: 's1' }, 20) as WebhookEndpoint;
    await a.webhooks.enqueue([{ id: 'msg_rolling', accountId, endpointId: e.id, url: e.url, target: 'origin:https://rolling.example', eventType: 'intencao.completed', intencaoImpressaoId: 9, body: '{}', createdAt: new Date() }]);
    // The INSERT of the version before migration 13, as such an instance sends it.
    const client = new pg.Client({ connectionString: PG_BASE_URL });
    await client.connect();
    try {
      const schema = new URL(url).searchParams.get('schema');
      await client.query(`INSERT INTO "${schema}".webhook_attempts (message_seq, at, status_code, latency_ms, error)
        SELECT seq, 1000, 204, 5, NULL FROM "${schema}".webhook_messages WHERE id = 'msg_rolling'`);
    } finally {
      await client.end();
    }
    const ids = async (f: { endpointId?: string }) => (await b.webhooks.listAttempts(accountId, { ...f, limit: 500 })).map((x) => x.messageId);
    expect(await ids({})).toContain('msg_rolling');
    expect(await ids({ endpointId: e.id })).toEqual(['msg_rolling']);
    expect(await b.webhooks.removeEndpoint(accountId, e.id)).toBe(true);
  });

  it('shares login counters between instances: 40 concurrent failures count 1…40', async () => {
    const now = new Date();
    const hits = await Promise.all(Array.from({ length: 40 }, (_, n) => (n % 2 ? a : b).loginAttempts.hit(['shared-key'], now, 60_000)));
    expect(hits.map(([c]) => c!.failures).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, n) => n + 1));
  });

  it('keeps an account at its session cap under 40 concurrent logins on two instances, none of them failing', async () => {
    const user = (await a.accounts.create({ email: 'sessions@example.com', name: 'S', passwordHash: 'h', metadata: [], roles: [] })).id;
    const limits = { sessions: 3, tokensPerSession: 10 };
    const pair = (n: number) => ({ accessHash: `sa${n}`, refreshHash: `sr${n}`, accessExpiresAt: new Date(Date.now() + 60_000), refreshExpiresAt: new Date(Date.now() + 120_000 + n), family: `sf${n}` });
    for (let n = 0; n < 3; n++) await a.credentials.storeTokens(user, pair(n), limits);
    // Each login revokes a family another may be revoking at the same time: they take turns, never deadlock.
    const logins = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).credentials.storeTokens(user, pair(3 + i), limits)));
    expect(logins.filter((r) => r.status === 'rejected')).toEqual([]);
    // Exactly the cap's sessions are left: an access and a refresh token each.
    expect(await a.credentials.revokeTokens(user)).toBe(2 * limits.sessions);
  });

  it('never deadlocks a refresh with a login that revokes the refreshed session: the refresh takes the account\'s lock before the token\'s row', async () => {
    const user = (await a.accounts.create({ email: 'refresh-login@example.com', name: 'R', passwordHash: 'h', metadata: [], roles: [] })).id;
    const limits = { sessions: 2, tokensPerSession: 10 };
    const pair = (family: string, n: number) => ({ accessHash: `rla-${family}-${n}`, refreshHash: `rlr-${family}-${n}`, accessExpiresAt: new Date(Date.now() + 60_000), refreshExpiresAt: new Date(Date.now() + 120_000 + n), family });
    // F1 is the older session: the one a login past the cap revokes.
    await a.credentials.storeTokens(user, pair('rl-f1', 0), limits);
    await a.credentials.storeTokens(user, pair('rl-f2', 1), limits);
    let taken!: () => void;
    const tookIt = new Promise<void>((resolve) => (taken = resolve));
    let go!: () => void;
    const gate = new Promise<void>((resolve) => (go = resolve));
    const refresh = b.transaction(async (tx) => {
      expect(await tx.credentials.takeRefreshToken('rlr-rl-f1-0', new Date(), 'f-new')).toEqual({ accountId: user, family: 'rl-f1' });
      taken();
      await gate;
      await tx.credentials.storeTokens(user, pair('rl-f1', 2), limits);
    });
    await tookIt;
    const login = a.credentials.storeTokens(user, pair('rl-f3', 3), limits);
    // The refresh goes on once the login waits (for the account's lock; before, for F1's row, while holding that lock).
    const client = new pg.Client({ connectionString: PG_BASE_URL });
    await client.connect();
    try {
      for (let i = 0; i < 100; i++) {
        const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'
          AND (query LIKE '%1651466867%' OR query LIKE '%refresh_tokens%')`);
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await client.end();
    }
    go();
    const [refreshed, loggedIn] = await Promise.allSettled([refresh, login]);
    expect([refreshed.status, loggedIn.status]).toEqual(['fulfilled', 'fulfilled']);
    // The login came after the refresh: the rotated F1 is the newest session, and the login revoked F2.
    expect(await a.credentials.authenticate('rla-rl-f1-2', new Date())).toBeDefined();
    expect(await a.credentials.authenticate('rla-rl-f2-1', new Date())).toBeUndefined();
  });

  it('makes a second transaction with the same Idempotency-Key wait, then find the first one\'s answer', async () => {
    const key = `idem-${randomUUID()}`;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let found!: () => void;
    const firstLooked = new Promise<void>((r) => (found = r));
    let answer!: InsertAnswer;
    const first = a.transaction(async (tx) => {
      expect(await tx.intentions.findIdempotent(accountId, key)).toBeUndefined();
      found();
      await held;
      const { bytes, ...job } = await tx.intentions.insert(draft('T-IDEM', 1));
      answer = { job: { ...job, size: bytes.length }, history: [], at: new Date() };
      await tx.intentions.saveIdempotent(accountId, key, { requestHash: 'h1', statusCode: 200, intentionId: job.id, answer });
    });
    await firstLooked;
    let secondSaw: unknown = 'not yet';
    const second = b.transaction(async (tx) => {
      secondSaw = await tx.intentions.findIdempotent(accountId, key);
    });
    // The second waits on the key while the first holds it (no wall-time assertion: it is still waiting).
    await new Promise((r) => setTimeout(r, 200));
    expect(secondSaw).toBe('not yet');
    release();
    await Promise.all([first, second]);
    expect(secondSaw).toEqual({ requestHash: 'h1', statusCode: 200, intentionId: answer.job.id, answer, body: null });
  }, 30_000);

  it('numbers history rows one after another under concurrent appends', async () => {
    const job = await a.intentions.insert(draft('T-HIST', 1));
    const at = new Date();
    await Promise.all(Array.from({ length: 20 }, (_, n) => (n % 2 ? a : b).intentions.appendHistory(job.id, { estado: 'queued', evento: 'insert', motivos: [], origem: 'server', detalhe: null, at })));
    expect((await a.intentions.history(accountId, job.id)).map((h) => h.seq)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
  });
});

describe('the PostgreSQL store when the database is out of reach', () => {
  it('refuses to open on a port nothing listens on with StoreUnavailableError, naming no password', async () => {
    const port = await freePort();
    const err = await openPostgresStore(`postgres://postgres:s3cret-pw@127.0.0.1:${port}/test?schema=bobina_t_unreachable`, { connectTimeoutMs: 2000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).name).toBe('StoreUnavailableError');
    expect((err as Error).message).toMatch(/database unavailable/);
    expect((err as Error).message).not.toContain('s3cret-pw');
  }, 30_000);

  it('reports a statement that runs past the timeout as StoreUnavailableError (statement timeout)', async () => {
    const url = freshSchemaUrl();
    const store = await openPostgresStore(url, { statementTimeoutMs: 300 });
    const holder = new pg.Client({ connectionString: PG_BASE_URL });
    await holder.connect();
    try {
      const accountId = (await store.accounts.create({ email: 't@example.com', name: 'T', passwordHash: 'h', metadata: [], roles: [] })).id;
      // Another session holds the Idempotency-Key's lock: findIdempotent in a transaction waits for it, past the timeout.
      await holder.query('BEGIN');
      await holder.query("SELECT pg_advisory_xact_lock(hashtextextended('bobina-idempotency' || chr(10) || $1 || chr(10) || $2, 0))", [accountId, 'k']);
      const err = await store.transaction((tx) => tx.intentions.findIdempotent(accountId, 'k')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as Error).message).toMatch(/statement timeout/);
      await holder.query('ROLLBACK');
      // The pool carries on.
      expect(await store.intentions.findIdempotent(accountId, 'k')).toBeUndefined();
    } finally {
      await holder.end();
      await store.close();
      await dropSchema(url);
    }
  }, 30_000);

  it('survives its connections being killed by the server, and reconnects on the next call', async () => {
    const url = freshSchemaUrl();
    const schema = new URL(url).searchParams.get('schema')!;
    const idle: Error[] = [];
    // Named, so that only this store's connections are killed (other test runs share the server).
    const store = await openPostgresStore(`${url}&application_name=${schema}`, { onIdleError: (e) => idle.push(e) });
    const admin = new pg.Client({ connectionString: PG_BASE_URL });
    await admin.connect();
    try {
      await store.accounts.list();
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [schema]);
      expect(killed.rowCount).toBeGreaterThan(0);
      // The pool hears of its idle clients dying (not the process), and the next call gets a new connection.
      await expect.poll(() => idle.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(idle[0]).toBeInstanceOf(StoreUnavailableError);
      expect(await store.accounts.list()).toEqual([]);
    } finally {
      await admin.end();
      await store.close();
      await dropSchema(url);
    }
  }, 30_000);
});
