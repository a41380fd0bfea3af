// The store interface on the store this run tests (vitest.config.ts runs it in both projects:
// SQLite, PostgreSQL): transaction(fn) commits or rolls back as one, nothing else runs inside an
// open transaction, the store's own repositories are refused inside one, and the repositories
// return domain values. SQLite's file upgrade is SQLite-only; the PostgreSQL store's
// multi-instance guarantees are test/server/store-postgres.test.ts.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_LIMITS } from '../../src/server/auth/tokens.js';
import { recordIgnored } from '../../src/server/jobs/lifecycle.js';
import type { Store } from '../../src/server/store/repositories.js';
import { openSqliteStore } from '../../src/server/store/sqlite.js';
import { migrate } from '../../src/server/store/sqlite/migrate.js';
import { SQLITE_MIGRATIONS } from '../../src/server/store/sqlite-migrations.js';
import { DuplicateError, type InsertAnswer, type Intention, type NewIntention, type WebhookEndpoint } from '../../src/server/store/types.js';
import { rawStatement } from '../support/raw-statement.js';
import { freshDatabase, STORE_KIND, type StoreKind, type TestDatabase } from '../support/store-target.js';

let database: TestDatabase;
let store: Store;
let accountId: string;

const draft = (referencia: string): NewIntention => ({
  accountId, referencia, conteudo: 'x', terminalId: null, impressoraId: 1, codigoImpressora: 'MAKER1MP4200',
  aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada', bytes: new Uint8Array([0x1b, 0x40]), diagnostics: [], createdAt: new Date(),
});

/** What an Insert's answer is made from, for a job: with a history row carrying free text, and a fixed time. */
const answerFor = ({ bytes, ...job }: Intention, detalhe: string | null = null): InsertAnswer => ({
  job: { ...job, size: bytes.length },
  history: [{ seq: 1, estado: job.estado, evento: 'insert', motivos: ['no-route'], origem: 'server', detalhe, at: new Date(1_700_000_000_123) }],
  at: new Date(1_700_000_000_456),
});

