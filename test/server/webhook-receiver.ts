// A real HTTP receiver on 127.0.0.1 for the webhook tests: it records every request (headers, raw
// body, path, arrival time) and answers as the test scripts it: a status (with headers), or
// "hang" (hold the request until released). Started on a port of its own, or on a given one, on
// 127.0.0.1 or another loopback address.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** Order of arrival among every receiver of this process. */
  seq: number;
  /** Order of the answer, or of the sender hanging up, on the same count as `seq` (undefined while open). */
  endedSeq?: number;
}

/** One count for arrivals and answers at every receiver, so that the order of events across receivers is exact. */
let events = 0;

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
  /** Answers the oldest held request with 200. */
  releaseOne(): void;
  /** Resolves once `n` requests have arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0, fallback: Answer = { status: 200 }, host = '127.0.0.1'): Promise<Receiver> {
  const held: Array<{ res: ServerResponse; got: Received }> = [];
  let waiters: Array<() => boolean> = [];
  const answer200 = ({ res, got }: { res: ServerResponse; got: Received }) => {
    got.endedSeq ??= ++events;
    res.writeHead(200).end('ok');
  };
  const r: Receiver = {
    url: '', port: 0, received: [], script: [], fallback,
    held: () => held.length,
    release() {
      for (const h of held.splice(0)) answer200(h);
    },
    releaseOne() {
      const h = held.shift();
      if (h) answer200(h);
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
      const got: Received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), seq: ++events };
      r.received.push(got);
      waiters = waiters.filter((w) => !w());
      const answer = r.script.shift() ?? r.fallback;
      if (answer === 'hang') {
        const h = { res, got };
        held.push(h);
        // The sender gave up (its timeout): the request is over, and no longer held.
        res.once('close', () => {
          got.endedSeq ??= ++events;
          const i = held.indexOf(h);
          if (i >= 0) held.splice(i, 1);
        });
      } else {
        got.endedSeq = ++events;
        res.writeHead(answer.status, answer.headers).end('');
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://${host}:${r.port}`;
  return r;
}

/** The most requests that were open at once (arrived, not yet answered or given up), across these receivers. */
export function mostOpen(...receivers: Receiver[]): number {
  const steps = receivers.flatMap((r) => r.received).flatMap((g) => [[g.seq, 1], [g.endedSeq ?? Infinity, -1]] as const);
  let open = 0;
  let most = 0;
  for (const [, step] of steps.sort((x, y) => x[0] - y[0])) most = Math.max(most, (open += step));
  return most;
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
