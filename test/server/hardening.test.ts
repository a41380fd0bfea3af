// Issue 10 through inject: compile limits as 422s, idempotency over the validated request, the key
// kept out of the logs whatever its spelling, unknown and deeply nested fields, lone surrogates,
// and non-JSON bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256, newApiKey } from '../../src/server/auth/secrets.js';
import { harness, login, type Harness } from './helpers.js';

// One app for the whole file (accounts cost a scrypt each); each test uses its own Idempotency-Keys.
let h: Harness;
let key: string;
beforeAll(async () => {
  h = await harness();
  key = (await login(h.app)).access_token;
});
afterAll(async () => { await h.close(); });

const insertRaw = (payload: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload, headers: { 'content-type': 'application/json', ...headers } });
const insert = (body: unknown, headers: Record<string, string> = {}) => insertRaw(JSON.stringify(body), headers);
const getById = (id: number) => h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${id}` });
/** `{"a":{"a":…}}` nested `depth` times, written directly (JSON.stringify itself would overflow). */
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** Runs `refused` between two good inserts: nothing was stored if their ids are consecutive. */
async function storesNothing(refused: () => Promise<unknown>) {
  const before = (await insert({ conteudo: 'antes', impressoraId: 5 })).json().intencaoImpressao.id;
  await refused();
  const after = (await insert({ conteudo: 'depois', impressoraId: 5 })).json().intencaoImpressao.id;
  expect(after).toBe(before + 1);
}
const problem = { message: expect.any(String), code: expect.any(String), requestId: expect.any(String) };

describe('compile limits in the service', () => {
  it('answers 422 content-invalid with the limit diagnostic for too many QR codes, and stores nothing', async () => {
    await storesNothing(async () => {
      const res = await insert({ conteudo: '<qrcode>a</qrcode>'.repeat(5000), impressoraId: 3 });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ ...problem, code: 'content-invalid', diagnostics: [{ code: 'limit/too-many-qrcodes', severity: 'error', line: 1, column: 289 }] });
    });
  });

  it('answers 422 for output over the byte limit', async () => {
    const res = await insert({ conteudo: 'linha\n'.repeat(200_000), impressoraId: 5 });
    expect(res.statusCode).toBe(422);
    expect(res.json().diagnostics.map((d: { code: string }) => d.code)).toEqual(['limit/output-too-large']);
  });

  it('stores and answers at most 100 diagnostics plus their summary, in Insert and in GetById', async () => {
    const res = await insert({ conteudo: '<b>'.repeat(50_000), impressoraId: 5 });
    expect(res.statusCode).toBe(200);
    const { intencaoImpressao: i } = res.json();
    expect(i.diagnostics).toHaveLength(101);
    expect(i.diagnostics[100]).toMatchObject({ code: 'limit/diagnostics-truncated', severity: 'info' });
    expect(res.body.length).toBeLessThan(250_000);
    expect((await getById(i.id)).json().intencaoImpressao).toEqual(i);
  });
});

describe('idempotency over the validated request', () => {
  it('replays for the same body with its keys in another order', async () => {
    const first = await insertRaw('{"referencia":"r","conteudo":"x","impressoraId":5}', { 'idempotency-key': 'order' });
    const again = await insertRaw('{"impressoraId":5,"conteudo":"x","referencia":"r"}', { 'idempotency-key': 'order' });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('replays when the retry adds unknown fields or sends null for an absent one', async () => {
    const first = await insert({ conteudo: 'x', impressoraId: 5 }, { 'idempotency-key': 'extra' });
    const extra = await insert({ conteudo: 'x', impressoraId: 5, origem: 'app', trace: { id: 1 } }, { 'idempotency-key': 'extra' });
    const nulls = await insert({ conteudo: 'x', impressoraId: 5, referencia: null, terminalId: null }, { 'idempotency-key': 'extra' });
    expect(first.statusCode).toBe(200);
    for (const r of [extra, nulls]) {
      expect(r.statusCode).toBe(200);
      expect(r.headers['idempotent-replayed']).toBe('true');
      expect(r.body).toBe(first.body);
    }
  });

  it('still refuses a retry whose known fields differ', async () => {
    await insert({ conteudo: 'x', impressoraId: 5 }, { 'idempotency-key': 'differs' });
    const res = await insert({ conteudo: 'x', impressoraId: 4 }, { 'idempotency-key': 'differs' });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('idempotency-key-reused');
  });
});

describe('the key never reaches the logs', () => {
  // Each spelling the query parser may decode to `key` (or carry the key in a name).
  const encodeAll = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  const spellings: [string, (k: string) => string][] = [
    ['?key=', (k) => `?key=${k}`],
    ['?%6Bey=', (k) => `?%6Bey=${k}`],
    ['?k%65y=', (k) => `?k%65y=${k}`],
    ['?%6B%65%79=', (k) => `?%6B%65%79=${k}`],
    ['?key%3D…', (k) => `?key%3D${k}`],
    ['?key[]=', (k) => `?key[]=${k}`],
    ['?key=…&key=…', (k) => `?key=${k}&key=${k}`],
    ['?KEY=', (k) => `?KEY=${k}`],
    ['a percent-encoded value', (k) => `?key=${encodeAll(k)}`],
    ['another parameter', (k) => `?token=${k}`],
    ['a value after a semicolon', (k) => `?x=1;key=${k}`],
    ['intencaoImpressaoId', (k) => `?intencaoImpressaoId=${k}`],
    // A client's mistakes that put the key in the path: no route has it (404), and the path is logged.
    ['the path, after a semicolon', (k) => `;key=${k}`],
    ['the path, after an ampersand', (k) => `&key=${k}`],
    ['the path, a double-encoded query', (k) => `%3Fkey%3D${k}`],
    ['the path, as a segment', (k) => `/${k}`],
  ];

  it.each(spellings)('for %s on any route', async (_name, spell) => {
    const apiKey = newApiKey();
    const user = await h.store.findUserByEmail('alice@example.com');
    await h.store.createApiKey(user!.id, 'pos', sha256(apiKey));
    for (const secret of [key, apiKey]) {
      const q = spell(secret);
      await h.app.inject({ url: `/ImpressoraTemplate/GetTemplates${q}` });
      await h.app.inject({ url: `/IntencaoImpressao/GetById${q}&intencaoImpressaoId=1` });
      await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert${q}`, payload: { conteudo: 'x', impressoraId: 5 } });
      await h.app.inject({ url: `/nope${q}` });
      await h.app.inject({ method: 'POST', url: `/auth/reconciliation/token${q}`, payload: {} });
    }
    const logs = h.logs();
    for (const secret of [key, apiKey]) {
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain(encodeAll(secret));
      expect(logs).not.toContain(secret.slice(0, 12));
    }
  });

  it('still logs the path, the key parameter redacted and an integer id', async () => {
    await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=42` });
    expect(h.logs()).toContain('/IntencaoImpressao/GetById?key=[REDACTED]&intencaoImpressaoId=42');
  });

  it("logs a path no route has by its words, hiding a segment that has not a path word's form", async () => {
    await h.app.inject({ url: `/Terminal/GetAll;key=${key}?limite=5` });
    await h.app.inject({ url: '/Terminal/GetAl' });
    const logs = h.logs();
    expect(logs).toContain('"/Terminal/[REDACTED]?limite=5"');
    expect(logs).toContain('"/Terminal/GetAl"');
  });

  it("logs the terminal list's filter (a fixed word), and hides its cursor (a terminal id)", async () => {
    await h.app.inject({ url: `/Terminal/GetAll?key=${key}&situacao=offline&limite=20&cursor=${Buffer.from('caixa-9').toString('base64url')}` });
    const logs = h.logs();
    expect(logs).toContain('/Terminal/GetAll?key=[REDACTED]&situacao=offline&limite=20&cursor=[REDACTED]');
  });

  it("logs ObterProxima's wait in seconds (espera), and hides one that is not a number", async () => {
    await h.app.inject({ method: 'POST', url: `/TerminalImpressao/ObterProxima?key=${key}&espera=5&terminalId=caixa-7` });
    await h.app.inject({ method: 'POST', url: `/TerminalImpressao/ObterProxima?key=${key}&espera=${key}` });
    const logs = h.logs();
    expect(logs).toContain('/TerminalImpressao/ObterProxima?key=[REDACTED]&espera=5&terminalId=[REDACTED]');
    expect(logs).toContain('/TerminalImpressao/ObterProxima?key=[REDACTED]&espera=[REDACTED]');
    expect(logs).not.toContain(key);
  });

  it("logs GetAll's filter names, and the values that cannot hold shop data (state, page size, dates)", async () => {
    await h.app.inject({ url: `/IntencaoImpressao/GetAll?key=${key}&estado=held&limite=20&desde=2026-11-01T00:00:00Z&terminalId=caixa-7&referencia=Pedido%20Jo%C3%A3o&cursor=abc` });
    await h.app.inject({ url: `/IntencaoImpressao/GetAll?key=${key}&estado=<script>&limite=99999` });
    const logs = h.logs();
    expect(logs).toContain('/IntencaoImpressao/GetAll?key=[REDACTED]&estado=held&limite=20&desde=2026-11-01T00:00:00Z&terminalId=[REDACTED]&referencia=[REDACTED]&cursor=[REDACTED]');
    expect(logs).toContain('/IntencaoImpressao/GetAll?key=[REDACTED]&estado=[REDACTED]&limite=[REDACTED]');
    expect(logs).not.toContain('caixa-7');
    expect(logs).not.toContain('Jo');
  });
});

describe('unknown and deeply nested fields', () => {
  it('ignores unknown body fields and query parameters (they are not stored or echoed)', async () => {
    const res = h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}&debug=1`, payload: { conteudo: 'x', impressoraId: 5, origem: 'app' } });
    expect((await res).statusCode).toBe(200);
    expect((await res).json().intencaoImpressao).not.toHaveProperty('origem');
  });

  it.each([
    ['a deeply nested unknown field', () => `{"conteudo":"x","impressoraId":5,"extra":${deepObject(100_000)}}`, 200],
    ['a deeply nested array as a known field', () => `{"conteudo":${deepArray(100_000)},"impressoraId":5}`, 400],
    ['a deeply nested array as the body', () => deepArray(100_000), 400],
    ['a deeply nested object under __proto__', () => `{"conteudo":"x","impressoraId":5,"__proto__":${deepObject(50_000)}}`, 200],
    ['a deeply nested object under constructor', () => `{"conteudo":"x","impressoraId":5,"constructor":{"prototype":${deepObject(50_000)}}}`, 200],
  ])('answers %s without a 500', async (_name, body, status) => {
    const res = await insertRaw(body());
    expect(res.statusCode).toBe(status);
    if (status >= 400) expect(res.json()).toMatchObject(problem);
  });

  it('drops a __proto__ key rather than letting it lend the body a field', async () => {
    const res = await insertRaw('{"conteudo":"x","codigoImpressora":"GENERICA","__proto__":{"aguardarClienteIniciarImpressao":true}}');
    expect(res.statusCode).toBe(200);
    expect(res.json().intencaoImpressao).toMatchObject({ aguardarClienteIniciarImpressao: false, status: 'Impresso' });
  });

  it('answers a deeply nested login body with 400 credentials-required', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/auth/reconciliation/token', payload: `{"email":"a","password":"b","grant_type":"password","x":${deepObject(100_000)}}`, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBeLessThan(500);
    const res2 = await h.app.inject({ method: 'POST', url: '/auth/reconciliation/token', payload: deepArray(100_000), headers: { 'content-type': 'application/json' } });
    expect(res2.statusCode).toBe(400);
    expect(res2.json()).toMatchObject({ ...problem, code: 'credentials-required' });
  });
});

