// A real `bobina serve` process compiles on worker threads: while one worst-case Insert is being
// compiled, other requests are still answered; accounts take the pool's threads in turn; a compile
// past its time budget is ended. Checked by order of answers and of ids, never by wall time.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bobina, STACK } from '../support/cli.js';
import { startServe, stop, type Served } from '../support/serve.js';

let dir: string;
let db: string;
let served: Served | undefined;
let base: string;

const USERS = ['pool@example.com', 'flood@example.com', 'small@example.com'];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bobina-pool-'));
  db = join(dir, 'db.sqlite');
  for (const email of USERS) {
    const add = bobina(['users', 'add', '--email', email, '--password', 'pool-pw', '--name', 'Pool', '--db', db]);
    expect(add.code, add.stderr).toBe(0);
  }
  served = await startServe({ flags: ['--db', db] });
  base = served.base;
}, 60_000);

afterAll(async () => {
  if (served) await stop(served.proc);
  rmSync(dir, { recursive: true, force: true });
});

async function keyOf(email: string, at = base): Promise<string> {
  const login = await fetch(`${at}/auth/reconciliation/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'pool-pw', grant_type: 'password' }),
  });
  return ((await login.json()) as { access_token: string }).access_token;
}

interface Answer {
  status: number;
  body: { code?: string; budgetMs?: number; intencaoImpressao?: { id: number; diagnostics: { code: string }[]; tamanhoBytes: number } };
}

async function insert(key: string, conteudo: string, impressoraId: number, at = base): Promise<Answer> {
  const r = await fetch(`${at}/IntencaoImpressao/Insert?key=${key}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ conteudo, impressoraId }),
  });
  return { status: r.status, body: (await r.json()) as Answer['body'] };
}

/** The most expensive job the limits allow for its size: 16 large raster QR codes for the DR800. */
const HEAVY = `<qrcode>${'a'.repeat(2300)}</qrcode>\n`.repeat(16);

describe('bobina serve compiles off the main thread', () => {
  it('answers /health while a worst-case Insert is still compiling', async () => {
    const key = await keyOf('pool@example.com');
    let insertDone = false;
    const pending = insert(key, HEAVY, 3).finally(() => { insertDone = true; });
    // Compiled on the main thread, at most the one or two /health asked before the compile began
    // would be answered before the Insert; on a worker, /health keeps being answered.
    let answeredMeanwhile = 0;
    while (!insertDone && answeredMeanwhile < 8) {
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      if (!insertDone) answeredMeanwhile++;
    }
    expect(answeredMeanwhile).toBe(8);
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.intencaoImpressao!.diagnostics.map((d) => d.code)).toEqual(Array(16).fill('lower/qr-raster-fallback'));
  }, 30_000);

  it('compiles one letter followed by 2 MiB of alternating combining marks, keeping 30 of them', async () => {
    // Normalising the run whole took about 4 minutes at this size (issue 20, point 6).
    const key = await keyOf('pool@example.com');
    const res = await insert(key, `a${'\u0301\u0327'.repeat(512 * 1024 - 64)}`, 5);
    expect(res.status).toBe(200);
    expect(res.body.intencaoImpressao!.diagnostics.map((d) => d.code)).toEqual(['text/transliterated', 'text/marks-removed']);
  }, 60_000);
});

describe('the compile pool takes accounts in turn', () => {
  it("compiles another account's small Insert before most of a 24-Insert flood that came first", async () => {
    const flood = await keyOf('flood@example.com');
    const small = await keyOf('small@example.com');
    const FLOOD = 24;
    let firstAnswered!: () => void;
    const first = new Promise<void>((resolve) => (firstAnswered = resolve));
    const floods = Array.from({ length: FLOOD }, () => insert(flood, HEAVY, 3).finally(() => firstAnswered()));
    // Once one of the flood is answered, all 24 (36 KiB each, sent at once) are waiting in the pool.
    await first;
    const mine = await insert(small, 'Olá', 5);
    const theirs = await Promise.all(floods);
    expect(mine.status).toBe(200);
    expect(theirs.map((r) => r.status)).toEqual(Array(FLOOD).fill(200));
    // Ids follow the order compiles finished in. First come, first served would compile all 24
    // before the small job; taken in turn, it has the next free thread: the flood compiled before
    // it is those running when it came (one per thread) and those done before it was sent.
    const before = theirs.filter((r) => r.body.intencaoImpressao!.id < mine.body.intencaoImpressao!.id).length;
    const threads = availableParallelism();
    expect(before).toBeLessThanOrEqual(Math.min(FLOOD / 2, 3 * threads + 2));
  }, 120_000);
});

describe('a compile past the time budget (--compile-timeout)', () => {
  it('is answered 422 compile-timeout, and the server goes on answering', async () => {
    const budget = await startServe({ flags: ['--db', db, '--compile-timeout', '5ms'] });
    try {
      const key = await keyOf('pool@example.com', budget.base);
      // 2 MiB of "<": at least hundreds of milliseconds to parse, on any machine.
      const res = await insert(key, '<'.repeat(2 * 1024 * 1024 - 256), 5, budget.base);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'compile-timeout', budgetMs: 5 });
      expect((await fetch(`${budget.base}/health`)).status).toBe(200);
      expect(budget.stderr()).not.toMatch(STACK);
    } finally {
      await stop(budget.proc);
    }
  }, 60_000);
});
