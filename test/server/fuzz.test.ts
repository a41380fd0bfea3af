// The HTTP layer against random input (fast-check, through inject): JSON deep and wide, odd keys
// (`__proto__`, `constructor`), odd strings (lone surrogates, controls, tags), bodies that are not
// JSON, odd query strings and random headers, on Insert, GetById and login. Whatever arrives, the
// answer is never a 500, every error is a JSON problem body, and no answer is larger than
// ANSWER_LIMIT. An Insert that is accepted is exactly what GetById returns afterwards.
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, login, type Harness } from './helpers.js';

/** No answer is larger than 64 KiB plus six times the request body: Insert echoes conteudo, and
 * JSON writes a control character in six bytes (`\u001b`). */
const ANSWER_LIMIT = (sent: number) => 64 * 1024 + 6 * sent;

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await harness();
  key = (await login(h.app)).access_token;
});
afterAll(async () => { await h.close(); });

// ---- generators of JSON text (built as text, so `__proto__` stays a key and depth has no limit)
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const oddString = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 16 }),
  fc.string({ maxLength: 16 }),
  fc.constantFrom('', '__proto__', 'constructor', 'prototype', '\u0000', '\ud800', '\udfff', '😀', '\u001b@', 'x'.repeat(500), '1', 'MAKER5T20', 'CAIXA-01', 'password', 'refresh_token'),
);
const receiptish = fc
  .array(fc.constantFrom('<qrcode>', '</qrcode>', 'abc', '\n', '\r', '<b>', '<', '<paperCutFull>', '<textCondensedOn>', 'ção', '\u001b', '\ud83d', '\u{1F600}', '€'), { maxLength: 40 })
  .map((parts) => parts.join(''));
const KNOWN = ['conteudo', 'referencia', 'terminalId', 'impressoraId', 'codigoImpressora', 'aguardarClienteIniciarImpressao', 'email', 'password', 'grant_type', 'refresh_token'];
const key_ = fc.oneof(fc.constantFrom(...KNOWN, '__proto__', 'constructor', 'prototype', 'toString', ''), oddString);
const scalar = fc.oneof(
  fc.constantFrom('null', 'true', 'false', '0', '-0', '1e999', '-1e999', '1.5', '123456789012345678901234567890', '5', '"5"'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  oddString.map((s) => JSON.stringify(s)),
  receiptish.map((s) => JSON.stringify(s)),
);
const deep = fc
  .tuple(fc.integer({ min: 500, max: 20_000 }), fc.constantFrom('[', '{"a":', '{"__proto__":', '{"constructor":{"prototype":'))
  .map(([depth, open]) => open.repeat(depth) + (open === '[' ? '' : '0') + (open === '[' ? ']' : open === '{"constructor":{"prototype":' ? '}}' : '}').repeat(depth));
const { value: jsonText } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, scalar, tie('array'), tie('object'), deep),
  array: fc.array(tie('value'), { maxLength: 6 }).map((items) => `[${items.join(',')}]`),
  object: fc.array(fc.tuple(key_, tie('value')), { maxLength: 8 }).map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
}));
/** An object with the route's own fields (mostly valid values), extra keys, in a random order. */
const plausible = (fields: Record<string, fc.Arbitrary<string>>, required: string[]) =>
  fc
    .tuple(fc.record(fields, { requiredKeys: required }), fc.array(fc.tuple(key_, fc.oneof(jsonText, deep)), { maxLength: 3 }))
    .chain(([known, extra]) => fc.shuffledSubarray([...Object.entries(known), ...extra], { minLength: Object.keys(known).length + extra.length }))
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
const notJson = fc.oneof(fc.string({ unit: codeUnit, maxLength: 40 }), jsonText.map((t) => t.slice(0, Math.max(0, t.length - 1))));
const body = (fields: Record<string, fc.Arbitrary<string>>, required: string[]) =>
  fc.oneof({ weight: 4, arbitrary: plausible(fields, required) }, { weight: 1, arbitrary: jsonText }, { weight: 1, arbitrary: notJson });