describe('text that is not well-formed Unicode', () => {
  it.each([
    ['conteudo', { conteudo: 'a\ud800b', impressoraId: 5 }],
    ['conteudo (a lone low surrogate)', { conteudo: 'a\udc00', impressoraId: 5 }],
    ['referencia', { conteudo: 'x', referencia: 'r\udbff', impressoraId: 5 }],
    ['terminalId', { conteudo: 'x', terminalId: 'CAIXA\ud800' }],
  ])('refuses a lone surrogate in %s with 400, naming the field', async (_name, body) => {
    await storesNothing(async () => {
      const res = await insert(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ ...problem, code: 'invalid-request', errors: [{ path: expect.stringMatching(/^\/(conteudo|referencia|terminalId)$/), message: expect.stringContaining('surrogate') }] });
    });
  });

  it('answers in Insert exactly what GetById later returns, surrogate pairs included', async () => {
    const conteudo = 'Olá 😀 \u{10FFFF} \uFFFD \u0000 fim';
    const res = await insert({ conteudo, referencia: '😀', impressoraId: 5 });
    expect(res.statusCode).toBe(200);
    const { intencaoImpressao: i } = res.json();
    expect(i.conteudo).toBe(conteudo);
    expect((await getById(i.id)).json().intencaoImpressao).toEqual(i);
  });
});

