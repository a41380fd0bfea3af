// The printing endpoints (spec §4.2-§4.4): authentication, per-account scoping, the Insert rules,
// idempotency, GetById, problem bodies, OpenAPI, and secrets kept out of the logs.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256, newApiKey } from '../../src/server/auth/secrets.js';
import { BOB, harness, login, type Harness } from './helpers.js';

const DATA = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}\.\d{3}$/;
const NFCE = readFileSync(new URL('../../fixtures/nfce.txt', import.meta.url), 'utf8');
let h: Harness;
let key: string;
beforeEach(async () => {
  h = await harness();
  key = (await login(h.app)).access_token;
});
afterEach(async () => { await h.close(); });

const insert = (body: unknown, headers: Record<string, string> = {}, k = key) =>
  h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${k}`, payload: body as object, headers });
const getById = (id: string | number, k = key) => h.app.inject({ url: `/IntencaoImpressao/GetById?key=${k}&intencaoImpressaoId=${id}` });

describe('authentication of the printing endpoints', () => {
  it('accepts an access token in ?key= and in Authorization: Bearer', async () => {
    expect((await h.app.inject({ url: `/ImpressoraTemplate/GetTemplates?key=${key}` })).statusCode).toBe(200);
    const res = await h.app.inject({ url: '/ImpressoraTemplate/GetTemplates', headers: { authorization: `Bearer ${key}` } });
    expect(res.statusCode).toBe(200);
  });

  it('accepts a long-lived API key', async () => {
    const user = await h.store.findUserByEmail('alice@example.com');
    const apiKey = newApiKey();
    await h.store.createApiKey(user!.id, 'pos', sha256(apiKey));
    expect((await insert({ conteudo: 'oi', terminalId: 'CAIXA-01' }, {}, apiKey)).statusCode).toBe(200);
  });

  it.each([
    ['no key', '/ImpressoraTemplate/GetTemplates'],
    ['an unknown key', '/ImpressoraTemplate/GetTemplates?key=00000000-0000-0000-0000-000000000000'],
    ['an empty key', '/ImpressoraTemplate/GetTemplates?key='],
  ])('answers 401 with a JSON problem for %s', async (_n, url) => {
    const res = await h.app.inject({ url });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ code: 'unauthorized', message: expect.any(String), requestId: expect.any(String) });
  });

  it('answers 401 for an expired access token', async () => {
    const short = await harness({ accessTtl: 0 });
    try {
      const { access_token } = await login(short.app);
      expect((await short.app.inject({ url: `/ImpressoraTemplate/GetTemplates?key=${access_token}` })).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('checks the key before the body, so an anonymous caller gets 401 even for a bad body', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/IntencaoImpressao/Insert', payload: '{bad', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /ImpressoraTemplate/GetTemplates', () => {
  it('lists the seven templates with the date in dd/MM/yyyy HH:mm:ss.fff', async () => {
    const body = (await h.app.inject({ url: `/ImpressoraTemplate/GetTemplates?key=${key}` })).json();
    expect(body.data).toMatch(DATA);
    expect(body.impressoraTemplates).toHaveLength(7);
    expect(body.impressoraTemplates[0]).toEqual({ id: 0, nome: expect.any(String), codigoImpressora: 'GENERICA', isGeneric: true });
    expect(body.impressoraTemplates.map((t: { codigoImpressora: string }) => t.codigoImpressora)).toEqual([
      'GENERICA', 'MAKER1MP4200', 'MAKER2PR3000', 'MAKER3DR800', 'MAKER4I9', 'MAKER5T20', 'MAKER6TP450',
    ]);
  });
});

describe('POST /IntencaoImpressao/Insert', () => {
  it('compiles the content for the terminal\'s linked printer and records an ImpressaoEnviada intention', async () => {
    const res = await insert({ referencia: 'pedido-1', conteudo: NFCE, terminalId: 'CAIXA-01' });
    expect(res.statusCode).toBe(200);
    const { data, intencaoImpressao: i } = res.json();
    expect(data).toMatch(DATA);
    expect(i).toMatchObject({
      id: expect.any(Number), referencia: 'pedido-1', conteudo: NFCE, terminalId: 'CAIXA-01', impressoraId: 1,
      codigoImpressora: 'MAKER1MP4200', aguardarClienteIniciarImpressao: false, status: 'ImpressaoEnviada',
    });
    expect(i.tamanhoBytes).toBeGreaterThan(100);
    expect(i.dataCriacao).toMatch(DATA);
  });

  it('lets codigoImpressora (a code, any case, or an id) win over impressoraId', async () => {
    const byCode = (await insert({ conteudo: 'x', codigoImpressora: 'maker5t20', impressoraId: 1 })).json().intencaoImpressao;
    expect(byCode).toMatchObject({ impressoraId: 5, codigoImpressora: 'MAKER5T20' });
    const byId = (await insert({ conteudo: 'x', codigoImpressora: '6', impressoraId: 1 })).json().intencaoImpressao;
    expect(byId).toMatchObject({ impressoraId: 6, codigoImpressora: 'MAKER6TP450' });
  });

  it('lets codigoImpressora state the printer type of a terminal', async () => {
    const i = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01', codigoImpressora: 'MAKER4I9' })).json().intencaoImpressao;
    expect(i).toMatchObject({ terminalId: 'CAIXA-01', impressoraId: 4 });
  });

  it('prints with impressoraId alone and treats null fields as absent', async () => {
    const res = await insert({ conteudo: 'x', impressoraId: 2, terminalId: null, codigoImpressora: null, referencia: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().intencaoImpressao).toMatchObject({ impressoraId: 2, terminalId: null, referencia: null });
  });

  it('marks a generic print that does not wait for the client as Impresso', async () => {
    const generic = (await insert({ conteudo: 'x', terminalId: 'ANDROID', aguardarClienteIniciarImpressao: false })).json().intencaoImpressao;
    expect(generic.status).toBe('Impresso');
    const waiting = (await insert({ conteudo: 'x', terminalId: 'ANDROID', aguardarClienteIniciarImpressao: true })).json().intencaoImpressao;
    expect(waiting.status).toBe('ImpressaoEnviada');
    const byCode = (await insert({ conteudo: 'x', codigoImpressora: 'GENERICA' })).json().intencaoImpressao;
    expect(byCode.status).toBe('Impresso');
  });

  it.each([
    ['impressoraId together with terminalId', { conteudo: 'x', impressoraId: 1, terminalId: 'CAIXA-01' }, 400, 'printer-conflict'],
    ['an unknown printer code', { conteudo: 'x', codigoImpressora: 'NOPE' }, 400, 'unknown-printer'],
    ['an unknown impressoraId', { conteudo: 'x', impressoraId: 42 }, 400, 'unknown-printer'],
    ['no printer at all', { conteudo: 'x' }, 400, 'printer-required'],
    ['a missing conteudo', { terminalId: 'CAIXA-01' }, 400, 'invalid-request'],
    ['an unknown terminal', { conteudo: 'x', terminalId: 'NOPE' }, 404, 'terminal-not-found'],
    ["another account's terminal", { conteudo: 'x', terminalId: 'BOB-01' }, 404, 'terminal-not-found'],
    ['a terminal with printing disabled', { conteudo: 'x', terminalId: 'CAIXA-OFF' }, 409, 'terminal-disabled'],
  ])('refuses %s', async (_n, body, status, code) => {
    const res = await insert(body);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
  });

  it('says, when no printer is given, every way to name one (terminalId was not sent)', async () => {
    expect((await insert({ conteudo: 'x' })).json().message).toBe('Name a printer with codigoImpressora or impressoraId, or a terminal linked to one with terminalId');
  });

  it('answers 422 with positioned diagnostics when the content has errors, and stores nothing', async () => {
    const res = await insert({ conteudo: 'linha 1\n<qrcode>aberto', terminalId: 'CAIXA-01' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('content-invalid');
    expect(body.diagnostics.length).toBeGreaterThan(0);
    expect(body.diagnostics[0]).toMatchObject({ severity: 'error', line: expect.any(Number), column: expect.any(Number) });
    expect(body.diagnostics[0].line).toBe(2);
    expect((await getById(1)).statusCode).toBe(404);
  });

  it('stores and returns warnings without refusing the content', async () => {
    const res = await insert({ conteudo: 'a<foo>b', terminalId: 'CAIXA-01' });
    expect(res.statusCode).toBe(200);
    const { intencaoImpressao: i } = res.json();
    expect(i.diagnostics).toEqual([expect.objectContaining({ code: 'parse/unknown-tag', severity: 'warning', line: 1, column: 2 })]);
    expect((await getById(i.id)).json().intencaoImpressao.diagnostics).toEqual(i.diagnostics);
  });

  it('answers 413 with a JSON problem for a body over 2 MiB', async () => {
    const res = await insert({ conteudo: 'x'.repeat(2 * 1024 * 1024 + 10), terminalId: 'CAIXA-01' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'body-too-large', requestId: expect.any(String) });
  });

  it('answers 400 with a JSON problem for malformed JSON', async () => {
    const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: '{"conteudo":', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid-json', requestId: expect.any(String) });
    expect(res.body).not.toMatch(/at .*\.js|<html/i);
  });

  it('replays the first answer for a repeated Idempotency-Key and stores one intention', async () => {
    const body = { referencia: 'r', conteudo: 'x', terminalId: 'CAIXA-01' };
    const first = await insert(body, { 'idempotency-key': 'k-1' });
    const again = await insert(body, { 'idempotency-key': 'k-1' });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const next = (await insert(body, { 'idempotency-key': 'k-2' })).json().intencaoImpressao;
    expect(next.id).toBe(first.json().intencaoImpressao.id + 1);
  });

  it('forgets an Idempotency-Key once the sweep finds it past the keeping time (default 24 h), and not before', async () => {
    const body = { conteudo: 'x', terminalId: 'CAIXA-01' };
    const first = (await insert(body, { 'idempotency-key': 'k-kept' })).json().intencaoImpressao;
    expect(await h.app.jobs.sweeps.purgeIdempotencyKeys(new Date(Date.now() + 23 * 3_600_000))).toBe(0);
    expect((await insert(body, { 'idempotency-key': 'k-kept' })).json().intencaoImpressao.id).toBe(first.id);
    expect(await h.app.jobs.sweeps.purgeIdempotencyKeys(new Date(Date.now() + 25 * 3_600_000))).toBeGreaterThanOrEqual(1);
    const again = await insert(body, { 'idempotency-key': 'k-kept' });
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().intencaoImpressao.id).toBeGreaterThan(first.id);
  });

  it('deletes a final job once the sweep finds it past the keeping time (default 30 days) since it ended, and never a job not final', async () => {
    const DAY = 24 * 3_600_000;
    const ended = (await insert({ conteudo: 'x', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const waiting = (await insert({ conteudo: 'y', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    const cancel = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Cancelar?key=${key}&intencaoImpressaoId=${ended.id}` });
    expect(cancel.json().intencaoImpressao.estado).toBe('canceled');
    expect(await h.app.jobs.sweeps.purgeEndedJobs(new Date(Date.now() + 29 * DAY))).toBe(0);
    expect((await getById(ended.id)).statusCode).toBe(200);
    expect(await h.app.jobs.sweeps.purgeEndedJobs(new Date(Date.now() + 31 * DAY))).toBe(1);
    const gone = await getById(ended.id);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('intention-not-found');
    expect((await getById(waiting.id)).json().intencaoImpressao.estado).toBe('queued');
  });

  it('expires a backlog of jobs past their time in one sweep, not 100 a tick: another job due with them is not left behind', async () => {
    for (let n = 0; n < 240; n++) expect((await insert({ conteudo: `j${n}`, terminalId: 'CAIXA-01' })).statusCode).toBe(200);
    const last = (await insert({ conteudo: 'the last', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect(await h.app.jobs.sweeps.expireJobs(new Date(Date.now() + 25 * 3_600_000))).toBe(241);
    expect((await getById(last.id)).json().intencaoImpressao.estado).toBe('expired');
  }, 60_000);

  it('answers 422 when an Idempotency-Key is reused with a different body', async () => {
    await insert({ conteudo: 'x', terminalId: 'CAIXA-01' }, { 'idempotency-key': 'k' });
    const res = await insert({ conteudo: 'y', terminalId: 'CAIXA-01' }, { 'idempotency-key': 'k' });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('idempotency-key-reused');
  });

  it('keeps Idempotency-Keys per account', async () => {
    const bob = (await login(h.app, BOB)).access_token;
    const a = await insert({ conteudo: 'x', terminalId: 'CAIXA-01' }, { 'idempotency-key': 'same' });
    const b = await insert({ conteudo: 'x', terminalId: 'BOB-01' }, { 'idempotency-key': 'same' }, bob);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.json().intencaoImpressao.id).not.toBe(a.json().intencaoImpressao.id);
  });
});

