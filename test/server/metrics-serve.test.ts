// `bobina serve` with metrics, as a real process on the store under test: --metrics-port serves
// GET /metrics on 127.0.0.1 without a token (and nothing else there), the service's own port keeps
// it 404 unless BOBINA_METRICS_TOKEN is set, and then only to its bearer; the worker pool's queue
// gauges are there; a short token or a bad port is a usage error; a busy metrics port is named as
// such; the metrics port closes a request that does not arrive within the deadline, like the API's.
import { spawn, spawnSync } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { scrape } from '../support/prometheus.js';
import { startServe, stop, type Served } from '../support/serve.js';
import { CHILD_ENV, freshDatabase, STORE_KIND, type TestDatabase } from '../support/store-target.js';

let database: TestDatabase;
const running: Served[] = [];

beforeAll(async () => {
  database = await freshDatabase('bobina-metrics-');
});
afterAll(async () => {
  for (const s of running) await stop(s.proc, 'SIGKILL');
  await database?.drop();
});

const TOKEN = 'a-metrics-token-of-the-test-1234';

async function serve(flags: string[], env: Record<string, string> = {}) {
  const s = await startServe({ flags: [...database.flags, ...flags], env });
  running.push(s);
  return s;
}

describe('bobina serve --metrics-port', { timeout: 60_000 }, () => {
  it('serves /metrics on a loopback port of its own without a token, and nothing else there; the service port says 404', async () => {
    const s = await serve(['--metrics-port', '0']);
    const said = /metrics on (http:\/\/127\.0\.0\.1:(\d+))\/metrics/.exec(s.stderr());
    expect(said, s.stderr()).not.toBeNull();
    const base = said![1]!;
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    const m = scrape(await res.text());
    expect(m.value('bobina_compile_queue_length')).toBe(0);
    expect(m.value('bobina_compile_threads_max')).toBeGreaterThanOrEqual(1);
    expect(m.value('bobina_jobs', { state: 'queued' })).toBe(0);
    // prom-client's process metrics come along under their usual names.
    expect(m.samples('process_cpu_user_seconds_total')).toBeDefined();
    const other = await fetch(`${base}/health`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { code: string }).code).toBe('route-not-found');
    expect((await fetch(`${s.base}/metrics`)).status).toBe(404);
    expect((await fetch(`${s.base}/health/ready`)).status).toBe(200);
    await stop(s.proc, 'SIGTERM');
    // Closed with the service.
    await expect(fetch(`${base}/metrics`)).rejects.toThrow();
  });

  it('serves /metrics on the service port to bearers of BOBINA_METRICS_TOKEN only', async () => {
    const s = await serve([], { BOBINA_METRICS_TOKEN: TOKEN });
    expect((await fetch(`${s.base}/metrics`)).status).toBe(401);
    expect((await fetch(`${s.base}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
    const ok = await fetch(`${s.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(scrape(await ok.text()).value('bobina_db_connections_max')).toBeGreaterThanOrEqual(1);
    expect(s.stdout()).not.toContain(TOKEN);
    await stop(s.proc, 'SIGTERM');
  });

  it('refuses a short metrics token and a bad metrics port before starting', () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [CLI, 'serve', '--port', '0', ...database.flags, ...args], { encoding: 'utf8', env: { ...process.env, ...CHILD_ENV, ...env }, timeout: 20_000 });
    const short = run(['--metrics-token', 'short']);
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/metrics token must be at least 16 characters/);
    expect(run([], { BOBINA_METRICS_TOKEN: 'short' }).status).toBe(2);
    const port = run(['--metrics-port', '70000']);
    expect(port.status).toBe(2);
    expect(port.stderr).toMatch(/invalid metrics port "70000"/);
  });

  it('names the metrics port when it is taken, and exits without serving', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...database.flags, '--metrics-port', String(taken)], { env: { ...process.env, ...CHILD_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      clearTimeout(timer);
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(stderr).toMatch(new RegExp(`metrics port: listen EADDRINUSE.*127\\.0\\.0\\.1:${taken}`));
    } finally {
      blocker.close();
    }
  });

  // The port's deadline is the store's business on neither backend: one run (SQLite's) is enough.
  const oneStore = STORE_KIND === 'sqlite' ? it : ((() => undefined) as unknown as typeof it);
  oneStore('answers 408 on the metrics port to a request that does not arrive within --request-timeout', { timeout: 60_000 }, async () => {
    // 1 s, so the 408 comes well inside the 20 s waited below; the default (30 s) would not.
    const s = await serve(['--metrics-port', '0', '--request-timeout', '1s']);
    const port = Number(/metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/.exec(s.stderr())![1]);
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => { answer += d.toString(); });
    socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
    const closed = await new Promise<boolean>((r) => {
      const t = setTimeout(() => r(false), 20_000);
      socket.once('close', () => { clearTimeout(t); r(true); });
    });
    socket.destroy();
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    await stop(s.proc, 'SIGTERM');
  });
});
