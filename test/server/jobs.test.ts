// The job lifecycle through the API (issue 11 §1, §2): states, reasons, attempts, confirmation and
// history on Insert/GetById; cancel; expiry; held jobs; the terminal client protocol (long-poll,
// reports with the delivery token, stale tokens, leases); credentials scoped to one terminal; and
// the JobEvent every change hands to the app's sink, numbered like the history.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compile } from '../../src/index.js';
import { sha256 } from '../../src/server/auth/secrets.js';
import type { JobEvent } from '../../src/server/jobs/events.js';
import { allows, fromStates, MAX_DELIVERIES, phaseOf, target, transition, TRANSITIONS, WAITS_FOR_PERSON, type LifecycleEvent } from '../../src/server/jobs/lifecycle.js';
import type { JobState } from '../../src/server/store/types.js';
import { POLLS_PER_TERMINAL } from '../../src/server/jobs/terminal.js';
import { harness, login, type Harness } from './helpers.js';

let h: Harness;
let token: string;
let events: JobEvent[];
let aliceId: string;
let bobId: string;

async function terminalKey(accountId: string, terminalId: string, key = `bobt_test_${terminalId}`) {
  await h.store.credentials.setTerminalKey(accountId, terminalId, sha256(key), key.slice(0, 11));
  return key;
}

const insert = (body: object, key = token) => h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: body });
const getById = (id: number) => h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetById?key=${token}&intencaoImpressaoId=${id}` });
const cancel = (id: number) => h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Cancelar?key=${token}&intencaoImpressaoId=${id}` });
const next = (key: string, espera = '0') => h.app.inject({ method: 'POST', url: `/TerminalImpressao/ObterProxima?espera=${espera}`, headers: { authorization: `Bearer ${key}` } });
const report = (key: string, body: object) => h.app.inject({ method: 'POST', url: '/TerminalImpressao/Reportar', headers: { authorization: `Bearer ${key}` }, payload: body });

beforeEach(async () => {
  events = [];
  h = await harness({ jobEvents: async (_tx, e) => void events.push(e), jobs: { leaseMs: 60_000, maxAttempts: 2, ttlMs: 3_600_000 } });
  token = (await login(h.app)).access_token;
  aliceId = (await h.store.accounts.findByEmail('alice@example.com'))!.id;
  bobId = (await h.store.accounts.findByEmail('bob@example.com'))!.id;
});
afterEach(async () => h.close());

describe('the lifecycle table', () => {
  it('gives every event one target state and final states no way out', () => {
    const events = new Set(Object.values(TRANSITIONS).flatMap((row) => Object.keys(row))) as Set<LifecycleEvent>;
    for (const e of events) expect(() => target(e)).not.toThrow();
    for (const s of ['completed', 'failed', 'canceled', 'expired'] as const) expect(TRANSITIONS[s]).toEqual({});
    expect(fromStates('cancel').sort()).toEqual(['held', 'queued', 'stopped']);
    expect(fromStates('acquire')).toEqual(['queued']);
  });

  it('tells a stopped job that waits for a person from one that waits for its printer, by its reasons', () => {
    const stopped = (...motivos: string[]) => ({ estado: 'stopped' as const, motivos });
    expect(phaseOf(stopped('media-empty'))).toBe('stopped');
    expect(phaseOf(stopped('outcome-unknown', 'media-empty'))).toBe('unknown-outcome');
    expect(phaseOf(stopped('printer-mismatch'))).toBe('mismatched');
    expect(allows(stopped('cover-open'), 'resume')).toBe(true);
    expect(allows(stopped('cover-open'), 'start')).toBe(false);
    expect(allows(stopped('outcome-unknown'), 'start')).toBe(true);
    expect(allows(stopped('outcome-unknown'), 'resume')).toBe(false);
    expect(allows(stopped('printer-mismatch'), 'start')).toBe(false);
    expect(allows(stopped('printer-mismatch'), 'recompile')).toBe(true);
    // What the stores' claim reads: these stopped jobs do not hold their terminal's queue back.
    expect(WAITS_FOR_PERSON).toEqual({ estado: 'stopped', motivos: ['outcome-unknown', 'printer-mismatch'] });
    expect(fromStates('start')).toEqual(['held', 'stopped']);
  });
});