describe('GET /IntencaoImpressao/GetById', () => {
  it('returns the intention in the same shape as the insert', async () => {
    const created = (await insert({ referencia: 'r-9', conteudo: 'oi', terminalId: 'CAIXA-01' })).json();
    const res = await getById(created.intencaoImpressao.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatch(DATA);
    expect(res.json().intencaoImpressao).toEqual(created.intencaoImpressao);
  });

  it("answers 404 for an unknown id and for another account's intention", async () => {
    const created = (await insert({ conteudo: 'oi', terminalId: 'CAIXA-01' })).json().intencaoImpressao;
    expect((await getById(999)).statusCode).toBe(404);
    const bob = (await login(h.app, BOB)).access_token;
    const res = await getById(created.id, bob);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('intention-not-found');
  });

  it('answers 400 when intencaoImpressaoId is not an integer or is missing', async () => {
    for (const url of [`/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=abc`, `/IntencaoImpressao/GetById?key=${key}`]) {
      const res = await h.app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid-request');
    }
  });
});

describe('documents and errors', () => {
  it('serves an OpenAPI document generated from the route schemas, and a docs page', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/auth/reconciliation/token', '/ImpressoraTemplate/GetTemplates', '/IntencaoImpressao/Insert', '/IntencaoImpressao/GetById',
    ]));
    expect(doc.paths['/IntencaoImpressao/Insert'].post.requestBody.content['application/json'].schema.required).toContain('conteudo');
    // What every route of a scope answers (a terminal's key on a partner route: 403) and a body not in JSON (415) are documented too.
    expect(Object.keys(doc.paths['/IntencaoImpressao/Insert'].post.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '415', '422']));
    expect(Object.keys(doc.paths['/ImpressoraTemplate/GetTemplates'].get.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    expect(Object.keys(doc.paths['/ImpressoraTemplate/GetTemplates'].get.responses)).not.toContain('415');
    expect(Object.keys(doc.paths['/TerminalImpressao/Sinal'].post.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '415']));
    const plain = await h.app.inject({ method: 'POST', url: '/IntencaoImpressao/Insert', headers: { 'content-type': 'text/plain', authorization: `Bearer ${key}` }, payload: 'x' });
    expect(plain.statusCode).toBe(415);
    const docs = await h.app.inject({ url: '/docs' });
    expect([200, 302]).toContain(docs.statusCode);
  });

  it('answers an unknown route with a JSON 404 problem', async () => {
    const res = await h.app.inject({ url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'route-not-found', requestId: res.headers['x-request-id'] });
  });

  it('never writes the key query parameter or the Authorization header to the log', async () => {
    await insert({ conteudo: 'x', terminalId: 'CAIXA-01' });
    await h.app.inject({ url: '/ImpressoraTemplate/GetTemplates', headers: { authorization: `Bearer ${key}` } });
    const logs = h.logs();
    expect(logs).toContain('/IntencaoImpressao/Insert?key=[REDACTED]');
    expect(logs).not.toContain(key);
  });
});
