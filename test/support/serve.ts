// `bobina serve` as a real child process for the process tests: started on a free 127.0.0.1 port
// with the database flags of the store under test, awaited until it says "listening on", and
// stopped by its pid. The caller keeps the handle and stops it in afterAll or finally.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './cli.js';
import { freePort } from './net.js';
import { CHILD_ENV } from './store-target.js';

export interface Served {
  proc: ChildProcess;
  port: number;
  base: string;
  /** What it wrote on stderr so far. */
  stderr: () => string;
  /** What it wrote on stdout so far: its log lines (pino JSON, LOG_LEVEL warn unless `env` says otherwise). */
  stdout: () => string;
}

export interface ServeOptions {
  /** The database flags (TestDatabase.flags), then any other `serve` flags. */
  flags: string[];
  env?: Record<string, string>;
  /** A port to reuse (a restart on the same address); default a free one. */
  port?: number;
  timeoutMs?: number;
}

export async function startServe(o: ServeOptions): Promise<Served> {
  const port = o.port ?? (await freePort());
  const proc = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', ...o.flags], {
    env: { ...process.env, ...CHILD_ENV, LOG_LEVEL: 'warn', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => void (err += d.toString()));
  proc.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
  const timeoutMs = o.timeoutMs ?? 20_000;
  await new Promise<void>((resolve, reject) => {
    const done = (e?: Error) => {
      clearTimeout(timer);
      clearInterval(poll);
      proc.off('exit', onExit);
      if (e) reject(e);
      else resolve();
    };
    const onExit = (code: number | null, signal: string | null) => done(new Error(`serve exited with ${code ?? signal}: ${err}`));
    const timer = setTimeout(() => {
      stop(proc, 'SIGKILL').catch(() => undefined);
      done(new Error(`serve did not start within ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    const poll = setInterval(() => err.includes('listening on') && done(), 10);
    proc.once('exit', onExit);
  });
  return { proc, port, base: `http://127.0.0.1:${port}`, stderr: () => err, stdout: () => out };
}

/** Sends `signal` to the process by its pid and waits until it has exited. */
export function stop(proc: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    try {
      process.kill(proc.pid!, signal);
    } catch {
      resolve();
    }
  });
}