describe(`the ${STORE_KIND} store`, () => {
  const kind = STORE_KIND;
  beforeEach(async () => {
    database = await freshDatabase('bobina-store-');
    store = await database.open();
    accountId = (await store.accounts.create({ email: 'Ana@Example.com', name: 'Ana', passwordHash: 'h', metadata: [], roles: [] })).id;
  }, 30_000);
  afterEach(async () => {
    await store.close();
    await database.drop();
  }, 30_000);
  const both = it;
  /** A test of one backend only: not defined at all on the other (so not reported as skipped). */
  const only = (k: StoreKind) => (k === kind ? it : (() => undefined) as unknown as typeof it);
  const sqliteOnly = only('sqlite');
  const postgresOnly = only('postgres');

  both("writes many terminals' contacts in one go, passing over those that say something new or come late", async () => {
    const t = (terminalId: string) => ({ accountId, terminalId });
    for (const id of ['A', 'B', 'C', 'D', 'E']) await store.terminals.put({ ...t(id), printerId: 5, enabled: true });
    const at0 = new Date(1_700_000_000_000);
    const ready = { ready: true, reasons: [] as string[] };
    for (const id of ['A', 'B', 'C', 'D']) await store.terminals.recordContact({ ...t(id), at: at0, agentVersion: '1', printer: ready });
    expect(await store.terminals.markOffline(at0, 10)).toHaveLength(4);
    for (const id of ['A', 'B', 'C']) await store.terminals.recordContact({ ...t(id), at: new Date(at0.getTime() + 10), agentVersion: '1', printer: ready });
    const at1 = new Date(at0.getTime() + 1000);
    const contacts = [
      { ...t('A'), at: at1, agentVersion: '2', printer: ready }, // online, same reasons: written
      { ...t('B'), at: at1 }, // nothing said of the printer: written, the printer as it was
      { ...t('C'), at: at1, printer: { ready: false, reasons: ['media-empty'] } }, // other reasons: left for recordContact
      { ...t('D'), at: at1, printer: ready }, // swept offline: left for recordContact
      { ...t('E'), at: at1 }, // never heard from: left for recordContact
    ];
    const missed = await store.terminals.touchContacts(contacts);
    expect(missed.map((c) => c.terminalId)).toEqual(['C', 'D', 'E']);
    const health = new Map((await store.terminals.health({ accountId })).map((h) => [h.terminalId, h]));
    expect(health.get('A')).toMatchObject({ lastSeenAt: at1, agentVersion: '2', printer: { ready: true, reasons: [], checkedAt: at1 } });
    expect(health.get('B')).toMatchObject({ lastSeenAt: at1, agentVersion: '1', printer: { ready: true, reasons: [], checkedAt: new Date(at0.getTime() + 10) } });
    expect(health.get('C')!.lastSeenAt).toEqual(new Date(at0.getTime() + 10));
    // A contact older than the one stored moves nothing back, in the batch or recorded.
    expect(await store.terminals.touchContacts([{ ...t('A'), at: at0, agentVersion: '0', printer: ready }])).toHaveLength(1);
    expect(await store.terminals.recordContact({ ...t('A'), at: at0, agentVersion: '0', printer: { ready: false, reasons: ['cover-open'] } })).toEqual({ cameOnline: false });
    expect((await store.terminals.health({ accountId, terminalId: 'A' }))[0]).toMatchObject({ lastSeenAt: at1, agentVersion: '2', printer: { reasons: [] } });
    // Past one statement's worth: every one written.
    const many = Array.from({ length: 600 }, (_, i) => `M${i}`);
    for (const id of many) {
      await store.terminals.put({ ...t(id), printerId: 5, enabled: true });
      await store.terminals.recordContact({ ...t(id), at: at0 });
    }
    expect(await store.terminals.touchContacts(many.map((id) => ({ ...t(id), at: at1 })))).toEqual([]);
    expect((await store.terminals.health({ accountId })).filter((h) => h.terminalId.startsWith('M') && h.lastSeenAt?.getTime() === at1.getTime())).toHaveLength(600);
  }, 60_000);

  both('commits everything a transaction wrote, together', async () => {
    const { id, answer } = await store.transaction(async (tx) => {
      const i = await tx.intentions.insert(draft('a'));
      const answer = answerFor(i);
      await tx.intentions.saveIdempotent(accountId, 'k', { requestHash: 'h', statusCode: 200, intentionId: i.id, answer });
      return { id: i.id, answer };
    });
    expect((await store.intentions.get(accountId, id))?.referencia).toBe('a');
    expect(await store.intentions.findIdempotent(accountId, 'k')).toEqual({ requestHash: 'h', statusCode: 200, intentionId: id, answer, body: null });
  });

  both("keeps what a key's answer is made from as it was given: times as times, free text with U+0000 and accents", async () => {
    const job = await store.intentions.insert({ ...draft('ref \u0000 é 😀'), conteudo: 'Pão\u0000<b>', expiresAt: new Date(1_700_000_999_000) });
    const answer = answerFor(job, 'detalhe \u0000 ç');
    await store.intentions.saveIdempotent(accountId, 'k', { requestHash: 'h', statusCode: 200, intentionId: job.id, answer });
    const found = (await store.intentions.findIdempotent(accountId, 'k'))!;
    expect(found.answer).toEqual(answer);
    expect(found.answer!.at).toBeInstanceOf(Date);
    expect(found.answer!.job.expiresAt).toEqual(new Date(1_700_000_999_000));
    // Changes to the job afterwards are not the answer's.
    await store.intentions.countReprint({ accountId, id: job.id });
    expect((await store.intentions.findIdempotent(accountId, 'k'))!.answer).toEqual(answer);
  });

  both('deletes the Idempotency-Key answers stored before a time, oldest first, at most a batch a call, and no other', async () => {
    const job = await store.intentions.insert(draft('a'));
    const other = (await store.accounts.create({ email: 'bo@example.com', name: 'Bo', passwordHash: 'h', metadata: [], roles: [] })).id;
    const keyAt = 'INSERT INTO idempotency (user_id, key, request_hash, status_code, body, intention_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
    for (const [who, key, at] of [[accountId, 'old1', 1_000], [other, 'old2', 2_000], [accountId, 'old3', 3_000], [accountId, 'edge', 5_000], [other, 'new', 9_000]] as const) {
      await rawStatement(database, keyAt, [who, key, 'h', 200, '', job.id, at]);
    }
    expect(await store.intentions.purgeIdempotent(new Date(5_000), 2)).toBe(2);
    expect(await store.intentions.findIdempotent(accountId, 'old1')).toBeUndefined();
    expect(await store.intentions.findIdempotent(other, 'old2')).toBeUndefined();
    expect(await store.intentions.findIdempotent(accountId, 'old3')).toBeDefined();
    expect(await store.intentions.purgeIdempotent(new Date(5_000), 2)).toBe(1);
    expect(await store.intentions.purgeIdempotent(new Date(5_000), 2)).toBe(0);
    // Stored at the time itself, or after: kept.
    expect(await store.intentions.findIdempotent(accountId, 'edge')).toBeDefined();
    expect(await store.intentions.findIdempotent(other, 'new')).toBeDefined();
  });

  both('deletes final jobs made and last changed before a time, with their history and stuck marks, the oldest first, a batch at a time', async () => {
    const final = ['completed', 'failed', 'canceled', 'expired'] as const;
    /** A job made at `made`, and (when `ended` is given) final at `ended`. */
    const make = async (referencia: string, made: number, ended?: [(typeof final)[number], number]) => {
      const job = await store.intentions.insert({ ...draft(referencia), createdAt: new Date(made) });
      await store.intentions.appendHistory(job.id, { estado: 'queued', evento: 'insert', motivos: [], origem: 'server', detalhe: null, at: new Date(made) });
      if (ended) {
        await store.intentions.update({ accountId, id: job.id }, ['queued'], { estado: ended[0], status: 'x' });
        await store.intentions.appendHistory(job.id, { estado: ended[0], evento: 'x', motivos: [], origem: 'server', detalhe: null, at: new Date(ended[1]) });
      }
      return job.id;
    };
    const first = await make('printed', 1_000, ['completed', 2_000]);
    const second = await make('canceled', 1_500, ['canceled', 1_600]);
    const third = await make('failed', 2_500, ['failed', 3_000]);
    const endedLate = await make('made before, ended at the time', 1_200, ['expired', 5_000]);
    const waiting = await make('made before, not final', 1_100);
    const recent = await make('made at the time', 5_000, ['completed', 5_100]);
    expect(await store.intentions.markStuck(first, 1)).toBe(true);
    const before = new Date(5_000);
    expect(await store.intentions.purgeEnded(final, before, 2)).toBe(2);
    expect(await store.intentions.get(accountId, first)).toBeUndefined();
    expect(await store.intentions.history(accountId, first)).toEqual([]);
    expect(await store.intentions.get(accountId, second)).toBeUndefined();
    expect(await store.intentions.get(accountId, third)).toBeDefined();
    // Only the final states it is given.
    expect(await store.intentions.purgeEnded(['completed', 'canceled'], before, 2)).toBe(0);
    expect(await store.intentions.purgeEnded(final, before, 2)).toBe(1);
    expect(await store.intentions.purgeEnded(final, before, 2)).toBe(0);
    for (const kept of [endedLate, waiting, recent]) {
      expect(await store.intentions.get(accountId, kept)).toBeDefined();
      expect((await store.intentions.history(accountId, kept)).length).toBeGreaterThan(0);
    }
    // Ids are never given again, the last one's included: a journal that printed a deleted job never mistakes a new one for it.
    expect(await store.intentions.purgeEnded(final, new Date(10_000), 10)).toBe(2);
    expect(await store.intentions.get(accountId, recent)).toBeUndefined();
    expect((await store.intentions.insert(draft('next'))).id).toBeGreaterThan(recent);
  });

  both('counts an ignored report only on a job still there: one deleted since it was read (a report racing retention) is none, and nothing is written', async () => {
    const job = await store.intentions.insert({ ...draft('ended'), createdAt: new Date(1_000) });
    await store.intentions.update({ accountId, id: job.id }, ['queued'], { estado: 'completed', status: 'x' });
    const read = (await store.intentions.get(accountId, job.id))!;
    expect(await store.intentions.purgeEnded(['completed'], new Date(5_000), 10)).toBe(1);
    // Before, the count answered 0 for it and the history row that followed broke the foreign key: a 500 for the report.
    const change = { origem: 'client' as const, at: new Date(), motivos: [], detalhe: 'report printed ignored: job already completed' };
    await expect(store.transaction((tx) => recordIgnored(tx, read, change))).resolves.toBeUndefined();
    expect(await store.intentions.countIgnoredReport(read)).toBeUndefined();
    expect(await store.intentions.history(accountId, job.id)).toEqual([]);
  });

  both('answers a key an earlier version stored with its body by that body, and one stored with neither by the first answer settled for it', async () => {
    const job = await store.intentions.insert(draft('a'));
    // As versions before answers were kept wrote them: a body (fixed), or '' (never fixed).
    const legacy = 'INSERT INTO idempotency (user_id, key, request_hash, status_code, body, intention_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
    await rawStatement(database, legacy, [accountId, 'fixed', 'h', 200, '{"first":"\\u0000é"}', job.id, Date.now()]);
    await rawStatement(database, legacy, [accountId, 'unfixed', 'h', 200, '', job.id, Date.now()]);
    expect(await store.intentions.findIdempotent(accountId, 'fixed')).toEqual({ requestHash: 'h', statusCode: 200, intentionId: job.id, answer: null, body: '{"first":"\\u0000é"}' });
    expect(await store.intentions.findIdempotent(accountId, 'unfixed')).toEqual({ requestHash: 'h', statusCode: 200, intentionId: job.id, answer: null, body: null });
    const first = answerFor(job, 'first');
    expect((await store.intentions.settleIdempotent(accountId, 'unfixed', first)).answer).toEqual(first);
    expect((await store.intentions.settleIdempotent(accountId, 'unfixed', answerFor(job, 'second'))).answer).toEqual(first);
    // A key with a body is never given an answer over it.
    expect(await store.intentions.settleIdempotent(accountId, 'fixed', first)).toMatchObject({ answer: null, body: '{"first":"\\u0000é"}' });
  });

  both('rolls back everything when fn throws, and rethrows its error', async () => {
    const boom = new Error('boom');
    await expect(store.transaction(async (tx) => {
      await tx.intentions.insert(draft('lost'));
      throw boom;
    })).rejects.toBe(boom);
    expect(await store.intentions.get(accountId, 1)).toBeUndefined();
  });

  both('rolls back a transaction whose history row for a job it inserted fails, reporting that failure', async () => {
    // On PostgreSQL that row is sent without waiting for its answer: its error comes with the next statement.
    const err = await store.transaction(async (tx) => {
      const i = await tx.intentions.insert(draft('bad-history'));
      await tx.intentions.appendHistory(i.id, { estado: 'queued', evento: 'insert', motivos: [], origem: 'server', detalhe: null, at: new Date(Number.NaN) });
      return tx.intentions.get(accountId, i.id);
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).not.toMatch(/transaction is aborted/);
    expect(await store.intentions.get(accountId, 1)).toBeUndefined();
  });

  sqliteOnly('holds other callers back until an open transaction ends, so they never run inside it', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = store.transaction(async (t) => {
      await t.intentions.insert(draft('in-tx'));
      order.push('tx wrote');
      await held;
      throw new Error('roll back');
    });
    await new Promise((r) => setImmediate(r));
    const outside = store.intentions.insert(draft('outside')).then((i) => {
      order.push('outside wrote');
      return i;
    });
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['tx wrote']);
    release();
    await expect(tx).rejects.toThrow('roll back');
    const written = await outside;
    expect(order).toEqual(['tx wrote', 'outside wrote']);
    // The outside insert was not rolled back with the transaction.
    expect((await store.intentions.get(accountId, written.id))?.referencia).toBe('outside');
  });

  both("refuses the store's own repositories inside a transaction instead of waiting forever", async () => {
    await expect(store.transaction(async () => store.accounts.list())).rejects.toThrow(/inside transaction/);
    await expect(store.transaction(async () => store.transaction(async () => 1))).rejects.toThrow(/inside transaction/);
    expect(await store.accounts.list()).toHaveLength(1);
  });

  both('refuses a transaction\'s repositories once it has ended', async () => {
    const leaked = await store.transaction(async (tx) => tx);
    await expect(leaked.accounts.list()).rejects.toThrow(/ended/);
  });

  both('returns domain values: e-mails lower-cased, dates as Dates, duplicates as DuplicateError', async () => {
    const a = await store.accounts.findByEmail('ANA@example.com');
    expect(a).toMatchObject({ id: accountId, email: 'ana@example.com', metadata: [], roles: [] });
    expect(a!.createdAt).toBeInstanceOf(Date);
    await expect(store.accounts.create({ email: 'ana@EXAMPLE.com', name: 'x', passwordHash: 'h', metadata: [], roles: [] })).rejects.toBeInstanceOf(DuplicateError);
    const job = await store.intentions.insert(draft('dup'));
    await store.intentions.saveIdempotent(accountId, 'k', { requestHash: 'h', statusCode: 200, intentionId: job.id, answer: answerFor(job) });
    await expect(store.intentions.saveIdempotent(accountId, 'k', { requestHash: 'h', statusCode: 200, intentionId: job.id, answer: answerFor(job) })).rejects.toBeInstanceOf(DuplicateError);
  });

  both("keeps an account's tag set: 'all' by default, 'partner' when created or set so", async () => {
    expect((await store.accounts.findById(accountId))!.tags).toBe('all');
    const p = await store.accounts.create({ email: 'partner-tags@example.com', name: 'p', passwordHash: 'h', metadata: [], roles: [], tags: 'partner' });
    expect((await store.accounts.findByEmail('partner-tags@example.com'))!.tags).toBe('partner');
    expect(await store.accounts.setTags(p.id, 'all')).toBe(true);
    expect((await store.accounts.findById(p.id))!.tags).toBe('all');
    expect(await store.accounts.setTags(accountId, 'partner')).toBe(true);
    expect((await store.accounts.list()).find((x) => x.id === accountId)!.tags).toBe('partner');
    expect(await store.accounts.setTags('no-such-account', 'partner')).toBe(false);
  });

  both('counts login attempts per key in one upsert, starting a new window when the old one has ended', async () => {
    const t0 = new Date(1_000_000);
    expect((await store.loginAttempts.hit(['a', 'b'], t0, 1000)).map((c) => c.failures)).toEqual([1, 1]);
    const [a2] = await store.loginAttempts.hit(['a'], new Date(1_000_500), 1000);
    expect(a2).toEqual({ key: 'a', failures: 2, windowStart: t0 });
    await store.loginAttempts.unhit([a2!]);
    expect((await store.loginAttempts.hit(['a'], new Date(1_000_600), 1000))[0]!.failures).toBe(2);
    expect((await store.loginAttempts.hit(['a'], new Date(1_001_000), 1000))[0]).toEqual({ key: 'a', failures: 1, windowStart: new Date(1_001_000) });
    expect(await store.loginAttempts.purge(new Date(1_000_900))).toBe(1);
  });

  both('keeps the partner\'s text exactly as sent, U+0000 included, and a lookup carrying one finds nothing', async () => {
    const diagnostics = [{ code: 'text/control-removed', severity: 'warning', message: 'removed \u0000', span: { offset: 1, line: 1, column: 2, length: 1 } }] as unknown as NewIntention['diagnostics'];
    const job = await store.intentions.insert({ ...draft('r\u0000é😀'), conteudo: 'a\u0000b <paperCutFull>', diagnostics });
    const read = await store.intentions.get(accountId, job.id);
    expect(read).toMatchObject({ referencia: 'r\u0000é😀', conteudo: 'a\u0000b <paperCutFull>', diagnostics });
    await store.intentions.appendHistory(job.id, { estado: 'queued', evento: 'insert', motivos: [], origem: 'client', detalhe: 'd\u0000', at: new Date(5) });
    expect((await store.intentions.history(accountId, job.id))[0]).toMatchObject({ seq: 1, detalhe: 'd\u0000', at: new Date(5) });
    await store.terminals.put({ accountId, terminalId: 'T', printerId: 1, enabled: true });
    expect(await store.terminals.find(accountId, 'T\u0000')).toBeUndefined();
    expect(await store.accounts.findByEmail('ana\u0000@example.com')).toBeUndefined();
    expect((await store.loginAttempts.hit(['k\u0000'], new Date(1000), 1000))[0]!.failures).toBe(1);
  });

  both('leases, guards and finds jobs the same way: route, stopped printer, token, due leases and expiry', async () => {
    await store.terminals.put({ accountId, terminalId: 'T1', printerId: 1, enabled: true, device: null, templateJobs: true });
    await store.terminals.put({ accountId, terminalId: 'T0', printerId: null, enabled: true, device: 'tcp://127.0.0.1:9100', templateJobs: false });
    expect((await store.terminals.list(accountId)).map((t) => t.terminalId)).toEqual(['T0', 'T1']);
    expect(await store.terminals.withDevice()).toEqual([{ accountId, terminalId: 'T0', printerId: null, enabled: true, device: 'tcp://127.0.0.1:9100', templateJobs: false }]);
    expect(await store.terminals.hasTemplateRoute(accountId, 1)).toBe(true);
    expect(await store.terminals.hasTemplateRoute(accountId, 2)).toBe(false);
    const own = await store.intentions.insert({ ...draft('own'), terminalId: 'T1', expiresAt: new Date(10_000) });
    const template = await store.intentions.insert({ ...draft('template'), impressoraId: 1 });
    await store.intentions.insert({ ...draft('other template'), impressoraId: 2 });
    const route = { accountId, terminalId: 'T1', templateJobs: true, printerId: 1 };
    expect((await store.intentions.listForRoute(route, ['queued'])).map((i) => i.referencia)).toEqual(['own', 'template']);
    const lease = { estado: 'acquired' as const, status: 'ImpressaoEnviada', leasedTo: 'T1', leaseToken: 'tok', leaseExpiresAt: new Date(5_000), tentativasIncrement: true };
    const first = await store.intentions.claim(route, ['queued'], lease);
    expect(first).toMatchObject({ id: own.id, estado: 'acquired', leasedTo: 'T1', leaseToken: 'tok', leaseExpiresAt: new Date(5_000), tentativas: 1 });
    // Stopped on this terminal's printer: nothing else is handed out until it clears…
    expect(await store.intentions.update({ accountId, id: own.id }, ['acquired'], { estado: 'stopped', status: 'x', motivos: ['paper-out'] }, 'wrong-token')).toBeUndefined();
    expect(await store.intentions.update({ accountId, id: own.id }, ['acquired'], { estado: 'stopped', status: 'x', motivos: ['paper-out'] }, 'tok')).toMatchObject({ estado: 'stopped', motivos: ['paper-out'] });
    expect(await store.intentions.claim(route, ['queued'], lease)).toBeUndefined();
    // …unless it waits for a person: compiled for another printer, or its outcome unknown.
    await store.intentions.update({ accountId, id: own.id }, ['stopped'], { estado: 'stopped', status: 'x', motivos: ['printer-mismatch'] });
    expect(await store.intentions.claim(route, ['queued'], { ...lease, leaseToken: 'tok-x', tentativasIncrement: false })).toMatchObject({ id: template.id });
    await store.intentions.update({ accountId, id: template.id }, ['acquired'], { estado: 'queued', status: 'x', leaseToken: null, leasedTo: null, tentativasIncrement: false });
    await store.intentions.update({ accountId, id: own.id }, ['stopped'], { estado: 'stopped', status: 'x', motivos: ['media-empty'] });
    expect(await store.intentions.claim(route, ['queued'], lease)).toBeUndefined();
    await store.intentions.update({ accountId, id: own.id }, ['stopped'], { estado: 'stopped', status: 'x', motivos: ['outcome-unknown'] });
    expect(await store.intentions.claim(route, ['queued'], { ...lease, leaseToken: 'tok2' })).toMatchObject({ id: template.id, leaseToken: 'tok2' });
    expect(await store.intentions.dueLeases(['acquired'], new Date(6_000), 10)).toEqual([{ accountId, id: template.id }]);
    expect(await store.intentions.dueLeases(['acquired'], new Date(5_000), 10)).toEqual([]);
    // A renewal moves the lease's end and nothing else, for the holder with its token only…
    const ref = { accountId, id: template.id };
    expect(await store.intentions.renewLease(ref, ['acquired', 'printing'], { token: 'tok', leasedTo: 'T1' }, new Date(9_000))).toBe(false);
    expect(await store.intentions.renewLease(ref, ['acquired', 'printing'], { token: 'tok2', leasedTo: 'T0' }, new Date(9_000))).toBe(false);
    expect(await store.intentions.renewLease(ref, ['printing'], { token: 'tok2', leasedTo: 'T1' }, new Date(9_000))).toBe(false);
    expect(await store.intentions.renewLease(ref, ['acquired', 'printing'], { token: 'tok2', leasedTo: 'T1' }, new Date(9_000))).toBe(true);
    expect(await store.intentions.get(accountId, template.id)).toMatchObject({ estado: 'acquired', leaseToken: 'tok2', leaseExpiresAt: new Date(9_000), tentativas: 1 });
    // …and a sweep that read the lease as run out before the renewal does not end it.
    const expire = { estado: 'queued' as const, status: 'x', leaseToken: null, leaseExpiresAt: null };
    expect(await store.intentions.update(ref, ['acquired'], expire, { token: 'tok2', expiredBy: new Date(6_000) })).toBeUndefined();
    expect(await store.intentions.dueLeases(['acquired'], new Date(6_000), 10)).toEqual([]);
    expect(await store.intentions.renewLease(ref, ['acquired'], { token: 'tok2', leasedTo: 'T1' }, new Date(5_000))).toBe(true);
    expect(await store.intentions.dueExpiry(['stopped'], new Date(11_000), 10)).toEqual([{ accountId, id: own.id }]);
    expect(await store.intentions.get('someone-else', own.id)).toBeUndefined();
    const h1 = await store.intentions.appendHistory(own.id, { estado: 'queued', evento: 'insert', motivos: [], origem: 'server', detalhe: null, at: new Date(1) });
    const h2 = await store.intentions.appendHistory(own.id, { estado: 'acquired', evento: 'claim', motivos: ['x'], origem: 'client', detalhe: 'd', at: new Date(2) });
    expect([h1.seq, h2.seq]).toEqual([1, 2]);
    expect(await store.intentions.history(accountId, own.id)).toEqual([h1, h2]);
    expect(await store.intentions.history('someone-else', own.id)).toEqual([]);
    // The terminal's own queued jobs compiled for another template than its printer's (template jobs never are).
    const other = await store.intentions.insert({ ...draft('other printer'), terminalId: 'T1', impressoraId: 5, codigoImpressora: 'MAKER5T20' });
    await store.intentions.insert({ ...draft('same printer'), terminalId: 'T1', impressoraId: 1 });
    expect(await store.intentions.mismatched(route, ['queued'], 10)).toEqual([{ accountId, id: other.id, codigoImpressora: 'MAKER5T20' }]);
    expect(await store.intentions.mismatched({ ...route, printerId: null }, ['queued'], 10)).toEqual([]);
    expect(await store.intentions.mismatched({ ...route, accountId: 'someone-else' }, ['queued'], 10)).toEqual([]);
    // Compiled again: new bytes, diagnostics and template, in the same guarded statement.
    const compiled = { bytes: Uint8Array.of(1, 2, 3), diagnostics: [], impressoraId: 1, codigoImpressora: 'MAKER1MP4200' };
    expect(await store.intentions.update({ accountId, id: other.id }, ['queued'], { estado: 'queued', status: 'x', compiled })).toMatchObject({ bytes: Uint8Array.of(1, 2, 3), impressoraId: 1, codigoImpressora: 'MAKER1MP4200' });
    expect(await store.intentions.mismatched(route, ['queued'], 10)).toEqual([]);
  });

  both("keeps an account's token families up to the cap a login gives: past it the ones used least recently are revoked, every token of theirs, in the same write", async () => {
    const cap = 3;
    const now = new Date(100_000);
    /** A pair of family `f`, issued at `at` (its tokens' expiries follow from it). */
    const pair = (f: string, at: number, n = 0) => ({ accessHash: `a-${f}-${n}`, refreshHash: `r-${f}-${n}`, accessExpiresAt: new Date(at + 200_000), refreshExpiresAt: new Date(at + 300_000), family: f });
    const works = async (f: string, n = 0) => (await store.credentials.authenticate(`a-${f}-${n}`, now)) !== undefined;
    const bob = (await store.accounts.create({ email: 'bob@example.com', name: 'Bob', passwordHash: 'h', metadata: [], roles: [] })).id;
    const limits = { sessions: cap, tokensPerSession: 10 };
    await store.credentials.storeTokens(bob, pair('b1', 0), limits);
    // cap + 2 logins, one after the other: the first two are revoked, the last three work.
    for (let i = 1; i <= cap + 2; i++) await store.credentials.storeTokens(accountId, pair(`f${i}`, i), limits);
    expect(await Promise.all(['f1', 'f2', 'f3', 'f4', 'f5'].map((f) => works(f)))).toEqual([false, false, true, true, true]);
    expect(await store.credentials.takeRefreshToken('r-f1-0', now, 'f-new')).toBeUndefined();
    expect(await store.credentials.takeRefreshToken('r-f2-0', now, 'f-new')).toBeUndefined();
    // Rotating f3 makes it the one used most recently, and is no new session: nothing is revoked.
    expect(await store.credentials.takeRefreshToken('r-f3-0', now, 'f-new')).toEqual({ accountId, family: 'f3' });
    await store.credentials.storeTokens(accountId, pair('f3', 10, 1), limits);
    expect(await Promise.all([works('f3'), works('f3', 1), works('f4'), works('f5')])).toEqual([true, true, true, true]);
    // The next login revokes f4, not the rotated f3; the one after, f5; then f3 with its used refresh token (no reuse then).
    await store.credentials.storeTokens(accountId, pair('f6', 11), limits);
    expect(await Promise.all([works('f3', 1), works('f4'), works('f5'), works('f6')])).toEqual([true, false, true, true]);
    await store.credentials.storeTokens(accountId, pair('f7', 12), limits);
    await store.credentials.storeTokens(accountId, pair('f8', 13), limits);
    expect(await Promise.all([works('f3'), works('f3', 1), works('f5'), works('f6'), works('f7'), works('f8')])).toEqual([false, false, false, true, true, true]);
    expect(await store.credentials.takeRefreshToken('r-f3-0', now, 'f-new')).toBeUndefined();
    // Another account's session is its own: still there.
    expect(await works('b1')).toBe(true);
    // Exactly the cap's worth of tokens is left: one access and one refresh token per family kept.
    expect(await store.credentials.revokeTokens(accountId)).toBe(2 * cap);
  });

  both('keeps of one session the newest access tokens and used refresh tokens up to its limit: a client refreshing in a loop never grows it', async () => {
    const now = new Date(100_000);
    const limits = { sessions: 100, tokensPerSession: 3 };
    /** Pair n of family s, issued at n (newer pairs expire later). */
    const pair = (n: number) => ({ accessHash: `a${n}`, refreshHash: `r${n}`, accessExpiresAt: new Date(200_000 + n), refreshExpiresAt: new Date(300_000 + n), family: 's' });
    /** A login, then six refreshes in a row. */
    const loginAndRefresh = async () => {
      await store.credentials.storeTokens(accountId, pair(0), limits);
      for (let n = 1; n <= 6; n++) {
        expect(await store.credentials.takeRefreshToken(`r${n - 1}`, new Date(now.getTime() + n), 'f-new')).toEqual({ accountId, family: 's' });
        await store.credentials.storeTokens(accountId, pair(n), limits);
      }
    };
    await loginAndRefresh();
    // The three newest access tokens work; the older ones are gone.
    const works = async (n: number) => (await store.credentials.authenticate(`a${n}`, now)) !== undefined;
    expect(await Promise.all([0, 1, 2, 3, 4, 5, 6].map(works))).toEqual([false, false, false, false, true, true, true]);
    // A used refresh token older than the three newest is only unknown: the session stays.
    expect(await store.credentials.takeRefreshToken('r2', now, 'f-new')).toBeUndefined();
    expect(await works(6)).toBe(true);
    // Left: 3 access tokens, 3 used refresh tokens and the unused one.
    expect(await store.credentials.revokeTokens(accountId)).toBe(7);
    // One of the three newest used ones is recognised as reused, and revokes the session.
    await loginAndRefresh();
    expect(await store.credentials.takeRefreshToken('r3', now, 'f-new')).toBe('reused');
    expect(await Promise.all([4, 5, 6].map(works))).toEqual([false, false, false]);
  });

  both('keeps tokens, terminal keys and webhook endpoints, messages and attempts the same way', async () => {
    const now = new Date(100_000);
    await store.credentials.storeTokens(accountId, { accessHash: 'a1', refreshHash: 'r1', accessExpiresAt: new Date(200_000), refreshExpiresAt: new Date(300_000), family: 'f1'  }, SESSION_LIMITS);
    expect(await store.credentials.authenticate('a1', now)).toEqual({ kind: 'account', accountId, tags: 'all' });
    expect(await store.credentials.authenticate('a1', new Date(200_000))).toBeUndefined();
    await store.accounts.setTags(accountId, 'partner');
    expect(await store.credentials.authenticate('a1', now)).toEqual({ kind: 'account', accountId, tags: 'partner' });
    const tk = await store.credentials.setTerminalKey(accountId, 'T1', 'tk1', 'bobt_1');
    await store.credentials.setTerminalKey(accountId, 'T1', 'tk2', 'bobt_2');
    expect(tk).toMatchObject({ accountId, terminalId: 'T1', prefix: 'bobt_1' });
    expect(await store.credentials.authenticate('tk1', now)).toBeUndefined();
    expect(await store.credentials.authenticate('tk2', now)).toEqual({ kind: 'terminal', accountId, terminalId: 'T1' });
    expect(await store.credentials.takeRefreshToken('r1', now, 'f-new')).toEqual({ accountId, family: 'f1' });
    // Used again: a reuse, and its family (access token a1 with it) is revoked; then nothing is left of it.
    expect(await store.credentials.takeRefreshToken('r1', now, 'f-new')).toBe('reused');
    expect(await store.credentials.authenticate('a1', now)).toBeUndefined();
    expect(await store.credentials.takeRefreshToken('r1', now, 'f-new')).toBeUndefined();
    expect(await store.credentials.takeRefreshToken('never-issued', now, 'f-new')).toBeUndefined();
    await store.credentials.storeTokens(accountId, { accessHash: 'a2', refreshHash: 'r2', accessExpiresAt: new Date(1), refreshExpiresAt: new Date(1), family: 'f2'  }, SESSION_LIMITS);
    expect(await store.credentials.purgeExpired(now)).toBe(2);
    await store.credentials.storeTokens(accountId, { accessHash: 'a3', refreshHash: 'r3', accessExpiresAt: new Date(200_000), refreshExpiresAt: new Date(300_000), family: 'f3'  }, SESSION_LIMITS);
    expect(await store.credentials.revokeTokens(accountId)).toBe(2);
    expect(await store.accounts.setPasswordHash(accountId, 'h2')).toBe(true);
    expect(await store.accounts.setPasswordHash('nobody', 'h2')).toBe(false);

    const e = await store.webhooks.createEndpoint({ accountId, url: 'https://r.example/hook', events: ['completed', 'failed'], secret: 's1' }, 2) as WebhookEndpoint;
    // One endpoint per URL (compared as posted to), and at most the limit given.
    expect(await store.webhooks.createEndpoint({ accountId, url: 'HTTPS://R.example:443/./hook', events: ['completed'], secret: 's9' }, 2)).toEqual({ refused: 'duplicate', webhookId: e.id });
    const other = await store.webhooks.createEndpoint({ accountId, url: 'https://r.example/other', events: ['completed'], secret: 's8' }, 2) as WebhookEndpoint;
    expect(await store.webhooks.createEndpoint({ accountId, url: 'https://r.example/third', events: ['completed'], secret: 's7' }, 2)).toEqual({ refused: 'limit', max: 2 });
    expect(await store.webhooks.removeEndpoint(accountId, other.id)).toBe(true);
    expect(await store.webhooks.listEndpoints(accountId)).toEqual([e]);
    const rotated = await store.webhooks.rotateSecret(accountId, e.id, 's2', new Date(Date.now() + 60_000));
    expect(rotated!.secrets.map((x) => x.secret)).toEqual(['s2', 's1']);
    expect(await store.webhooks.setEnabled(accountId, e.id, false, 'gone')).toBe(true);
    expect(await store.webhooks.getEndpoint(accountId, e.id)).toMatchObject({ enabled: false, disabledReason: 'gone', secrets: rotated!.secrets });
    await store.webhooks.setFailing(accountId, e.id, now);
    expect((await store.webhooks.getEndpoint(accountId, e.id))!.failingSince).toEqual(now);
    await store.webhooks.enqueue([
      { id: 'm1', accountId, endpointId: e.id, url: e.url, target: 'origin:https://r.example', eventType: 'intencao.completed', intencaoImpressaoId: 7, body: '{"a":1}', createdAt: now },
      { id: 'm2', accountId, endpointId: null, url: 'https://cb.example/?intencaoImpressaoId=7', target: 'origin:https://cb.example', eventType: 'intencao.completed', intencaoImpressaoId: 7, body: '{"a":1}', createdAt: now },
    ]);
    // A disabled endpoint's messages wait (m1, queued as an event committed while it was disabled); the callback's goes.
    const claimed = await store.webhooks.claimDue(now, new Date(160_000), 10, 1, 16);
    expect(claimed.map((m) => [m.id, m.leaseUntil])).toEqual([['m2', new Date(160_000)]]);
    expect(await store.webhooks.recordAttempt(claimed[0]!, { at: now, statusCode: 503, latencyMs: 12, error: null }, { state: 'pending', nextAttemptAt: new Date(130_000) })).toBe(true);
    expect(await store.webhooks.getMessage(accountId, 'm2')).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: new Date(130_000), lastError: 'HTTP 503', windowStart: now });
    // Disabling holds its pending messages; enabling makes them due at once, with a new retry window.
    expect(await store.webhooks.setEnabled(accountId, e.id, false, 'operator')).toBe(true);
    expect(await store.webhooks.getMessage(accountId, 'm1')).toMatchObject({ state: 'held', attempts: 0 });
    const enabledAt = Date.now();
    expect(await store.webhooks.setEnabled(accountId, e.id, true)).toBe(true);
    expect((await store.webhooks.getEndpoint(accountId, e.id))).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    const m1 = (await store.webhooks.getMessage(accountId, 'm1'))!;
    expect(m1).toMatchObject({ state: 'pending', nextAttemptAt: now });
    expect(m1.windowStart.getTime()).toBeGreaterThanOrEqual(enabledAt);
    expect((await store.webhooks.claimDue(new Date(130_000), new Date(190_000), 10, 1, 16)).map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(await store.webhooks.removeEndpoint(accountId, e.id)).toBe(true);
    expect(await store.webhooks.removeEndpoint(accountId, e.id)).toBe(false);
    expect(await store.webhooks.getMessage(accountId, 'm1')).toMatchObject({ state: 'dead', lastError: 'endpoint removed' });
    // A removed endpoint's message is not sent again (nothing would ever send it); a callback's is.
    expect(await store.webhooks.replay(accountId, 'm1', new Date(400_000))).toBeUndefined();
    expect(await store.webhooks.getMessage(accountId, 'm1')).toMatchObject({ state: 'dead' });
    expect((await store.webhooks.replay(accountId, 'm2', new Date(400_000)))).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: new Date(400_000), windowStart: new Date(400_000) });
    expect(await store.webhooks.replay('someone-else', 'm2', now)).toBeUndefined();
    expect((await store.webhooks.listMessages(accountId, { limit: 10 })).map((m) => m.id)).toEqual(['m2', 'm1']);
    expect((await store.webhooks.listMessages(accountId, { endpointId: e.id, intencaoImpressaoId: 7, limit: 10 })).map((m) => m.id)).toEqual(['m1']);
    expect(await store.webhooks.listAttempts(accountId, { intencaoImpressaoId: 7, limit: 10 })).toEqual([{
      messageId: 'm2', endpointId: null, url: 'https://cb.example/?intencaoImpressaoId=7', eventType: 'intencao.completed', intencaoImpressaoId: 7,
      at: now, statusCode: 503, latencyMs: 12, error: null, messageState: 'pending',
    }]);
  });

  both("claims webhook messages so that one account's backlog, disabled endpoints or slow receivers never keep another's waiting", async () => {
    const now = new Date(100_000);
    const lease = new Date(200_000);
    const other = (await store.accounts.create({ email: 'bia@example.com', name: 'Bia', passwordHash: 'h', metadata: [], roles: [] })).id;
    const message = (account: string, id: string, target: string, endpointId: string | null = null) => ({
      id, accountId: account, endpointId, url: `https://${target}/`, target: `origin:https://${target}`, eventType: 'intencao.completed', intencaoImpressaoId: 1, body: '{}', createdAt: now,
    });
    // 140 messages of a disabled endpoint, older than anything else (queued as an event committed while it was disabled, or replayed before).
    const e = await store.webhooks.createEndpoint({ accountId, url: 'https://gone.example/hook', events: ['completed'], secret: 's1' }, 20) as WebhookEndpoint;
    await store.webhooks.enqueue(Array.from({ length: 140 }, (_, n) => message(accountId, `off${n}`, 'gone.example', e.id)));
    expect(await store.webhooks.setEnabled(accountId, e.id, false, 'gone')).toBe(true);
    await store.webhooks.enqueue(Array.from({ length: 140 }, (_, n) => message(accountId, `late${n}`, 'gone.example', e.id)));
    // 200 of the same account to 50 receivers, then one of another account.
    const later = new Date(now.getTime() + 1);
    await store.webhooks.enqueue(Array.from({ length: 200 }, (_, n) => ({ ...message(accountId, `ana${n}`, `r${n % 50}.example`), createdAt: later })));
    await store.webhooks.enqueue([{ ...message(other, 'bia0', 'bia.example'), createdAt: new Date(now.getTime() + 2) }]);
    const claim = async (limit: number) => (await store.webhooks.claimDue(new Date(100_010), lease, limit, 4, 16)).map((m) => m.id);
    expect((await store.webhooks.getMessage(accountId, 'off0'))!.state).toBe('held');
    // At most 16 of one account in flight; the disabled endpoint's are never taken, however many.
    expect(await claim(64)).toEqual(Array.from({ length: 16 }, (_, n) => `ana${n}`));
    // An account at its limit is left out before the window of the longest due is taken: the next claim reaches the other account.
    expect(await claim(64)).toEqual(['bia0']);
    await store.webhooks.enqueue([message(other, 'bia1', 'bia.example')]);
    expect(await claim(64)).toEqual(['bia1']);
    expect(await claim(64)).toEqual([]);
    expect((await store.webhooks.getMessage(accountId, 'late0'))!.state).toBe('pending');
    // A message whose endpoint is gone (an event or a replay that raced its removal) is taken, for the sender to end it dead.
    await store.webhooks.enqueue([message(other, 'orphan', 'orphan.example', 'wh_removed')]);
    expect(await claim(64)).toEqual(['orphan']);
  });

  both('claims the others\' webhook messages when the longest due, more than a claim first looks at, are all of an account or a target at its limit', async () => {
    const lease = new Date(200_000);
    const account = async (name: string) => (await store.accounts.create({ email: `${name}@example.com`, name, passwordHash: 'h', metadata: [], roles: [] })).id;
    const [bia, caio] = [await account('bia'), await account('caio')];
    const message = (owner: string, id: string, target: string, at: number) => ({
      id, accountId: owner, endpointId: null, url: `https://${target}/`, target: `origin:https://${target}`, eventType: 'intencao.completed', intencaoImpressaoId: 1, body: '{}', createdAt: new Date(at),
    });
    const queue = async (rows: ReturnType<typeof message>[]) => {
      for (let i = 0; i < rows.length; i += 500) await store.webhooks.enqueue(rows.slice(i, i + 500));
    };
    // Ana: 1,600 to four receivers, the longest due; Caio: 1,100 to one receiver; Bia: one to one of Ana's receivers, one to her own.
    await queue(Array.from({ length: 1_600 }, (_, n) => message(accountId, `ana${n}`, `a${n % 4}.example`, 1_000 + n)));
    await queue(Array.from({ length: 1_100 }, (_, n) => message(caio, `caio${n}`, 'caio.example', 10_000 + n)));
    await queue([message(bia, 'bia-shared', 'a0.example', 20_000), message(bia, 'bia-own', 'bia.example', 20_001)]);
    const claim = async () => (await store.webhooks.claimDue(new Date(100_000), lease, 64, 4, 16)).map((m) => m.id);
    // Ana's first 16 (4 per receiver: her account and her receivers are then at their limits); the
    // first look's window is all hers, so the others are found receiver by receiver.
    expect(await claim()).toEqual([...Array.from({ length: 16 }, (_, n) => `ana${n}`), 'caio0', 'bia-own']);
    // Caio's receiver until it is at its limit (4 in flight); Bia's message to Ana's receiver waits for that receiver.
    expect([await claim(), await claim(), await claim(), await claim()]).toEqual([['caio1'], ['caio2'], ['caio3'], []]);
    expect(await store.webhooks.getMessage(bia, 'bia-shared')).toMatchObject({ state: 'pending', attempts: 0 });
  });

  both('deletes delivered and dead webhook messages past keeping, with their attempts, oldest first, never pending or held ones', async () => {
    const at = (ms: number) => new Date(ms);
    const message = (id: string, createdAt: Date) => ({ id, accountId, endpointId: null, url: 'https://r.example/', target: 'origin:https://r.example', eventType: 'intencao.completed', intencaoImpressaoId: 1, body: '{}', createdAt });
    await store.webhooks.enqueue([message('old-delivered', at(1_000)), message('old-dead', at(2_000)), message('old-pending', at(3_000)), message('new-delivered', at(50_000))]);
    const settle = async (state: 'delivered' | 'dead') => {
      const [m] = await store.webhooks.claimDue(at(60_000), at(70_000), 1, 4, 16);
      await store.webhooks.recordAttempt(m!, { at: at(60_000), statusCode: state === 'delivered' ? 200 : 500, latencyMs: 1, error: null }, { state });
      return m!.id;
    };
    expect([await settle('delivered'), await settle('dead')]).toEqual(['old-delivered', 'old-dead']);
    const [third] = await store.webhooks.claimDue(at(60_000), at(70_000), 1, 4, 16);
    await store.webhooks.recordAttempt(third!, { at: at(60_000), statusCode: 500, latencyMs: 1, error: null }, { state: 'pending', nextAttemptAt: at(100_000) });
    expect(await settle('delivered')).toBe('new-delivered');
    // One at a time: the oldest first; the pending one and the newer one stay.
    expect(await store.webhooks.purgeMessages(at(40_000), 1)).toBe(1);
    expect(await store.webhooks.getMessage(accountId, 'old-delivered')).toBeUndefined();
    expect(await store.webhooks.purgeMessages(at(40_000), 10)).toBe(1);
    expect(await store.webhooks.purgeMessages(at(40_000), 10)).toBe(0);
    expect((await store.webhooks.listMessages(accountId, { limit: 10 })).map((m) => m.id)).toEqual(['new-delivered', 'old-pending']);
    expect((await store.webhooks.listAttempts(accountId, { limit: 10 })).map((a) => a.messageId).sort()).toEqual(['new-delivered', 'old-pending']);
  });

  both('revokes an API key only for its own account', async () => {
    const bob = await store.accounts.create({ email: 'bob@example.com', name: 'Bob', passwordHash: 'h', metadata: [], roles: [] });
    const key = await store.credentials.createApiKey({ accountId, name: 'pos', keyHash: 'hash-1', prefix: 'bob_abcdef' });
    expect(await store.credentials.authenticate('hash-1', new Date())).toEqual({ kind: 'account', accountId, tags: 'all' });
    expect(await store.credentials.revokeApiKey(bob.id, key.id)).toBe(false);
    expect(await store.credentials.revokeApiKey(accountId, key.id)).toBe(true);
    expect(await store.credentials.authenticate('hash-1', new Date())).toBeUndefined();
  });

  sqliteOnly('upgrades a database made by the first release: its API keys get ids, and it keeps working', async () => {
    const file = join(database.dir, 'v1.sqlite');
    const old = new Database(file);
    migrate(old, SQLITE_MIGRATIONS.slice(0, 1));
    old.prepare("INSERT INTO users (id, email, name, password_hash, metadata, roles, created_at) VALUES ('u1', 'old@example.com', 'Old', 'h', '[]', '[]', 1)").run();
    old.prepare("INSERT INTO api_keys (key_hash, user_id, name, created_at) VALUES ('old-hash', 'u1', 'legacy', 2)").run();
    old.close();
    const upgraded = openSqliteStore(file);
    try {
      const [key] = await upgraded.credentials.listApiKeys('u1');
      expect(key).toEqual({ id: expect.stringMatching(/^key_[0-9a-f]{12}$/), accountId: 'u1', name: 'legacy', prefix: null, createdAt: new Date(2) });
      expect(await upgraded.credentials.authenticate('old-hash', new Date())).toEqual({ kind: 'account', accountId: 'u1', tags: 'all' });
    } finally {
      await upgraded.close();
    }
  });

  sqliteOnly('upgrades a database made before answers were kept (version 11): its Idempotency-Keys keep their bodies', async () => {
    const file = join(database.dir, 'v11.sqlite');
    const old = new Database(file);
    migrate(old, SQLITE_MIGRATIONS.filter((m) => m.version <= 11));
    old.prepare("INSERT INTO users (id, email, name, password_hash, metadata, roles, created_at) VALUES ('u1', 'old@example.com', 'Old', 'h', '[]', '[]', 1)").run();
    old.prepare("INSERT INTO idempotency (user_id, key, request_hash, status_code, body, intention_id, created_at) VALUES ('u1', 'k', 'h', 200, '{\"old\":1}', NULL, 2)").run();
    old.close();
    const upgraded = openSqliteStore(file);
    try {
      expect(await upgraded.intentions.findIdempotent('u1', 'k')).toEqual({ requestHash: 'h', statusCode: 200, intentionId: null, answer: null, body: '{"old":1}' });
    } finally {
      await upgraded.close();
    }
  });

  postgresOnly('runs an outside caller beside an open transaction, never inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const txWrote = new Promise<void>((r) => (wrote = r));
    const tx = store.transaction(async (t) => {
      await t.intentions.insert(draft('in-tx'));
      wrote();
      await held;
      throw new Error('roll back');
    });
    await txWrote;
    // On PostgreSQL the outside insert is its own statement on another connection: it commits
    // while the transaction is still open, and does not see the transaction's uncommitted row.
    const outside = await store.intentions.insert(draft('outside'));
    expect((await store.intentions.listForRoute({ accountId, terminalId: 't', templateJobs: true, printerId: null }, ['queued'])).map((i) => i.referencia)).toEqual(['outside']);
    release();
    await expect(tx).rejects.toThrow('roll back');
    expect((await store.intentions.get(accountId, outside.id))?.referencia).toBe('outside');
  });
});
