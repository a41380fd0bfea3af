// The partner's job actions of issue 23: Reimprimir (§4: a new job linked to the first and counted
// on it, with an escaped marker line), Iniciar (the terminal's start rule, asked by the partner), and
// GetBytes (the stored bytes, exactly what the terminal's client is handed), each scoped to the
// caller's account.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compile, escape } from '../../src/index.js';
import { newApiKey, sha256 } from '../../src/server/auth/secrets.js';
import type { JobEvent } from '../../src/server/jobs/events.js';
import { harness, BOB, type Harness } from './helpers.js';

let h: Harness;
let token: string;
let bobToken: string;
let aliceId: string;
let events: JobEvent[];

const insert = (body: object, key = token) => h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: body });
const getById = (id: number, key = token) => h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${id}` });
const reprint = (id: number, body?: object, key = token, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Reimprimir?key=${key}&intencaoImpressaoId=${id}`, headers, ...(body ? { payload: body } : {}) });
const start = (id: number, key = token) => h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Iniciar?key=${key}&intencaoImpressaoId=${id}` });
const getBytes = (id: number, key = token) => h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetBytes?key=${key}&intencaoImpressaoId=${id}` });

async function terminalKey(terminalId: string) {
  const key = `bobt_test_${terminalId}`;
  await h.store.credentials.setTerminalKey(aliceId, terminalId, sha256(key), key.slice(0, 11));
  return key;
}
const next = (key: string) => h.app.inject({ method: 'POST', url: '/TerminalImpressao/ObterProxima?espera=0', headers: { authorization: `Bearer ${key}` } });
const report = (key: string, body: object) => h.app.inject({ method: 'POST', url: '/TerminalImpressao/Reportar', headers: { authorization: `Bearer ${key}` }, payload: body });

/** An API key of the account (no password login: scrypt costs each test ~0.3 s on a loaded machine). */
async function apiKey(accountId: string): Promise<string> {
  const key = newApiKey();
  await h.store.createApiKey(accountId, 'test', sha256(key));
  return key;
}

beforeEach(async () => {
  events = [];
  h = await harness({ jobEvents: async (_tx, e) => void events.push(e) });
  aliceId = (await h.store.accounts.findByEmail('alice@example.com'))!.id;
  token = await apiKey(aliceId);
  bobToken = await apiKey((await h.store.accounts.findByEmail(BOB.email))!.id);
});
afterEach(async () => h.close());

