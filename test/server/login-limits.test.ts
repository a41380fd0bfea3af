// The failed-login policy of issue 10 item 5: counters kept in the store (they survive a restart
// and are shared by every process on one database), counted per account-and-address, per account
// and per address separately, and client addresses taken from X-Forwarded-For only with trustProxy.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, harness, type Harness } from './helpers.js';

const URL = '/auth/reconciliation/token';
const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0).reverse()) await h.close();
});

async function start(options: Parameters<typeof harness>[0] = {}): Promise<Harness> {
  const h = await harness(options);
  open.push(h);
  return h;
}

function attempt(h: Harness, email: string, password: string, headers: Record<string, string> = {}) {
  return h.app.inject({ method: 'POST', url: URL, headers, payload: { email, password, grant_type: 'password' } });
}

describe('failed-login limits', () => {
  // 12 failures were the old per-address limit for maxLoginFailures 3 (4×); the per-address cap is now 30 (10×).
  it("does not block an account's right password because of failures for other accounts from the same address", async () => {
    const h = await start({ maxLoginFailures: 3 });
    for (let i = 0; i < 12; i++) expect((await attempt(h, `user${i}@example.com`, 'x')).statusCode).toBe(401);
    expect((await attempt(h, BOB.email, BOB.password)).statusCode).toBe(200);
  }, 20_000);

  it('keeps the counters in the database, so a restart does not reset them', async () => {
    const first = await start({ maxLoginFailures: 3 });
    for (let i = 0; i < 3; i++) expect((await attempt(first, ALICE.email, 'wrong')).statusCode).toBe(401);
    await first.app.close();
    const second = await start({ maxLoginFailures: 3, file: first.file });
    const res = await attempt(second, ALICE.email, ALICE.password);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('shares the counters between two processes on one database', async () => {
    const a = await start({ maxLoginFailures: 4 });
    const b = await start({ maxLoginFailures: 4, file: a.file });
    for (const h of [a, b, a, b]) expect((await attempt(h, ALICE.email, 'wrong')).statusCode).toBe(401);
    for (const h of [a, b]) expect((await attempt(h, ALICE.email, ALICE.password)).statusCode).toBe(429);
  });

  it('refuses a right password once the account itself is under attack from many addresses', async () => {
    const h = await start({ trustProxy: true, loginLimits: { pair: 2, account: 6, address: 20 } });
    for (let i = 0; i < 6; i++) {
      expect((await attempt(h, ALICE.email, 'wrong', { 'x-forwarded-for': `203.0.113.${i}` })).statusCode).toBe(401);
    }
    expect((await attempt(h, ALICE.email, ALICE.password, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
    expect((await attempt(h, BOB.email, BOB.password, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(200);
  });

  it('counts failures for an e-mail as the account lookup finds it: case aside, nothing trimmed', async () => {
    // The limits trimmed the e-mail and the lookup did not: failures for " alice@example.com" (no
    // account: it is refused at creation) locked alice@example.com's own counter.
    const h = await start({ trustProxy: true, loginLimits: { pair: 2, account: 6, address: 20 } });
    for (let i = 0; i < 6; i++) {
      const email = [` ${ALICE.email}`, `${ALICE.email} `, `${ALICE.email}\t`][i % 3]!;
      expect((await attempt(h, email, 'wrong', { 'x-forwarded-for': `203.0.113.${i}` })).statusCode).toBe(401);
    }
    expect((await attempt(h, ALICE.email, ALICE.password, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(200);
    expect((await attempt(h, ` ${ALICE.email}`, ALICE.password, { 'x-forwarded-for': '198.51.100.8' })).statusCode).toBe(401);
    // The same account in other letters is found, so counted, as itself.
    for (let i = 0; i < 6; i++) {
      expect((await attempt(h, ALICE.email.toUpperCase(), 'wrong', { 'x-forwarded-for': `203.0.113.${10 + i}` })).statusCode).toBe(401);
    }
    expect((await attempt(h, ALICE.email, ALICE.password, { 'x-forwarded-for': '198.51.100.9' })).statusCode).toBe(429);
  });

  it('keeps password spraying from one address in check with a per-address cap over all accounts', async () => {
    const h = await start({ trustProxy: true, loginLimits: { pair: 2, account: 6, address: 8 } });
    const sprayer = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 8; i++) expect((await attempt(h, `user${i}@example.com`, 'Summer2026!', sprayer)).statusCode).toBe(401);
    const blocked = await attempt(h, `user99@example.com`, 'Summer2026!', sprayer);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'too-many-attempts', requestId: expect.any(String) });
    expect((await attempt(h, BOB.email, BOB.password, sprayer)).statusCode).toBe(429);
    expect((await attempt(h, BOB.email, BOB.password, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    // Keyed on the full address, one /64 had 2^64 per-address budgets of 8.
    const h = await start({ trustProxy: true, loginLimits: { pair: 2, account: 50, address: 8 } });
    for (let i = 0; i < 8; i++) {
      const from = { 'x-forwarded-for': `2001:db8:1:2:${(i + 1).toString(16)}::${i + 1}` };
      expect((await attempt(h, `user${i}@example.com`, 'x', from)).statusCode).toBe(401);
    }
    for (const same of ['2001:db8:1:2::99', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:1']) {
      expect((await attempt(h, BOB.email, BOB.password, { 'x-forwarded-for': same })).statusCode, same).toBe(429);
    }
    expect((await attempt(h, BOB.email, BOB.password, { 'x-forwarded-for': '2001:db8:1:3::1' })).statusCode).toBe(200);
    for (let i = 0; i < 8; i++) {
      const from = { 'x-forwarded-for': i % 2 ? '203.0.113.9' : '::ffff:203.0.113.9' };
      expect((await attempt(h, `user${i}@example.com`, 'x', from)).statusCode).toBe(401);
    }
    for (const same of ['203.0.113.9', '::ffff:203.0.113.9', '::ffff:cb00:7109']) {
      expect((await attempt(h, BOB.email, BOB.password, { 'x-forwarded-for': same })).statusCode, same).toBe(429);
    }
  });

  it('ignores X-Forwarded-For unless trustProxy is set, so a client cannot pick its own address', async () => {
    const h = await start({ loginLimits: { pair: 2, account: 6, address: 4 } });
    for (let i = 0; i < 4; i++) await attempt(h, `user${i}@example.com`, 'x', { 'x-forwarded-for': `203.0.113.${i}` });
    expect((await attempt(h, BOB.email, BOB.password, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
  });

  it('lets concurrent wrong guesses through no further than the limit', async () => {
    const h = await start({ loginLimits: { pair: 3, account: 100, address: 100 } });
    const answers = await Promise.all(Array.from({ length: 12 }, () => attempt(h, ALICE.email, 'wrong')));
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(9);
  });

  it('forgets the failures of an account and address after a successful login there', async () => {
    const h = await start({ loginLimits: { pair: 3, account: 100, address: 100 } });
    for (let i = 0; i < 2; i++) expect((await attempt(h, ALICE.email, 'wrong')).statusCode).toBe(401);
    expect((await attempt(h, ALICE.email, ALICE.password)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await attempt(h, ALICE.email, 'wrong')).statusCode).toBe(401);
    expect((await attempt(h, ALICE.email, ALICE.password)).statusCode).toBe(200);
  });
});

describe('login error answers', () => {
  // One app for these: none of them reaches a limit.
  let shared: Harness;
  beforeAll(async () => {
    shared = await harness();
  });
  afterAll(async () => {
    await shared.close();
  });

  it.each([
    ['an empty body (400)', { payload: '' }, 400],
    ['malformed JSON (400)', { payload: '{"email":' }, 400],
    ['a text/plain body (400)', { payload: 'hi', headers: { 'content-type': 'text/plain' } }, 400],
    ['a wrong password (401)', { payload: { email: ALICE.email, password: 'nope', grant_type: 'password' } }, 401],
    ['a missing grant_type (500)', { payload: { email: ALICE.email, password: ALICE.password } }, 500],
    ['a body over 2 MiB (413)', { payload: { email: 'x'.repeat(2 * 1024 * 1024 + 10) } }, 413],
  ])('are never cacheable: %s', async (_name, request, status) => {
    const res = await shared.app.inject({ method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, ...request });
    expect(res.statusCode).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('are never cacheable when refused for too many attempts (429)', async () => {
    const h = await start({ maxLoginFailures: 1 });
    await attempt(h, ALICE.email, 'wrong');
    const res = await attempt(h, ALICE.email, ALICE.password);
    expect(res.statusCode).toBe(429);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
