// Request deadlines and connection limits on a real `bobina serve` (issue 20, point 8): a request
// whose body (or headers) trickles in is answered 408 request-timeout and closed, on the login
// route too; a long-poll whose request has arrived is not; connections past the per-address or the
// total limit are closed as soon as they are accepted. Every socket is on 127.0.0.x.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONNECTION_LIMITS } from '../../src/server/connection-limits.js';
import { bobina } from '../support/cli.js';
import { startServe, stop, type Served } from '../support/serve.js';
import { CHILD_ENV, freshDatabase, type TestDatabase } from '../support/store-target.js';
import { harness } from './helpers.js';

/**
 * A request on a connection of its own, closed once answered (fetch would keep it in its pool, and
 * the connection tests count connections).
 */
function send(method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: served!.port, method, path, agent: false, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => void (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let db: TestDatabase;
let served: Served | undefined;
let terminalKey: string;
let accessToken: string;

beforeAll(async () => {
  db = await freshDatabase('bobina-deadline-');
  const add = bobina(['users', 'add', '--email', 'slow@example.com', '--password', 'slow-pw', '--name', 'Slow', ...db.flags]);
  expect(add.code, add.stderr).toBe(0);
  const t = bobina(['terminals', 'add', '--email', 'slow@example.com', '--terminal', 'PDV-1', '--printer', 'MAKER5T20', '--print-key', ...db.flags]);
  expect(t.code, t.stderr).toBe(0);
  terminalKey = t.stdout.toString().trim().split('\n').pop()!;
  served = await startServe({ flags: [...db.flags, '--request-timeout', '1s', '--max-connections', '6', '--max-connections-per-address', '3'], env: { ...CHILD_ENV } });
  const login = await send('POST', '/auth/reconciliation/token', { 'content-type': 'application/json' }, JSON.stringify({ email: 'slow@example.com', password: 'slow-pw', grant_type: 'password' }));
  accessToken = login.json.access_token as string;
}, 60_000);

afterAll(async () => {
  if (served) await stop(served.proc);
  await db?.drop();
});

interface Exchange {
  status: number;
  body: string;
  /** Whether the server closed the connection (rather than the test giving up on it). */
  closedByServer: boolean;
}

/**
 * Opens a connection from `from`, writes `head`, then one byte of `trickle` every 200 ms until the
 * server closes the connection or `giveUpMs` passes; returns what the server answered.
 */
function trickle(head: string, trickleBytes: string, from = '127.0.0.1', giveUpMs = 15_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ port: served!.port, host: '127.0.0.1', localAddress: from });
    const chunks: Buffer[] = [];
    let sent = 0;
    let byServer = true;
    const drip = setInterval(() => {
      if (sent < trickleBytes.length && socket.writable) socket.write(trickleBytes[sent++]!);
    }, 200);
    const giveUp = setTimeout(() => {
      byServer = false;
      socket.destroy();
    }, giveUpMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(giveUp);
      const text = Buffer.concat(chunks).toString('utf8');
      const [headPart = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(headPart.split(' ')[1]), body, closedByServer: byServer });
    });
    socket.on('connect', () => socket.write(head));
  });
}

const post = (path: string, length: number) => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('the request deadline', () => {
  it('is 30 s by default, checked every 5 s, with the headers held to it too: a request is closed within 35 s of its start', async () => {
    const h = await harness();
    try {
      const server = h.app.server;
      expect(server.requestTimeout).toBe(DEFAULT_CONNECTION_LIMITS.requestTimeoutMs);
      expect(server.requestTimeout).toBe(30_000);
      expect(server.headersTimeout).toBeLessThanOrEqual(server.requestTimeout);
      const checkedEvery = (server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval;
      expect(server.requestTimeout + checkedEvery).toBeLessThanOrEqual(35_000);
      expect(server.maxConnections).toBe(512);
    } finally {
      await h.close();
    }
  });

  it.each([
    ['the login route (no credentials needed)', '/auth/reconciliation/token'],
    ['Insert', '/IntencaoImpressao/Insert?key=ACCESS'],
  ])('answers a body that trickles in on %s with 408 request-timeout, and closes the connection', async (_what, path) => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'slow-pw', grant_type: 'password', conteudo: 'Olá', impressoraId: 5 });
    const res = await trickle(post(path.replace('ACCESS', accessToken), Buffer.byteLength(body)), body);
    expect(res.closedByServer).toBe(true);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'request-timeout' });
  }, 30_000);

  it('answers headers that trickle in with 408 request-timeout, and closes the connection', async () => {
    const res = await trickle('GET /health HTTP/1.1\r\n', 'X-Slow: ' + 'a'.repeat(200));
    expect(res.closedByServer).toBe(true);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'request-timeout' });
  }, 30_000);

  it('leaves a long-poll alone once its request has arrived, however long it then waits', async () => {
    const res = await send('POST', '/TerminalImpressao/ObterProxima?espera=3', { authorization: `Bearer ${terminalKey}` });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ trabalho: null });
  }, 30_000);
});

describe('the connection limits', () => {
  /**
   * A keep-alive connection from `from`, held open after one answered request (no deadline closes
   * an idle kept-alive connection before the keep-alive timeout, 72 s); undefined if the server
   * closed it instead of answering.
   */
  function tryHold(from: string): Promise<{ socket: Socket; closed: Promise<void> } | undefined> {
    return new Promise((resolve) => {
      const socket = connect({ port: served!.port, host: '127.0.0.1', localAddress: from });
      const closed = new Promise<void>((r) => socket.once('close', () => r()));
      socket.on('error', () => {});
      socket.once('data', () => resolve({ socket, closed }));
      void closed.then(() => resolve(undefined));
      socket.once('connect', () => socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n'));
    });
  }

  /**
   * Holds a connection from `from`. A connection the server has just closed may still count for a
   * moment on its side, so a refused attempt is tried again until one is held.
   */
  async function hold(from: string): Promise<{ socket: Socket; closed: Promise<void> }> {
    for (;;) {
      const held = await tryHold(from);
      if (held) return held;
    }
  }

  async function health(from: string): Promise<number | 'closed'> {
    const res = await trickle('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', '', from);
    return Number.isNaN(res.status) ? 'closed' : res.status;
  }

  it('close a connection past the per-address limit, and past the total limit, as soon as it is accepted', async () => {
    const held: { socket: Socket; closed: Promise<void> }[] = [];
    try {
      for (const from of ['127.0.0.11', '127.0.0.11', '127.0.0.11']) held.push(await hold(from));
      // A fourth from 127.0.0.11 is closed without a byte read; another address is served.
      expect(await health('127.0.0.11')).toBe('closed');
      await expect.poll(() => health('127.0.0.12'), { timeout: 10_000 }).toBe(200);
      for (const from of ['127.0.0.12', '127.0.0.12', '127.0.0.13']) held.push(await hold(from));
      // Six open in all: a seventh, from an address with none, is closed too.
      expect(await health('127.0.0.14')).toBe('closed');
      // One of 127.0.0.11's closes: once the server has seen it go, 127.0.0.11 is served again.
      const first = held.shift()!;
      first.socket.destroy();
      await first.closed;
      await expect.poll(() => health('127.0.0.11'), { timeout: 10_000 }).toBe(200);
      // The refusals are logged, once per 10 s at most, with their counts.
      await expect.poll(() => served!.stdout(), { timeout: 15_000, interval: 200 }).toContain('connections refused over the connection limits');
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  }, 30_000);
});