// ---- headers and query strings
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });
const headers = fc
  .record({
    'content-type': fc.oneof(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json', 'multipart/form-data; boundary=x', '*/*', ''),
      printable,
    ),
    'idempotency-key': maybe(printable),
    authorization: maybe(fc.oneof(printable, printable.map((s) => `Bearer ${s}`), fc.constant(`Bearer ${'x'.repeat(40)}`))),
    accept: maybe(fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml', '')),
    'content-encoding': maybe(fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x')),
    'x-forwarded-for': maybe(printable),
    'accept-language': maybe(printable),
  }, { requiredKeys: ['content-type'] })
  .map((hs) => Object.fromEntries(Object.entries(hs).filter(([, v]) => v !== undefined)) as Record<string, string>);
/** Mostly a JSON content type and no Authorization (the key is in the query), so that most bodies
 * reach validation and the handler. */
const insertHeaders = fc.tuple(headers, fc.integer({ min: 0, max: 4 })).map(([{ authorization, ...hs }, dice]) =>
  dice === 0 ? { ...hs, ...(authorization ? { authorization } : {}) } : { ...hs, 'content-type': 'application/json' });
const queryPart = fc.string({ unit: fc.constantFrom('a', 'k', 'e', 'y', '=', '&', '%', '2', '0', '6', 'B', 'z', '[', ']', ';', '+', '?', '#', '1', 'é'), maxLength: 30 });

// ---- the properties every answer has
function checkAnswer(res: LightMyRequestResponse, sent: number, allowed500?: string) {
  const problem = res.statusCode >= 400 ? res.json() : undefined;
  if (res.statusCode >= 500 && problem?.code !== allowed500) expect.fail(`${res.statusCode}: ${res.body.slice(0, 300)}`);
  if (problem) {
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(problem).toMatchObject({ message: expect.any(String), code: expect.any(String), requestId: expect.any(String) });
    expect(res.headers['x-request-id']).toBe(problem.requestId);
  }
  expect(res.rawPayload.length).toBeLessThanOrEqual(ANSWER_LIMIT(sent));
}

const RUNS = { numRuns: 150, endOnFailure: true } as const;
/** Each property below runs 60–150 requests through the app and its SQLite test store: seconds on a loaded
 * 2-core machine (two of them timed out at vitest's default 5 s at load average 8). */
const PROPERTY_TIMEOUT = 60_000;

describe('the HTTP layer under random input', () => {
  it('Insert never fails with a 500, and what it accepts is what GetById returns', async () => {
    const insertFields = {
      conteudo: fc.oneof({ weight: 6, arbitrary: fc.oneof(receiptish, oddString).map((s) => JSON.stringify(s)) }, scalar),
      referencia: fc.oneof({ weight: 4, arbitrary: oddString.map((s) => JSON.stringify(s)) }, scalar),
      terminalId: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('"CAIXA-01"', '"ANDROID"', '"CAIXA-OFF"', '"BOB-01"', 'null', 'null', 'null') }, scalar),
      impressoraId: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -1, max: 7 }).map(String) }, scalar),
      codigoImpressora: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('"MAKER3DR800"', '"generica"', '"5"', 'null', 'null', 'null') }, scalar),
      aguardarClienteIniciarImpressao: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('true', 'false', 'null') }, scalar),
    };
    const insertBody = body(insertFields, ['conteudo']);
    await fc.assert(
      fc.asyncProperty(insertBody, insertHeaders, queryPart, async (payload, hs, extra) => {
        const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}&${extra}`, payload, headers: hs });
        checkAnswer(res, Buffer.byteLength(payload));
        if (res.statusCode !== 200) return;
        const accepted = res.json().intencaoImpressao;
        const stored = await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${accepted.id}` });
        expect(stored.json().intencaoImpressao).toEqual(accepted);
      }),
      RUNS,
    );
  }, PROPERTY_TIMEOUT);

  it('accepts any well-formed conteudo (or refuses it with 422), and GetById returns exactly what Insert answered', async () => {
    const wellFormed = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), receiptish).filter((s) => !/\p{Cs}/u.test(s));
    await fc.assert(
      fc.asyncProperty(wellFormed, fc.integer({ min: 0, max: 6 }), fc.option(fc.string({ unit: 'binary', maxLength: 20 }), { nil: null }), async (conteudo, impressoraId, referencia) => {
        const payload = JSON.stringify({ referencia, conteudo, impressoraId });
        const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload, headers: { 'content-type': 'application/json' } });
        checkAnswer(res, Buffer.byteLength(payload));
        expect([200, 422]).toContain(res.statusCode);
        if (res.statusCode !== 200) return;
        const accepted = res.json().intencaoImpressao;
        expect(accepted).toMatchObject({ conteudo, referencia });
        const stored = await h.app.inject({ url: `/IntencaoImpressao/GetById?key=${key}&intencaoImpressaoId=${accepted.id}` });
        expect(stored.json().intencaoImpressao).toEqual(accepted);
      }),
      { numRuns: 60, endOnFailure: true },
    );
  }, PROPERTY_TIMEOUT);

  it('GetById never fails with a 500, whatever the query string and headers', async () => {
    await fc.assert(
      fc.asyncProperty(queryPart, queryPart, headers, async (before, after, hs) => {
        const res = await h.app.inject({ url: `/IntencaoImpressao/GetById?${before}&key=${key}&intencaoImpressaoId=${after}`, headers: hs });
        checkAnswer(res, 0);
      }),
      RUNS,
    );
  }, PROPERTY_TIMEOUT);

  it('login never fails with a 500 but the documented request-token-error', async () => {
    const loginFields = {
      email: fc.oneof(fc.constant('"alice@example.com"'), scalar),
      password: scalar,
      grant_type: fc.oneof(fc.constantFrom('"refresh_token"', '"client_credentials"', 'null'), scalar),
      refresh_token: scalar,
    };
    await fc.assert(
      fc.asyncProperty(body(loginFields, []), headers, async (payload, hs) => {
        const res = await h.app.inject({ method: 'POST', url: '/auth/reconciliation/token', payload, headers: hs });
        // The spec's own label for e-mail and password without grant_type is a 500 (README, Errors).
        checkAnswer(res, Buffer.byteLength(payload), 'request-token-error');
      }),
      RUNS,
    );
  }, PROPERTY_TIMEOUT);
});