describe('Insert and GetById', () => {
  it('add estado, motivos, tentativas, confirmacao, historico, reportesIgnorados, reimpressaoDe and reimpressoes after the existing fields', async () => {
    const res = await insert({ conteudo: 'Olá<paperCutFull>', terminalId: 'CAIXA-01' });
    const i = res.json().intencaoImpressao;
    expect(Object.keys(i)).toEqual([
      'id', 'referencia', 'conteudo', 'terminalId', 'impressoraId', 'codigoImpressora', 'aguardarClienteIniciarImpressao', 'status',
      'diagnostics', 'tamanhoBytes', 'dataCriacao', 'estado', 'motivos', 'tentativas', 'confirmacao', 'historico', 'reportesIgnorados',
      'reimpressaoDe', 'reimpressoes',
    ]);
    expect(i).toMatchObject({ status: 'ImpressaoEnviada', estado: 'queued', motivos: [], tentativas: 0, confirmacao: 'none', reportesIgnorados: 0, reimpressaoDe: null, reimpressoes: 0 });
    expect(i.historico).toEqual([{ estado: 'queued', motivos: [], origem: 'server', data: expect.stringMatching(/^\d\d\/\d\d\/\d{4} /), evento: 'insert-queued', detalhe: null }]);
    expect((await getById(i.id)).json().intencaoImpressao).toEqual(i);
    expect(events).toEqual([expect.objectContaining({ accountId: aliceId, intencaoImpressaoId: i.id, estado: 'queued', status: 'ImpressaoEnviada', sequence: 1 })]);
  });

  it('records the generic-printer rule as completed without confirmation, and aguardarClienteIniciarImpressao as held', async () => {
    const generic = (await insert({ conteudo: 'x', terminalId: 'ANDROID' })).json().intencaoImpressao;
    expect(generic).toMatchObject({ status: 'Impresso', estado: 'completed', confirmacao: 'none' });
    const held = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao;
    expect(held).toMatchObject({ status: 'ImpressaoEnviada', estado: 'held' });
  });

  it('says when a job without a terminal has no terminal to take it', async () => {
    const lonely = (await insert({ conteudo: 'x', impressoraId: 2 })).json().intencaoImpressao;
    expect(lonely).toMatchObject({ estado: 'queued', motivos: ['no-route'] });
  });

  it('needs codigoImpressora for a terminal without a linked printer', async () => {
    await h.store.terminals.put({ accountId: aliceId, terminalId: 'SEM-IMPRESSORA', printerId: null, enabled: true });
    expect((await insert({ conteudo: 'x', terminalId: 'SEM-IMPRESSORA' })).json())
      .toMatchObject({ code: 'printer-required', terminalId: 'SEM-IMPRESSORA', message: 'This terminal has no linked printer: name one with codigoImpressora' });
    const ok = (await insert({ conteudo: 'x', terminalId: 'SEM-IMPRESSORA', codigoImpressora: 'MAKER4I9' })).json().intencaoImpressao;
    expect(ok).toMatchObject({ terminalId: 'SEM-IMPRESSORA', impressoraId: 4, estado: 'queued' });
  });
});

describe('Cancelar', () => {
  it('cancels a queued job, and answers 409 once it is final or acquired', async () => {
    const a = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const canceled = await cancel(a.id);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().intencaoImpressao).toMatchObject({ status: 'Cancelado', estado: 'canceled' });
    expect(canceled.json().intencaoImpressao.historico.map((x: { estado: string }) => x.estado)).toEqual(['queued', 'canceled']);
    expect((await cancel(a.id)).statusCode).toBe(409);

    const key = await terminalKey(aliceId, 'CAIXA-01');
    const b = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect((await next(key)).json().trabalho.intencaoImpressaoId).toBe(b.id);
    const refused = await cancel(b.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'job-not-cancelable', estado: 'acquired' });
    expect((await cancel(999)).statusCode).toBe(404);
  });
});