describe('bodies that are not JSON', () => {
  it.each([
    ['text/plain', 'conteudo=x'],
    ['application/x-www-form-urlencoded', 'conteudo=x'],
    ['application/octet-stream', 'x'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('answers %s with 415 unsupported-media-type', async (type, payload) => {
    const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload, headers: { 'content-type': type } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ ...problem, code: 'unsupported-media-type' });
  });
});

describe('security headers', () => {
  it.each([
    ['a JSON answer', () => ({ method: 'GET' as const, url: `/ImpressoraTemplate/GetTemplates?key=${key}` })],
    ['an error', () => ({ method: 'GET' as const, url: '/IntencaoImpressao/GetById?key=nope&intencaoImpressaoId=1' })],
    ['an unknown path', () => ({ method: 'GET' as const, url: '/no/such/path' })],
    ['the login', () => ({ method: 'POST' as const, url: '/auth/reconciliation/token', payload: { email: 'x@example.com', password: 'y', grant_type: 'password' } })],
    ['/health', () => ({ method: 'GET' as const, url: '/health' })],
    ['the OpenAPI document', () => ({ method: 'GET' as const, url: '/openapi.json' })],
    ['the docs page', () => ({ method: 'GET' as const, url: '/docs/' })],
    ['the playground page', () => ({ method: 'GET' as const, url: '/playground/' })],
    ['the console page', () => ({ method: 'GET' as const, url: '/console/' })],
  ])('are on %s: no sniffing, no referrer, no framing', async (_what, request) => {
    const res = await h.app.inject(request());
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
  });

  it('give /docs a Content-Security-Policy that runs only its own scripts', async () => {
    for (const url of ['/docs/', '/docs/static/swagger-initializer.js']) {
      const csp = (await h.app.inject(url)).headers['content-security-policy'] as string;
      expect(csp.split('; ')).toEqual(expect.arrayContaining(["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'"]));
      // Swagger UI adds an inline <style> while it renders; no script runs that is not its own file.
      expect(csp.split('; ').find((d) => d.startsWith('script-src '))).toBe("script-src 'self'");
    }
  });
});
