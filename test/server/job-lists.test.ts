// GET /IntencaoImpressao/GetAll (issue 23 §2): the account's jobs as light rows (no conteudo, no
// bytes, no history), newest first, filtered by estado, terminalId, referencia, desde and ate, a page
// at a time by an opaque cursor, 50 by default and at most 500; paging stays exact while Inserts run
// between (and beside) the pages; another account's jobs never show.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newApiKey, sha256 } from '../../src/server/auth/secrets.js';
import { REFERENCIA_MAX } from '../../src/server/schemas/intentions.js';
import { harness, login, BOB, type Harness } from './helpers.js';

let h: Harness;
let token: string;
let aliceId: string;

const insert = (body: object, key = token) => h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: body });
const getAll = (query: string, key = token) => h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetAll?key=${key}${query ? `&${query}` : ''}` });

interface Row { id: number; dataCriacao: string; [k: string]: unknown }
interface Page { data: string; intencoes: Row[]; proximoCursor: string | null }

async function allPages(query: string, between: () => Promise<unknown> = async () => undefined): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const res = await getAll(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.statusCode).toBe(200);
    const page = res.json() as Page;
    rows.push(...page.intencoes);
    if (!page.proximoCursor) return rows;
    cursor = page.proximoCursor;
    await between();
  }
  throw new Error('too many pages');
}

/** An API key of the account (no password login: scrypt costs each test ~0.3 s on a loaded machine). */
async function apiKey(accountId: string): Promise<string> {
  const key = newApiKey();
  await h.store.createApiKey(accountId, 'test', sha256(key));
  return key;
}

beforeEach(async () => {
  h = await harness();
  aliceId = (await h.store.accounts.findByEmail('alice@example.com'))!.id;
  token = await apiKey(aliceId);
});
afterEach(async () => h.close());

describe('GET /IntencaoImpressao/GetAll', () => {
  it('answers light rows, newest first: the summary fields plus reimpressaoDe and reimpressoes, no conteudo, bytes or history', async () => {
    const first = (await insert({ conteudo: 'primeiro<paperCutFull>', terminalId: 'CAIXA-01', referencia: 'pedido-1' })).json().intencaoImpressao;
    const second = (await insert({ conteudo: 'segundo', terminalId: 'CAIXA-01', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao;
    const res = await getAll('');
    expect(res.statusCode).toBe(200);
    const page = res.json() as Page;
    expect(Object.keys(page)).toEqual(['data', 'intencoes', 'proximoCursor']);
    expect(page.proximoCursor).toBeNull();
    expect(page.intencoes.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(Object.keys(page.intencoes[1]!)).toEqual([
      'id', 'referencia', 'terminalId', 'impressoraId', 'codigoImpressora', 'aguardarClienteIniciarImpressao', 'status', 'tamanhoBytes',
      'dataCriacao', 'estado', 'motivos', 'tentativas', 'confirmacao', 'reportesIgnorados', 'reimpressaoDe', 'reimpressoes',
    ]);
    const { conteudo: _c, diagnostics: _d, historico: _h, ...light } = first;
    expect(page.intencoes[1]).toEqual(light);
    expect(page.intencoes[0]).toMatchObject({ estado: 'held', aguardarClienteIniciarImpressao: true });
  });

  it('filters by estado, terminalId, referencia, desde and ate, alone or together', async () => {
    await h.store.terminals.put({ accountId: aliceId, terminalId: 'CAIXA-02', printerId: 1, enabled: true });
    const a = (await insert({ conteudo: 'a', terminalId: 'CAIXA-01', referencia: 'pedido-1' })).json().intencaoImpressao;
    const b = (await insert({ conteudo: 'b', terminalId: 'CAIXA-02', referencia: 'pedido-1', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao;
    const c = (await insert({ conteudo: 'c', terminalId: 'CAIXA-01', referencia: 'pedido-2' })).json().intencaoImpressao;
    const ids = async (q: string) => {
      const res = await getAll(q);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Page).intencoes.map((r) => r.id);
    };
    expect(await ids('estado=held')).toEqual([b.id]);
    expect(await ids('estado=queued')).toEqual([c.id, a.id]);
    expect(await ids('terminalId=CAIXA-01')).toEqual([c.id, a.id]);
    expect(await ids('referencia=pedido-1')).toEqual([b.id, a.id]);
    expect(await ids('referencia=pedido-1&terminalId=CAIXA-01&estado=queued')).toEqual([a.id]);
    expect(await ids('estado=completed')).toEqual([]);
    const created = (await h.store.intentions.get(aliceId, b.id))!.createdAt;
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    expect(await ids(`desde=${iso(created.getTime())}&ate=${iso(created.getTime())}`)).toEqual([b.id]);
    expect(await ids(`ate=${iso(created.getTime() - 1)}`)).not.toContain(b.id);
    expect(await ids(`desde=${iso(Date.now() + 60_000)}`)).toEqual([]);
    // Offsets other than Z mean the same instant.
    expect(await ids(`desde=${encodeURIComponent('2000-01-01T03:00:00+03:00')}`)).toEqual([c.id, b.id, a.id]);
  });

  it('takes a referencia of up to 2,000 characters, which the filter finds; a longer one is refused at Insert, so every row stays light', async () => {
    const longest = 'R'.repeat(2000);
    expect(REFERENCIA_MAX).toBe(2000);
    const stored = await insert({ conteudo: 'x', terminalId: 'CAIXA-01', referencia: longest });
    expect(stored.statusCode, stored.body).toBe(200);
    expect((await getAll(`referencia=${longest}`)).json().intencoes.map((r: Row) => r.id)).toEqual([stored.json().intencaoImpressao.id]);
    const over = await insert({ conteudo: 'x', terminalId: 'CAIXA-01', referencia: `${longest}R` });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 'invalid-request' });
    expect(over.json().message).toContain('referencia');
    expect((await getAll('')).json().intencoes).toHaveLength(1);
  });

  it('pages by cursor, 50 by default, at most 500, and refuses a bad limite, cursor, estado or date with a problem', async () => {
    for (let i = 0; i < 53; i++) await h.store.intentions.insert({
      accountId: aliceId, referencia: `r${i}`, conteudo: 'x', terminalId: 'CAIXA-01', impressoraId: 1,
      codigoImpressora: 'MAKER1MP4200', aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada', bytes: new Uint8Array([1]), diagnostics: [], createdAt: new Date(1_700_000_000_000 + (i % 5)),
    });
    const first = (await getAll('')).json() as Page;
    expect(first.intencoes).toHaveLength(50);
    expect(first.proximoCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const rest = (await getAll(`cursor=${first.proximoCursor}`)).json() as Page;
    expect(rest.intencoes).toHaveLength(3);
    expect(rest.proximoCursor).toBeNull();
    expect(new Set([...first.intencoes, ...rest.intencoes].map((r) => r.id)).size).toBe(53);
    expect((await getAll('limite=500')).json().intencoes).toHaveLength(53);
    expect((await allPages('limite=4')).map((r) => r.id)).toEqual([...first.intencoes, ...rest.intencoes].map((r) => r.id));
    for (const q of ['limite=501', 'limite=0', 'limite=-1', 'limite=abc', 'cursor=nope!', 'cursor=bm9wZQ', 'estado=printed', 'desde=yesterday', 'ate=2026-13-01T00:00:00Z']) {
      const res = await getAll(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ code: 'invalid-request', requestId: expect.any(String) });
      expect(res.body).not.toMatch(/\s+at\s/);
    }
  });

  it('never shows a job twice nor skips one, while Inserts run between and beside the pages', async () => {
    const before: number[] = [];
    for (let i = 0; i < 30; i++) before.push((await insert({ conteudo: `j${i}`, terminalId: 'CAIXA-01' })).json().intencaoImpressao.id);
    const inserted: Promise<unknown>[] = [];
    const rows = await allPages('limite=7', async () => {
      // Two Inserts beside the next page's request, one awaited before it.
      inserted.push(insert({ conteudo: 'beside', terminalId: 'CAIXA-01' }), insert({ conteudo: 'beside', terminalId: 'CAIXA-01' }));
      await insert({ conteudo: 'between', terminalId: 'CAIXA-01' });
    });
    await Promise.all(inserted);
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].filter((id) => before.includes(id)).sort((x, y) => x - y)).toEqual(before);
    // Newest first throughout.
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
  });

  it("shows only the caller's account, and takes the same keys as GetById", async () => {
    const mine = (await insert({ conteudo: 'a', terminalId: 'CAIXA-01', referencia: 'shared' })).json().intencaoImpressao;
    const bobToken = await apiKey((await h.store.accounts.findByEmail(BOB.email))!.id);
    const bobs = (await insert({ conteudo: 'b', terminalId: 'BOB-01', referencia: 'shared' }, bobToken)).json().intencaoImpressao;
    expect((await getAll('referencia=shared')).json().intencoes.map((r: Row) => r.id)).toEqual([mine.id]);
    expect((await getAll('referencia=shared', bobToken)).json().intencoes.map((r: Row) => r.id)).toEqual([bobs.id]);
    expect((await getAll('terminalId=BOB-01')).json().intencoes).toEqual([]);
    // A cursor names a position only: Bob's, given to Alice's list, still shows only Alice's jobs.
    await insert({ conteudo: 'b2', terminalId: 'BOB-01' }, bobToken);
    const bobCursor = (await getAll('limite=1', bobToken)).json().proximoCursor;
    expect((await getAll(`cursor=${bobCursor}`)).json().intencoes.map((r: Row) => r.id)).toEqual([mine.id]);
    expect((await h.app.inject({ method: 'GET', url: '/IntencaoImpressao/GetAll' })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/IntencaoImpressao/GetAll', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    // An access token from the password login works as on GetById.
    const access = (await login(h.app)).access_token;
    expect((await h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetAll?key=${access}` })).json().intencoes).toHaveLength(1);
  });
});
