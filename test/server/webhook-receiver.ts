// A real HTTP receiver on 127.0.0.1 for the webhook tests: it records every request (headers, raw
// body, path, arrival time) and answers as the test scripts it: a status (with headers), or
// "hang" (hold the request until released). Started on a port of its own, or on a given one.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Answers for the next requests, in order; after them, `fallback`. */
  script: Answer[];
  fallback: Answer;
  /** How many requests are held unanswered now. */
  held(): number;
  /** Answers every held request with 200. */
  release(): void;
  /** Resolves once `n` requests have arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0, fallback: Answer = { status: 200 }): Promise<Receiver> {
  const held: ServerResponse[] = [];
  let waiters: Array<() => boolean> = [];
  const r: Receiver = {
    url: '', port: 0, received: [], script: [], fallback,
    held: () => held.length,
    release() {
      for (const res of held.splice(0)) res.writeHead(200).end('ok');
    },
    waitFor(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (r.received.length < n) return false;
          clearTimeout(timer);
          resolve(r.received.slice(0, n));
          return true;
        };
        const timer = setTimeout(() => reject(new Error(`receiver: ${r.received.length} of ${n} requests after ${timeoutMs} ms`)), timeoutMs);
        if (!check()) waiters.push(check);
      });
    },
    close: () => new Promise((resolve) => {
      r.release();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      waiters = waiters.filter((w) => !w());
      const answer = r.script.shift() ?? r.fallback;
      if (answer === 'hang') held.push(res);
      else res.writeHead(answer.status, answer.headers).end('');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}`;
  return r;
}

/** Polls `fn` until it returns a value other than undefined/false (rejects after `timeoutMs`). */
export async function until<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