describe('POST /IntencaoImpressao/Reimprimir', () => {
  it('makes a new job for the same terminal and template from the same content, linked to the original and counted on it', async () => {
    const original = (await insert({ conteudo: 'Cupom<paperCutFull>', terminalId: 'CAIXA-01', referencia: 'pedido-7' })).json().intencaoImpressao;
    expect(original).toMatchObject({ reimpressaoDe: null, reimpressoes: 0 });
    const res = await reprint(original.id);
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json().intencaoImpressao;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      conteudo: original.conteudo, terminalId: 'CAIXA-01', referencia: 'pedido-7', impressoraId: original.impressoraId, codigoImpressora: original.codigoImpressora,
      estado: 'queued', reimpressaoDe: original.id, reimpressoes: 0, tamanhoBytes: original.tamanhoBytes,
    });
    expect((await getBytes(copy.id)).rawPayload).toEqual((await getBytes(original.id)).rawPayload);
    expect((await getById(original.id)).json().intencaoImpressao).toMatchObject({ reimpressaoDe: null, reimpressoes: 1, estado: 'queued' });
    expect((await getById(copy.id)).json().intencaoImpressao).toEqual(copy);
    // A reprint of a reprint links to the one named; every copy counts.
    const third = (await reprint(copy.id)).json().intencaoImpressao;
    expect(third.reimpressaoDe).toBe(copy.id);
    await reprint(original.id);
    expect((await getById(original.id)).json().intencaoImpressao.reimpressoes).toBe(2);
    expect((await getById(copy.id)).json().intencaoImpressao.reimpressoes).toBe(1);
    // The copy's insert is an event like any Insert's.
    expect(events.filter((e) => e.intencaoImpressaoId === copy.id).map((e) => e.estado)).toEqual(['queued']);
  });

  it('reprints a job in any state: a completed one, a canceled one, a held one stays held', async () => {
    const key = await terminalKey('CAIXA-01');
    const done = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    expect((await report(key, { intencaoImpressaoId: done.id, tokenEntrega: t.tokenEntrega, estado: 'completed' })).statusCode).toBe(200);
    expect((await reprint(done.id)).json().intencaoImpressao).toMatchObject({ estado: 'queued', reimpressaoDe: done.id });
    const canceled = (await insert({ conteudo: 'y', terminalId: 'CAIXA-01', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao;
    await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Cancelar?key=${token}&intencaoImpressaoId=${canceled.id}` });
    expect((await reprint(canceled.id)).json().intencaoImpressao).toMatchObject({ estado: 'held', aguardarClienteIniciarImpressao: true, reimpressaoDe: canceled.id });
    expect((await getById(canceled.id)).json().intencaoImpressao).toMatchObject({ estado: 'canceled', reimpressoes: 1 });
  });

  it('prints the marcador as written on a line above the content: escaped, so a tag in it is never a command', async () => {
    const original = (await insert({ conteudo: 'Cupom', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const marcador = '2ª VIA <cashDrawerOpen> &lt; <paperCutFull>';
    const copy = (await reprint(original.id, { marcador })).json().intencaoImpressao;
    expect(copy.conteudo).toBe(`${escape(marcador)}\nCupom`);
    const bytes = (await getBytes(copy.id)).rawPayload;
    expect(bytes).toEqual(Buffer.from(compile(`${escape(marcador)}\nCupom`, { printer: original.impressoraId }).bytes));
    // No drawer pulse (ESC p) and no cut (GS V) came from the marker: the same bytes as the marker's text alone.
    expect(bytes.includes(Buffer.from([0x1b, 0x70]))).toBe(false);
    expect(bytes.includes(Buffer.from([0x1d, 0x56]))).toBe(false);
    expect(bytes.includes(Buffer.from('<cashDrawerOpen> &lt; <paperCutFull>', 'latin1'))).toBe(true);
    // An empty marker is no marker.
    expect((await reprint(original.id, { marcador: '' })).json().intencaoImpressao.conteudo).toBe('Cupom');
  });

  it('refuses a marcador over 64 characters or with a control character, and an unknown or foreign job, counting nothing', async () => {
    const original = (await insert({ conteudo: 'Cupom', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    for (const marcador of ['x'.repeat(65), 'a\nb', 'a\u001bp', 'a\u0085b', '\ud800']) {
      const res = await reprint(original.id, { marcador });
      expect(res.statusCode, JSON.stringify(marcador)).toBe(400);
      expect(res.json().code).toBe('invalid-request');
    }
    expect((await reprint(original.id, { marcador: 'é'.repeat(64) })).statusCode).toBe(200);
    const bobs = await reprint(original.id, undefined, bobToken);
    expect(bobs.statusCode).toBe(404);
    expect(bobs.json()).toMatchObject({ code: 'intention-not-found' });
    expect((await reprint(999_999)).statusCode).toBe(404);
    expect((await getById(original.id)).json().intencaoImpressao.reimpressoes).toBe(1);
    expect((await h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetAll?key=${bobToken}` })).json().intencoes).toEqual([]);
  });

  it('replays the first answer for a repeated Idempotency-Key instead of making a third copy', async () => {
    const original = (await insert({ conteudo: 'Cupom', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const first = await reprint(original.id, { marcador: '2ª VIA' }, token, { 'idempotency-key': 'k1' });
    const again = await reprint(original.id, { marcador: '2ª VIA' }, token, { 'idempotency-key': 'k1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect((await reprint(original.id, { marcador: '3ª VIA' }, token, { 'idempotency-key': 'k1' })).statusCode).toBe(422);
    expect((await getById(original.id)).json().intencaoImpressao.reimpressoes).toBe(1);
  });

  it('refuses a job whose terminal no longer prints (409 terminal-disabled)', async () => {
    const original = (await insert({ conteudo: 'Cupom', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    await h.store.terminals.put({ accountId: aliceId, terminalId: 'CAIXA-01', printerId: 1, enabled: false });
    const res = await reprint(original.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('terminal-disabled');
    expect((await getById(original.id)).json().intencaoImpressao.reimpressoes).toBe(0);
  });
});

describe('POST /IntencaoImpressao/Iniciar', () => {
  it('starts a held job, as the terminal\'s Iniciar does, and refuses one not waiting to be started with 409', async () => {
    const held = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao;
    const res = await start(held.id);
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json().intencaoImpressao;
    expect(started).toMatchObject({ id: held.id, estado: 'queued' });
    expect(started.historico.at(-1)).toMatchObject({ evento: 'start', origem: 'server', detalhe: 'started by the partner' });
    const again = await start(held.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'job-not-startable', estado: 'queued' });
    const key = await terminalKey('CAIXA-01');
    expect((await next(key)).json().trabalho.intencaoImpressaoId).toBe(held.id);
  });

  it('prints again a job stopped with an unknown outcome (reprint flag set), and never one stopped for its printer', async () => {
    const key = await terminalKey('CAIXA-01');
    const unknown = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    await report(key, { intencaoImpressaoId: unknown.id, tokenEntrega: t.tokenEntrega, estado: 'stopped', motivos: ['outcome-unknown'] });
    const res = await start(unknown.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().intencaoImpressao.historico.at(-1)).toMatchObject({ evento: 'start', detalhe: 'started again by the partner after an unknown outcome' });
    expect((await next(key)).json().trabalho).toMatchObject({ intencaoImpressaoId: unknown.id, reimprimir: true });

    const paper = (await insert({ conteudo: 'y', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t2 = (await next(key)).json().trabalho;
    expect(t2.intencaoImpressaoId).toBe(paper.id);
    await report(key, { intencaoImpressaoId: paper.id, tokenEntrega: t2.tokenEntrega, estado: 'stopped', motivos: ['media-empty'] });
    const refused = await start(paper.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'job-not-startable', estado: 'stopped' });
  });

  it('lets a job print again once per Iniciar: a reprint whose lease ran out, or that stopped with an unknown outcome, is offered without it', async () => {
    const key = await terminalKey('CAIXA-01');
    const job = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const stopUnknown = async () => {
      const t = (await next(key)).json().trabalho;
      expect((await report(key, { intencaoImpressaoId: job.id, tokenEntrega: t.tokenEntrega, estado: 'stopped', motivos: ['outcome-unknown'] })).json().aceito).toBe(true);
    };
    await stopUnknown();
    expect((await start(job.id)).statusCode).toBe(200);

    // The reprint begins (printing), and its client is killed: the lease runs out, and the job is
    // offered again without the reprint, so the client's journal (writing, unfinished) stops it.
    const reprint1 = (await next(key)).json().trabalho;
    expect(reprint1).toMatchObject({ intencaoImpressaoId: job.id, reimprimir: true });
    await report(key, { intencaoImpressaoId: job.id, tokenEntrega: reprint1.tokenEntrega, estado: 'printing' });
    expect(await h.app.jobs.sweeps.expireLeases(new Date(Date.now() + 120_000))).toBe(1);
    const after = (await next(key)).json().trabalho;
    expect(after).toMatchObject({ intencaoImpressaoId: job.id, reimprimir: false });
    await report(key, { intencaoImpressaoId: job.id, tokenEntrega: after.tokenEntrega, estado: 'stopped', motivos: ['outcome-unknown'] });

    // Started again, the reprint is cut off by the printer (unknown outcome): used up too.
    expect((await start(job.id)).statusCode).toBe(200);
    await stopUnknown();
    expect((await getById(job.id)).json().intencaoImpressao).toMatchObject({ estado: 'stopped', motivos: ['outcome-unknown'] });
    expect((await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Recompilar?key=${token}&intencaoImpressaoId=${job.id}` })).statusCode).toBe(200);
    expect((await next(key)).json().trabalho).toMatchObject({ intencaoImpressaoId: job.id, reimprimir: false });
  });

  it('keeps a reprint through a stop for the printer (nothing was written), and ends it when the job completes', async () => {
    const key = await terminalKey('CAIXA-01');
    const job = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const first = (await next(key)).json().trabalho;
    await report(key, { intencaoImpressaoId: job.id, tokenEntrega: first.tokenEntrega, estado: 'stopped', motivos: ['outcome-unknown'] });
    expect((await start(job.id)).statusCode).toBe(200);
    const reprint1 = (await next(key)).json().trabalho;
    await report(key, { intencaoImpressaoId: job.id, tokenEntrega: reprint1.tokenEntrega, estado: 'stopped', motivos: ['media-empty'] });
    expect((await h.app.inject({ method: 'POST', url: '/TerminalImpressao/Retomar', headers: { authorization: `Bearer ${key}` } })).json().retomadas).toBe(1);
    const reprint2 = (await next(key)).json().trabalho;
    expect(reprint2).toMatchObject({ intencaoImpressaoId: job.id, reimprimir: true });
    await report(key, { intencaoImpressaoId: job.id, tokenEntrega: reprint2.tokenEntrega, estado: 'completed', confirmacao: 'printer' });
    expect((await h.store.intentions.get(aliceId, job.id))!.reprint).toBe(false);
  });

  it("answers 404 for another account's job and changes nothing", async () => {
    const held = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao;
    const res = await start(held.id, bobToken);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('intention-not-found');
    expect((await getById(held.id)).json().intencaoImpressao.estado).toBe('held');
  });
});

describe('GET /IntencaoImpressao/GetBytes', () => {
  it("answers the stored bytes, exactly what the terminal's client is handed, with the template's code", async () => {
    const key = await terminalKey('CAIXA-01');
    const job = (await insert({ conteudo: '<textAlignCenter>Olá, mundo\n<qrcode>https://example.com</qrcode><paperCutFull>', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const res = await getBytes(job.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['x-codigo-impressora']).toBe(job.codigoImpressora);
    expect(res.rawPayload.length).toBe(job.tamanhoBytes);
    const trabalho = (await next(key)).json().trabalho;
    expect(res.rawPayload).toEqual(Buffer.from(trabalho.bytes, 'base64'));
    expect(trabalho.codigoImpressora).toBe(res.headers['x-codigo-impressora']);
  });

  it("answers 404 for another account's job or an unknown one, and 400 for a bad id", async () => {
    const job = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    for (const res of [await getBytes(job.id, bobToken), await getBytes(999_999)]) {
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().code).toBe('intention-not-found');
    }
    expect((await h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetBytes?key=${token}&intencaoImpressaoId=abc` })).statusCode).toBe(400);
    expect((await h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetBytes?intencaoImpressaoId=${job.id}` })).statusCode).toBe(401);
  });

  it('lists every new endpoint in the OpenAPI document', async () => {
    const paths = Object.keys((await h.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths);
    for (const p of ['/IntencaoImpressao/GetAll', '/IntencaoImpressao/Reimprimir', '/IntencaoImpressao/Iniciar', '/IntencaoImpressao/GetBytes']) expect(paths).toContain(p);
  });
});
