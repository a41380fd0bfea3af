// A real `bobina serve` process compiles on worker threads: while one worst-case Insert is being
// compiled, other requests are still answered. Checked by order of answers, never by wall time.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const env = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' };
let dir: string;
let child: ChildProcess | undefined;
let base: string;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bobina-pool-'));
  const db = join(dir, 'db.sqlite');
  const add = spawnSync(process.execPath, [CLI, 'users', 'add', '--email', 'pool@example.com', '--password', 'pool-pw', '--name', 'Pool', '--db', db], { encoding: 'utf8', env, timeout: 20_000 });
  expect(add.status, add.stderr).toBe(0);
  const port = await freePort();
  child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--db', db], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const proc = child;
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 15_000);
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('listening on')) { clearTimeout(timer); resolve(); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited with ${code}: ${err}`)); });
  });
  base = `http://127.0.0.1:${port}`;
}, 30_000);

afterAll(async () => {
  const proc = child;
  if (proc && proc.exitCode === null && proc.signalCode === null) {
    await new Promise((resolve) => {
      const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
      proc.on('exit', () => { clearTimeout(kill); resolve(undefined); });
      proc.kill('SIGTERM');
    });
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('bobina serve compiles off the main thread', () => {
  it('answers /health while a worst-case Insert is still compiling', async () => {
    const login = await fetch(`${base}/auth/reconciliation/token`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'pool@example.com', password: 'pool-pw', grant_type: 'password' }),
    });
    const { access_token: key } = (await login.json()) as { access_token: string };
    // The most expensive job the limits allow for its size: 16 large raster QR codes for the DR800,
    // hundreds of milliseconds of compiling in a 36 KiB body that arrives at once.
    const conteudo = `<qrcode>${'a'.repeat(2300)}</qrcode>\n`.repeat(16);
    let insertDone = false;
    const insert = fetch(`${base}/IntencaoImpressao/Insert?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ conteudo, impressoraId: 5 }) })
      .then(async (r) => ({ status: r.status, body: ((await r.json()) as { intencaoImpressao: { diagnostics: { code: string }[] } }).intencaoImpressao }))
      .finally(() => { insertDone = true; });
    // Compiled on the main thread, at most the one or two /health asked before the compile began
    // would be answered before the Insert; on a worker, /health keeps being answered.
    let answeredMeanwhile = 0;
    while (!insertDone && answeredMeanwhile < 8) {
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      if (!insertDone) answeredMeanwhile++;
    }
    expect(answeredMeanwhile).toBe(8);
    const res = await insert;
    expect(res.status).toBe(200);
    expect(res.body.diagnostics.map((d) => d.code)).toEqual(Array(16).fill('lower/qr-raster-fallback'));
  }, 30_000);
});
