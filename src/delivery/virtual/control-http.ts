// The virtual printer's HTTP control interface on 127.0.0.1, for tests in another process and for
// people: GET /state, POST /state {"paper":"out"}, POST /command "cover open", GET /jobs,
// GET /jobs/<seq> (the job's bytes).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { http } from '../builtins.js';
import { checkPatch } from './state.js';
import type { VirtualPrinter } from './printer.js';

export interface ControlServer {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_BODY) reject(new Error('body too large'));
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, value: unknown): void {
  const isBytes = value instanceof Uint8Array;
  res.writeHead(status, { 'content-type': isBytes ? 'application/octet-stream' : 'application/json' });
  res.end(isBytes ? value : JSON.stringify(value) + '\n');
}

type Route = (printer: VirtualPrinter, req: IncomingMessage, match: RegExpExecArray) => Promise<[number, unknown]>;

const ROUTES: readonly [method: string, path: RegExp, route: Route][] = [
  ['GET', /^\/state$/, async (p) => [200, { ...p.state, held: p.held, printed: p.jobs.length }]],
  [
    'POST',
    /^\/state$/,
    async (p, req) => {
      let value: unknown;
      try {
        value = JSON.parse(await body(req));
      } catch {
        return [400, { message: 'expected a JSON object such as {"paper":"out"}', code: 'invalid-json' }];
      }
      const patch = checkPatch(value);
      if (typeof patch === 'string') return [400, { message: patch, code: 'invalid-state' }];
      return [200, await p.setState(patch)];
    },
  ],
  [
    'POST',
    /^\/command$/,
    async (p, req) => {
      const answer = await p.command(await body(req));
      return [answer.ok ? 200 : 400, answer.ok ? { answer: answer.text } : { message: answer.text, code: 'invalid-command' }];
    },
  ],
  ['GET', /^\/jobs$/, async (p) => [200, p.jobs.map(({ bytes: _b, ...job }) => job)]],
  [
    'GET',
    /^\/jobs\/(\d+)$/,
    async (p, _req, m) => {
      const job = p.jobs.find((j) => j.seq === Number(m[1]));
      return job ? [200, job.bytes] : [404, { message: `no job ${m[1]}`, code: 'job-not-found' }];
    },
  ],
];

export function startControlServer(printer: VirtualPrinter, port: number): Promise<ControlServer> {
  const server = http().createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    for (const [method, pattern, route] of ROUTES) {
      const m = pattern.exec(path);
      if (!m || req.method !== method) continue;
      route(printer, req, m).then(
        ([status, value]) => send(res, status, value),
        (err: Error) => send(res, 400, { message: err.message, code: 'bad-request' }),
      );
      return;
    }
    send(res, 404, { message: `no route ${req.method} ${path}`, code: 'route-not-found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${actual}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