describe('the terminal client protocol', () => {
  it('hands the job with its compiled bytes and a token, and takes the report', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const conteudo = 'Recibo<br><b>Total</b><paperCutFull>';
    const i = (await insert({ conteudo, terminalId: 'CAIXA-01', referencia: 'r1' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    expect(t).toMatchObject({ intencaoImpressaoId: i.id, referencia: 'r1', codigoImpressora: 'MAKER1MP4200', tentativas: 1, reimprimir: false });
    expect(Buffer.from(t.bytes, 'base64')).toEqual(Buffer.from(compile(conteudo, { printer: 'MAKER1MP4200' }).bytes));
    expect((await getById(i.id)).json().intencaoImpressao).toMatchObject({ estado: 'acquired', tentativas: 1 });

    expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'printing' })).json().aceito).toBe(true);
    const done = (await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'completed', confirmacao: 'printer', motivos: ['media-low'] })).json();
    expect(done.aceito).toBe(true);
    expect(done.intencaoImpressao).toMatchObject({ status: 'Impresso', estado: 'completed', confirmacao: 'printer', motivos: ['media-low'] });
    const history = async () => (await getById(i.id)).json().intencaoImpressao.historico as { estado: string; origem: string; evento: string }[];
    expect((await history()).map((x) => `${x.estado}/${x.origem}`)).toEqual([
      'queued/server', 'acquired/server', 'printing/client', 'completed/printer',
    ]);
    // A repeated report changes nothing: counted, recorded and ignored.
    const again = (await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'failed', motivos: ['other'] })).json();
    expect(again).toMatchObject({ aceito: false, intencaoImpressao: { estado: 'completed', reportesIgnorados: 1 } });
    expect((await history()).at(-1)).toMatchObject({ estado: 'completed', evento: 'ignored-report', origem: 'client' });
    expect(events.filter((e) => e.intencaoImpressaoId === i.id).map((e) => [e.sequence, e.estado])).toEqual([
      [1, 'queued'], [2, 'acquired'], [3, 'printing'], [4, 'completed'],
    ]);
  });

  it('refuses a detalhe with a lone surrogate in Reportar, changing nothing, and keeps a surrogate pair as sent', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    for (const detalhe of ['paper \ud800', '\udfff out']) {
      const res = await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'failed', motivos: ['other'], detalhe });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid-request', errors: [{ path: '/detalhe' }] });
    }
    expect((await getById(i.id)).json().intencaoImpressao).toMatchObject({ estado: 'acquired', reportesIgnorados: 0 });
    const ok = await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'failed', motivos: ['other'], detalhe: 'sem papel \ud83d\udcc4' });
    expect(ok.json().aceito, ok.body).toBe(true);
    expect((await getById(i.id)).json().intencaoImpressao.historico.at(-1)).toMatchObject({ estado: 'failed', detalhe: 'sem papel \ud83d\udcc4' });
  });

  it('refuses a job id in Reportar or Renovar past the query\'s 15 digits with the 400 problem body (PostgreSQL answered 500)', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const post = (route: string, id: string) => h.app.inject({
      method: 'POST', url: `/TerminalImpressao/${route}`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: `{"intencaoImpressaoId":${id},"tokenEntrega":"x","estado":"completed"}`,
    });
    for (const route of ['Reportar', 'Renovar']) {
      // bigint's greatest, one past it, the first 16-digit id, and below 0: what the query's ^[0-9]{1,15}$ refuses too.
      for (const id of ['9223372036854775807', '9223372036854775808', '1000000000000000', '-1']) {
        const res = await post(route, id);
        expect(res.statusCode, `${route} ${id}`).toBe(400);
        expect(res.json(), `${route} ${id}`).toEqual({
          message: expect.stringMatching(/^body\/intencaoImpressaoId must be [<>]= /), code: 'invalid-request', requestId: expect.any(String),
          errors: [{ path: '/intencaoImpressaoId', message: expect.any(String) }],
        });
      }
    }
    // The greatest id the query takes is taken in a body: no such job.
    expect((await post('Reportar', '999999999999999')).json()).toMatchObject({ code: 'intention-not-found' });
    expect((await post('Renovar', '999999999999999')).json()).toMatchObject({ aceito: false });
    const doc = (await h.app.inject('/openapi.json')).json();
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema.properties.intencaoImpressaoId;
    expect(body('/TerminalImpressao/Reportar')).toMatchObject({ type: 'integer', minimum: 0, maximum: 999_999_999_999_999 });
    expect(body('/TerminalImpressao/Renovar')).toMatchObject({ type: 'integer', minimum: 0, maximum: 999_999_999_999_999 });
  });

  it('answers a long-poll as soon as a job is queued, and empty after the wait', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const empty = await next(key, '0.05');
    expect(empty.json()).toMatchObject({ trabalho: null });
    const waiting = next(key, '20');
    await new Promise((r) => setTimeout(r, 50));
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect((await waiting).json().trabalho.intencaoImpressaoId).toBe(i.id);
  });

  it('hands two jobs of one terminal in insert order, each to one request', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const a = (await insert({ conteudo: 'a', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const b = (await insert({ conteudo: 'b', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    // Concurrent requests have no order among themselves (PostgreSQL serves them on several
    // connections at once): each job goes to exactly one of them, and the third gets none.
    const handed = (await Promise.all([next(key), next(key), next(key)])).map((r) => r.json().trabalho?.intencaoImpressaoId ?? null);
    expect(handed.filter((id) => id !== null).sort((p, q) => p - q)).toEqual([a.id, b.id]);
    expect(handed.filter((id) => id === null)).toHaveLength(1);
  });

  it('hands the oldest queued job first', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const a = (await insert({ conteudo: 'a', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const b = (await insert({ conteudo: 'b', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect((await next(key)).json().trabalho.intencaoImpressaoId).toBe(a.id);
    expect((await next(key)).json().trabalho.intencaoImpressaoId).toBe(b.id);
    expect((await next(key)).json().trabalho).toBeNull();
  });

  it('records and ignores a report with a stale token', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const first = (await next(key)).json().trabalho;
    // The lease runs out: the job is offered again with a new token.
    expect(await h.app.jobs.sweeps.expireLeases(new Date(Date.now() + 120_000))).toBe(1);
    const second = (await next(key)).json().trabalho;
    expect(second).toMatchObject({ intencaoImpressaoId: i.id, tentativas: 2 });
    expect(second.tokenEntrega).not.toBe(first.tokenEntrega);
    const stale = (await report(key, { intencaoImpressaoId: i.id, tokenEntrega: first.tokenEntrega, estado: 'completed' })).json();
    expect(stale.aceito).toBe(false);
    expect(stale.intencaoImpressao).toMatchObject({ estado: 'acquired', reportesIgnorados: 1 });
    expect((await getById(i.id)).json().intencaoImpressao.historico.at(-1)).toMatchObject({ evento: 'ignored-report', detalhe: expect.stringContaining('stale delivery token') });
    const ok = (await report(key, { intencaoImpressaoId: i.id, tokenEntrega: second.tokenEntrega, estado: 'completed' })).json();
    expect(ok.intencaoImpressao).toMatchObject({ estado: 'completed', confirmacao: 'sent', tentativas: 2 });
  });

  it('renews the lease of a job its holder still delivers, with no history row; a stale token renews nothing', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const otherKey = await terminalKey(aliceId, 'CAIXA-02');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    expect(t.prazoSegundos).toBe(60);
    const renew = (k: string, tokenEntrega: string) => h.app.inject({ method: 'POST', url: '/TerminalImpressao/Renovar', headers: { authorization: `Bearer ${k}` }, payload: { intencaoImpressaoId: i.id, tokenEntrega } });
    const before = await h.store.intentions.get(aliceId, i.id);
    await new Promise((r) => setTimeout(r, 20));
    const renewed = await renew(key, t.tokenEntrega);
    expect(renewed.json()).toEqual({ data: expect.any(String), aceito: true, prazoSegundos: 60 });
    const after = await h.store.intentions.get(aliceId, i.id);
    expect(after!.leaseExpiresAt!.getTime()).toBeGreaterThan(before!.leaseExpiresAt!.getTime());
    // The lease ran out by the old end, not by the renewed one: the sweep leaves the job with its holder.
    expect(await h.app.jobs.sweeps.expireLeases(new Date(before!.leaseExpiresAt!.getTime() + 1))).toBe(0);
    expect((await renew(otherKey, t.tokenEntrega)).json().aceito).toBe(false);
    expect((await renew(key, 'not-the-token')).json().aceito).toBe(false);
    expect((await getById(i.id)).json().intencaoImpressao.historico.map((x: { estado: string }) => x.estado)).toEqual(['queued', 'acquired']);
    expect(await h.app.jobs.sweeps.expireLeases(new Date(Date.now() + 120_000))).toBe(1);
    expect((await renew(key, t.tokenEntrega)).json().aceito).toBe(false);
  });

  it('stops a job compiled for the printer its terminal had before, says which printer the terminal has now, and compiles it again on request', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const old = (await insert({ conteudo: 'Antiga<paperCutFull>', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect(old.codigoImpressora).toBe('MAKER1MP4200');
    await h.store.terminals.put({ accountId: aliceId, terminalId: 'CAIXA-01', printerId: 5, enabled: true });
    const answer = (await next(key)).json();
    expect(answer).toEqual({ data: expect.any(String), trabalho: null, terminal: { impressoraId: 5, codigoImpressora: 'MAKER5T20', parados: 0 }, intervaloSegundos: 15 });
    const stopped = (await getById(old.id)).json().intencaoImpressao;
    expect(stopped).toMatchObject({ estado: 'stopped', motivos: ['printer-mismatch'], tentativas: 0 });
    expect(events.filter((e) => e.intencaoImpressaoId === old.id).map((e) => [e.estado, e.motivos])).toEqual([['queued', []], ['stopped', ['printer-mismatch']]]);
    // Retomar does not queue it again, and it does not hold the terminal's queue back.
    expect((await h.app.inject({ method: 'POST', url: '/TerminalImpressao/Retomar', headers: { authorization: `Bearer ${key}` } })).json().retomadas).toBe(0);
    const later = (await insert({ conteudo: 'Nova', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect((await next(key)).json().trabalho).toMatchObject({ intencaoImpressaoId: later.id, codigoImpressora: 'MAKER5T20' });

    const recompile = (id: number) => h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Recompilar?key=${token}&intencaoImpressaoId=${id}` });
    const recompiled = (await recompile(old.id)).json().intencaoImpressao;
    expect(recompiled).toMatchObject({ estado: 'queued', impressoraId: 5, codigoImpressora: 'MAKER5T20', tamanhoBytes: compile('Antiga<paperCutFull>', { printer: 5 }).bytes.length });
    expect(recompiled.historico.at(-1)).toMatchObject({ estado: 'queued', evento: 'recompile', origem: 'server' });
    // Again, with nothing to change (queued, compiled for that printer to the same bytes): answered as it is, with no history row and no event.
    const eventsBefore = events.length;
    const again = await recompile(old.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().intencaoImpressao).toEqual(recompiled);
    expect(events).toHaveLength(eventsBefore);
    const t = (await next(key)).json().trabalho;
    expect(t).toMatchObject({ intencaoImpressaoId: old.id, codigoImpressora: 'MAKER5T20' });
    expect(Buffer.from(t.bytes, 'base64')).toEqual(Buffer.from(compile('Antiga<paperCutFull>', { printer: 5 }).bytes));
    // Held by a client now, or without a terminal whose printer to compile for: refused.
    expect((await recompile(old.id)).json()).toMatchObject({ code: 'job-not-recompilable', estado: 'acquired' });
    const templateJob = (await insert({ conteudo: 'x', codigoImpressora: 'MAKER5T20' })).json().intencaoImpressao;
    expect((await recompile(templateJob.id)).statusCode).toBe(409);
    expect((await recompile(999_999)).statusCode).toBe(404);
  });

  it('answers Recompilar of a job a client took while it compiled as changed meanwhile (409), never with the job as it was', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    // Compiled for the printer it has (nothing would change), while its terminal's client takes it.
    const slow = async (conteudo: string, printer: number) => {
      expect((await next(key)).json().trabalho).toMatchObject({ intencaoImpressaoId: i.id });
      const { bytes, diagnostics } = compile(conteudo, { printer });
      return { bytes, diagnostics };
    };
    await expect(h.app.jobs.partner.recompile(aliceId, i.id, slow)).rejects.toMatchObject({ code: 'job-not-recompilable' });
    expect((await getById(i.id)).json().intencaoImpressao.estado).toBe('acquired');
  });

  it('moves a job only from the states it was read in when told so: one changed meanwhile is left as it is', async () => {
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const expire = (only: JobState[]) => h.store.transaction((tx) => transition(tx, async () => {}, { accountId: aliceId, id: i.id }, 'expire', { origem: 'server', at: new Date() }, {}, undefined, only));
    expect(await expire(['stopped'])).toBeUndefined();
    expect(await expire(['acquired'])).toBeUndefined();
    expect((await getById(i.id)).json().intencaoImpressao.estado).toBe('queued');
    expect(await expire(['queued'])).toMatchObject({ estado: 'expired' });
  });

  it('fails a job whose lease ran out on the last allowed attempt', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    for (let attempt = 1; attempt <= 2; attempt++) {
      expect((await next(key)).json().trabalho.tentativas).toBe(attempt);
      await h.app.jobs.sweeps.expireLeases(new Date(Date.now() + 120_000));
    }
    const failed = (await getById(i.id)).json().intencaoImpressao;
    expect(failed).toMatchObject({ status: 'FalhaImpressao', estado: 'failed', tentativas: 2, motivos: ['lease-expired', 'max-attempts'] });
    expect(failed.historico.map((x: { estado: string }) => x.estado)).toEqual(['queued', 'acquired', 'queued', 'acquired', 'failed']);
  });

  it('stops a job with its outcome unknown, never failed, when the lease runs out on the last attempt after a client began writing it', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const later = new Date(Date.now() + 120_000);
    // Begun in an earlier lease: the first reports printing and dies; the last never reports.
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'printing' })).json().aceito).toBe(true);
    await h.app.jobs.sweeps.expireLeases(later);
    expect((await next(key)).json().trabalho).toMatchObject({ intencaoImpressaoId: i.id, tentativas: 2 });
    await h.app.jobs.sweeps.expireLeases(later);
    const stopped = (await getById(i.id)).json().intencaoImpressao;
    expect(stopped).toMatchObject({ status: 'ImpressaoEnviada', estado: 'stopped', tentativas: 2, motivos: ['outcome-unknown', 'lease-expired', 'max-attempts'] });
    expect(stopped.historico.map((x: { estado: string }) => x.estado)).toEqual(['queued', 'acquired', 'printing', 'queued', 'acquired', 'stopped']);
    expect(stopped.historico.at(-1)).toMatchObject({ origem: 'server', detalhe: 'no report within 60000 ms (attempt 2 of 2), after a client began writing it: it may be on paper' });
    expect(events.filter((e) => e.intencaoImpressaoId === i.id).map((e) => e.estado)).not.toContain('failed');
    // Begun in the last lease itself.
    const j = (await insert({ conteudo: 'y', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    await next(key);
    await h.app.jobs.sweeps.expireLeases(later);
    const u = (await next(key)).json().trabalho;
    expect((await report(key, { intencaoImpressaoId: j.id, tokenEntrega: u.tokenEntrega, estado: 'printing' })).json().aceito).toBe(true);
    await h.app.jobs.sweeps.expireLeases(later);
    expect((await getById(j.id)).json().intencaoImpressao).toMatchObject({ estado: 'stopped', motivos: ['outcome-unknown', 'lease-expired', 'max-attempts'] });
    // It waits for a person: started again, it is offered as a reprint.
    expect((await h.app.inject({ method: 'POST', url: `/TerminalImpressao/Iniciar?key=${key}&intencaoImpressaoId=${i.id}` })).json().intencaoImpressao).toMatchObject({ estado: 'queued' });
    expect((await next(key)).json().trabalho).toMatchObject({ intencaoImpressaoId: i.id, reimprimir: true });
  });

  it('expires a job stopped with its outcome unknown keeping its reasons: it may be on paper, and its final state says so', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'printing' });
    expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'stopped', motivos: ['outcome-unknown', 'media-empty'] })).json().aceito).toBe(true);
    expect(await h.app.jobs.sweeps.expireJobs(new Date(Date.now() + 2 * 3_600_000))).toBe(1);
    const expired = (await getById(i.id)).json().intencaoImpressao;
    expect(expired).toMatchObject({ status: 'Expirado', estado: 'expired', motivos: ['outcome-unknown', 'media-empty'] });
    expect(expired.historico.at(-1)).toMatchObject({ estado: 'expired', evento: 'expire', detalhe: 'not started again in time, its outcome unknown: it may be on paper' });
    expect(events.at(-1)).toMatchObject({ intencaoImpressaoId: i.id, estado: 'expired', motivos: ['outcome-unknown', 'media-empty'] });
  });

  it('expires a job never printed in time, never one a client holds', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const held = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    await next(key);
    const waiting = (await insert({ conteudo: 'y', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect(await h.app.jobs.sweeps.expireJobs(new Date(Date.now() + 2 * 3_600_000))).toBe(1);
    expect((await getById(waiting.id)).json().intencaoImpressao).toMatchObject({ status: 'Expirado', estado: 'expired' });
    expect((await getById(held.id)).json().intencaoImpressao.estado).toBe('acquired');
  });

  it('keeps a held job until the client starts it', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao;
    expect((await next(key)).json().trabalho).toBeNull();
    const list = (await h.app.inject({ method: 'GET', url: `/TerminalImpressao/ListarRetidas?key=${key}` })).json();
    expect(list.intencoes.map((x: { id: number }) => x.id)).toEqual([i.id]);
    const started = await h.app.inject({ method: 'POST', url: `/TerminalImpressao/Iniciar?key=${key}&intencaoImpressaoId=${i.id}` });
    expect(started.json().intencaoImpressao).toMatchObject({ estado: 'queued' });
    expect((await h.app.inject({ method: 'POST', url: `/TerminalImpressao/Iniciar?key=${key}&intencaoImpressaoId=${i.id}` })).statusCode).toBe(409);
    expect((await next(key)).json().trabalho.intencaoImpressaoId).toBe(i.id);
  });

  it('queues stopped jobs again when the printer clears, first in line', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const a = (await insert({ conteudo: 'a', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const b = (await insert({ conteudo: 'b', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    expect((await report(key, { intencaoImpressaoId: a.id, tokenEntrega: t.tokenEntrega, estado: 'stopped', motivos: ['media-empty'] })).json().intencaoImpressao)
      .toMatchObject({ estado: 'stopped', motivos: ['media-empty'], status: 'ImpressaoEnviada' });
    // While a job waits on the printer, the next one is not handed out (it would jump the queue).
    expect((await next(key)).json().trabalho).toBeNull();
    expect((await h.app.inject({ method: 'POST', url: `/TerminalImpressao/Retomar?key=${key}` })).json().retomadas).toBe(1);
    expect((await next(key)).json().trabalho.intencaoImpressaoId).toBe(a.id);
    expect((await next(key)).json().trabalho.intencaoImpressaoId).toBe(b.id);
  });
});

describe('terminal credentials', () => {
  it('act only as their terminal, and never as the account (nor the other way round)', async () => {
    const caixa = await terminalKey(aliceId, 'CAIXA-01');
    const other = await terminalKey(aliceId, 'ANDROID2');
    await h.store.terminals.put({ accountId: aliceId, terminalId: 'ANDROID2', printerId: 1, enabled: true });
    const bob = await terminalKey(bobId, 'BOB-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect((await next(other)).json().trabalho).toBeNull();
    expect((await next(bob)).json().trabalho).toBeNull();
    expect((await next(token)).json()).toMatchObject({ code: 'terminal-key-required' });
    expect((await next(token)).statusCode).toBe(403);
    expect((await insert({ conteudo: 'x', terminalId: 'CAIXA-01' }, caixa)).json()).toMatchObject({ code: 'partner-key-required' });
    expect((await h.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetById?key=${caixa}&intencaoImpressaoId=${i.id}` })).statusCode).toBe(403);
    const t = (await next(caixa)).json().trabalho;
    // Another terminal cannot report on it, even with the token.
    expect((await report(other, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'completed' })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'POST', url: `/TerminalImpressao/ObterProxima?espera=0&terminalId=OTHER`, headers: { authorization: `Bearer ${caixa}` } })).json())
      .toMatchObject({ code: 'terminal-mismatch' });
    // Rotating replaces the key.
    await terminalKey(aliceId, 'CAIXA-01', 'bobt_rotated');
    expect((await next(caixa)).statusCode).toBe(401);
    expect((await next('bobt_rotated')).statusCode).toBe(200);
  });

  it('route jobs without a terminal to a terminal that takes template jobs', async () => {
    await h.store.terminals.put({ accountId: aliceId, terminalId: 'BALCAO', printerId: 2, enabled: true, templateJobs: true });
    const key = await terminalKey(aliceId, 'BALCAO');
    const mine = (await insert({ conteudo: 'x', impressoraId: 2 })).json().intencaoImpressao;
    expect(mine.motivos).toEqual([]);
    const notMine = (await insert({ conteudo: 'x', impressoraId: 3 })).json().intencaoImpressao;
    expect(notMine.motivos).toEqual(['no-route']);
    expect((await next(key)).json().trabalho.intencaoImpressaoId).toBe(mine.id);
    expect((await next(key)).json().trabalho).toBeNull();
  });

  it('are in the OpenAPI document', async () => {
    const doc = (await h.app.inject('/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/IntencaoImpressao/Cancelar', '/TerminalImpressao/ObterProxima', '/TerminalImpressao/Reportar',
      '/TerminalImpressao/ListarRetidas', '/TerminalImpressao/Iniciar', '/TerminalImpressao/Retomar',
    ]));
  });
});

describe('the job events sink', () => {
  it('commits with the change or not at all: a failing sink leaves the state and the history as they were', async () => {
    const failing = await harness({ jobEvents: async (_tx, e) => {
      if (e.estado === 'canceled') throw new Error('outbox unavailable');
    } });
    try {
      const t = (await login(failing.app)).access_token;
      const i = (await failing.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${t}`, payload: { conteudo: 'x', terminalId: 'CAIXA-01' } })).json().intencaoImpressao;
      const res = await failing.app.inject({ method: 'POST', url: `/IntencaoImpressao/Cancelar?key=${t}&intencaoImpressaoId=${i.id}` });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ code: 'internal' });
      const after = (await failing.app.inject({ method: 'GET', url: `/IntencaoImpressao/GetById?key=${t}&intencaoImpressaoId=${i.id}` })).json().intencaoImpressao;
      expect(after).toMatchObject({ estado: 'queued', status: 'ImpressaoEnviada' });
      expect(after.historico).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });
});

describe('what a terminal key can make a job cost (issue 20)', () => {
  /** Nearly the 2 MiB body (ESC is six bytes of JSON, and removed from the output): the largest job a partner can insert. */
  const BIG = `Cupom\n${'\x1b'.repeat(Math.floor((2 * 1024 * 1024 - 2048) / 6))}`;
  const REASONS = Array.from({ length: 16 }, (_, n) => `reason-${n}-${'x'.repeat(50)}`);

  /** A job leased MAX_DELIVERIES − 1 times, each stopped for its printer and resumed, then leased once more: the last lease's offer. */
  async function leasedToTheLast(key: string, id: number) {
    const resume = () => h.app.inject({ method: 'POST', url: '/TerminalImpressao/Retomar', headers: { authorization: `Bearer ${key}` } });
    for (let n = 1; n < MAX_DELIVERIES; n++) {
      const t = (await next(key)).json().trabalho;
      expect(t.tentativas).toBe(n);
      expect((await report(key, { intencaoImpressaoId: id, tokenEntrega: t.tokenEntrega, estado: 'stopped', motivos: ['media-empty'] })).json().aceito).toBe(true);
      expect((await resume()).json().retomadas).toBe(1);
    }
    return (await next(key)).json().trabalho;
  }

  it(`stops, never fails, a job whose outcome is unknown at its stop after ${MAX_DELIVERIES} leases: it may be on paper`, async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = await leasedToTheLast(key, i.id);
    expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'stopped', motivos: ['outcome-unknown'] })).json().aceito).toBe(true);
    expect((await getById(i.id)).json().intencaoImpressao).toMatchObject({ status: 'ImpressaoEnviada', estado: 'stopped', motivos: ['outcome-unknown'] });
  }, 60_000);

  it(`refuses to queue again a job whose outcome is unknown after ${MAX_DELIVERIES} leases (Iniciar from the terminal or the partner, Recompilar): its history stays bounded, and Reimprimir prints it as a new job`, async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = await leasedToTheLast(key, i.id);
    expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'stopped', motivos: ['outcome-unknown'] })).json().aceito).toBe(true);
    const refused = { code: 'job-not-startable', intencaoImpressaoId: i.id, estado: 'stopped', tentativas: MAX_DELIVERIES, message: `The print intention was leased ${MAX_DELIVERIES} times; Reimprimir prints it again as a new job` };
    const byTerminal = await h.app.inject({ method: 'POST', url: `/TerminalImpressao/Iniciar?key=${key}&intencaoImpressaoId=${i.id}` });
    expect([byTerminal.statusCode, byTerminal.json()]).toEqual([409, expect.objectContaining(refused)]);
    const byPartner = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Iniciar?key=${token}&intencaoImpressaoId=${i.id}` });
    expect([byPartner.statusCode, byPartner.json()]).toEqual([409, expect.objectContaining(refused)]);
    const job = (await getById(i.id)).json().intencaoImpressao;
    expect(job).toMatchObject({ estado: 'stopped', motivos: ['outcome-unknown'] });
    expect(job.historico.length).toBeLessThan(3 * MAX_DELIVERIES + 2);
    // Nor does Recompilar queue it again (it queues a stopped job too).
    const recompiled = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Recompilar?key=${token}&intencaoImpressaoId=${i.id}` });
    expect([recompiled.statusCode, recompiled.json()]).toEqual([409, expect.objectContaining({ code: 'job-not-recompilable', message: refused.message })]);
    expect((await next(key)).json().trabalho).toBeNull();
    const copy = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Reimprimir?key=${token}&intencaoImpressaoId=${i.id}` });
    expect(copy.json().intencaoImpressao).toMatchObject({ estado: 'queued', reimpressaoDe: i.id });
    expect((await next(key)).json().trabalho).toMatchObject({ intencaoImpressaoId: copy.json().intencaoImpressao.id, tentativas: 1 });
  }, 60_000);

  it(`fails a job at its stop after ${MAX_DELIVERIES} leases: a client that stops and resumes it for ever cannot grow its history without end`, async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = await leasedToTheLast(key, i.id);
    expect(t.tentativas).toBe(MAX_DELIVERIES);
    expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'stopped', motivos: ['media-empty'] })).json().aceito).toBe(true);
    const job = (await getById(i.id)).json().intencaoImpressao;
    expect(job).toMatchObject({ estado: 'failed', motivos: ['media-empty', 'max-deliveries'] });
    expect(job.historico.length).toBeLessThan(3 * MAX_DELIVERIES + 2);
    expect((await next(key)).json().trabalho).toBeNull();
  }, 60_000);

  it(`lets one terminal wait in at most ${POLLS_PER_TERMINAL} long-polls: one more looks once and answers at once, and the waiting ones still get jobs`, async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    await h.store.terminals.put({ accountId: aliceId, terminalId: 'CAIXA-02', printerId: 1, enabled: true });
    const otherKey = await terminalKey(aliceId, 'CAIXA-02');
    const waiting = Array.from({ length: POLLS_PER_TERMINAL }, () => next(key, '30'));
    const settled = new Set<number>();
    waiting.forEach((w, n) => void w.then(() => settled.add(n)));
    // Each poll counts once its key is checked, which on PostgreSQL takes database round trips (on
    // new pool connections: the harness is new). Not a fixed sleep: a loaded machine took longer
    // than the 100 ms this slept, and the extra poll then took a place among the four and waited
    // its 30 s. The bound is for a hang only.
    await vi.waitFor(() => expect(h.app.jobs.terminal.waiting(aliceId, 'CAIXA-01')).toBe(POLLS_PER_TERMINAL), { timeout: 20_000, interval: 5 });
    // Answered before any of the 30-second waits ends, with nothing to take.
    const extra = await next(key, '30');
    expect(extra.statusCode).toBe(200);
    expect(extra.json().trabalho).toBeNull();
    expect(settled.size).toBe(0);
    // Another terminal of the account waits as before (the limit is per terminal): a job wakes it.
    const other = next(otherKey, '30');
    const forOther = (await insert({ conteudo: 'x', terminalId: 'CAIXA-02' })).json().intencaoImpressao;
    expect((await other).json().trabalho.intencaoImpressaoId).toBe(forOther.id);
    // A job for the terminal wakes one of its waiting polls.
    const job = (await insert({ conteudo: 'y', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const first = await Promise.race(waiting);
    expect(first.json().trabalho.intencaoImpressaoId).toBe(job.id);
    expect(settled.size).toBe(1);
  });

  it('counts stale and repeated reports, keeps only the first 10 in the history, and answers each one small', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const insertedAnswer = await insert({ conteudo: BIG, terminalId: 'CAIXA-01' });
    expect(insertedAnswer.statusCode).toBe(200);
    const i = insertedAnswer.json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'completed' })).json().aceito).toBe(true);
    let last: { statusCode: number; body: string } | undefined;
    for (let n = 0; n < 100; n++) {
      last = await report(key, { intencaoImpressaoId: i.id, tokenEntrega: n % 2 ? 'stale-token' : t.tokenEntrega, estado: 'failed', motivos: REASONS, detalhe: 'd'.repeat(500) });
      expect(JSON.parse(last.body).aceito).toBe(false);
    }
    // The Reportar answer: the job's state and counts, not its content, diagnostics or history.
    const answer = JSON.parse(last!.body);
    expect(Object.keys(answer.intencaoImpressao)).not.toEqual(expect.arrayContaining(['conteudo']));
    expect(answer.intencaoImpressao).toMatchObject({ id: i.id, estado: 'completed', tamanhoBytes: i.tamanhoBytes, reportesIgnorados: 100 });
    expect(answer.intencaoImpressao).not.toHaveProperty('diagnostics');
    expect(answer.intencaoImpressao).not.toHaveProperty('historico');
    expect(last!.body.length).toBeLessThan(1024);
    const got = await getById(i.id);
    const job = got.json().intencaoImpressao;
    expect(job.reportesIgnorados).toBe(100);
    expect(job.historico.filter((x: { evento: string }) => x.evento === 'ignored-report')).toHaveLength(10);
    expect(job.historico).toHaveLength(3 + 10);
    // GetById stays within the README's bound: the body plus 64 KiB.
    expect(got.body.length).toBeLessThan(insertedAnswer.body.length + 64 * 1024);
  }, 60_000);

  it('renews the lease of a job reported printing again, without a history row or an event', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const t = (await next(key)).json().trabalho;
    expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'printing' })).json().aceito).toBe(true);
    const first = (await h.store.intentions.get(aliceId, i.id))!.leaseExpiresAt!;
    for (let n = 0; n < 20; n++) {
      expect((await report(key, { intencaoImpressaoId: i.id, tokenEntrega: t.tokenEntrega, estado: 'printing' })).json()).toMatchObject({ aceito: true, intencaoImpressao: { estado: 'printing' } });
    }
    expect((await h.store.intentions.get(aliceId, i.id))!.leaseExpiresAt!.getTime()).toBeGreaterThanOrEqual(first.getTime());
    const job = (await getById(i.id)).json().intencaoImpressao;
    expect(job.historico.map((x: { evento: string }) => x.evento)).toEqual(['insert-queued', 'acquire', 'printing']);
    expect(events.filter((e) => e.intencaoImpressaoId === i.id).map((e) => e.estado)).toEqual(['queued', 'acquired', 'printing']);
  });

  it('lists held jobs a page at a time, without their content, diagnostics or history', async () => {
    const key = await terminalKey(aliceId, 'CAIXA-01');
    const ids: number[] = [];
    for (let n = 0; n < 5; n++) ids.push((await insert({ conteudo: BIG.slice(0, 100_000), terminalId: 'CAIXA-01', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao.id);
    const list = (query: string) => h.app.inject({ method: 'GET', url: `/TerminalImpressao/ListarRetidas?${query}`, headers: { authorization: `Bearer ${key}` } });
    const seen: number[] = [];
    let apos = '';
    for (let page = 0; page < 5; page++) {
      const res = await list(`limite=2${apos}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { intencoes: Record<string, unknown>[]; proxima: number | null };
      expect(body.intencoes.length).toBeLessThanOrEqual(2);
      for (const item of body.intencoes) {
        expect(item).not.toHaveProperty('conteudo');
        expect(item).not.toHaveProperty('diagnostics');
        expect(item).not.toHaveProperty('historico');
        expect(item).toMatchObject({ estado: 'held', tamanhoBytes: expect.any(Number) });
        seen.push(item.id as number);
      }
      expect(res.body.length).toBeLessThan(2048);
      if (body.proxima === null) break;
      apos = `&apos=${body.proxima}`;
    }
    expect(seen).toEqual(ids);
    // Without limite: 50 at most; a limite past 200 is 200; a bad one is refused.
    expect((await list('')).json().intencoes.map((x: { id: number }) => x.id)).toEqual(ids);
    expect((await list('limite=abc')).statusCode).toBe(400);
  });
});
