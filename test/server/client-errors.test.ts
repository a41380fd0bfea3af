// Requests Node's HTTP parser refuses before any route (inject cannot send them), and paths
// fastify's router cannot decode: over a real socket on 127.0.0.1, each gets the documented JSON
// problem body and the headers of every answer, and nothing of it is logged.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, login, type Harness } from './helpers.js';

let h: Harness;
let port: number;
let key: string;
beforeAll(async () => {
  h = await harness();
  key = (await login(h.app)).access_token;
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as { port: number }).port;
});
afterAll(async () => { await h.close(); });

/** Writes `raw` to a fresh connection and reads until the server closes it (bounded in time). */
function exchange(raw: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('no answer within 5 s')); }, 5000);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(raw);
  });
}

describe('errors outside the routes', () => {
  it.each([
    ['headers larger than the server accepts', () => `GET /ImpressoraTemplate/GetTemplates?key=${key} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers-too-large'],
    ['a request line longer than the header limit', () => `GET /ImpressoraTemplate/GetTemplates?key=${key}&x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'headers-too-large'],
    ['a header name with a space', () => `GET /health?key=${key} HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`, 400, 'malformed-request'],
    ['a CR inside a header value', () => `GET /health?key=${key} HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n`, 400, 'malformed-request'],
    ['a NUL inside a header value', () => `GET /health?key=${key} HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n`, 400, 'malformed-request'],
    ['a bad request line', () => `NOT HTTP AT ALL ${key}\r\n\r\n`, 400, 'malformed-request'],
    ['an unknown HTTP version', () => `GET /health?key=${key} HTTP/7.1\r\nHost: x\r\n\r\n`, 400, 'malformed-request'],
    ['a bad Content-Length', () => `POST /IntencaoImpressao/Insert?key=${key} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`, 400, 'malformed-request'],
  ])('answers %s with the JSON problem body', async (_name, raw, status, code) => {
    const res = await exchange(raw());
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.body);
    expect(body).toEqual({ message: expect.any(String), code, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(res.headers['x-request-id']).toBe(body.requestId);
    expect(h.logs()).toContain(body.requestId);
    expect(h.logs()).not.toContain(key);
  });

  it('still answers a well-formed request on the same server', async () => {
    const res = await exchange('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
  });
});

describe('paths the router cannot decode', () => {
  it.each([
    ['a bad percent-escape', '/%ZZ'],
    ['a bad percent-escape before a key', () => `/ImpressoraTemplate/GetTemplates%ZZ?key=${key}`],
    ['a truncated percent-escape', '/health%'],
  ])('answers %s with the problem body and the headers of every answer', async (_name, path) => {
    const res = await exchange(`GET ${typeof path === 'string' ? path : path()} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.body);
    expect(body).toEqual({ message: 'The request is not valid HTTP', code: 'malformed-request', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(res.headers).toMatchObject({
      'x-request-id': body.requestId, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY',
      'content-security-policy': "frame-ancestors 'none'",
    });
    expect(h.logs()).toContain(body.requestId);
    expect(h.logs()).not.toContain(key);
  });
});

describe('answers written by the server itself', () => {
  it('carry the security headers too', async () => {
    const res = await exchange(`GET /health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'" });
  });
});
