// `bobina serve` as a real child process for the process tests: started with `--port 0` on
// 127.0.0.1 (the OS picks a free port as it binds: no other process can take it between a check and
// the bind, as several lanes and CI run at once) with the database flags of the store under test,
// awaited until it says where it listens, and stopped by its pid. The caller keeps the handle and
// stops it in afterAll or finally.
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './cli.js';
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
  /** A port to reuse (a restart on the same address); default 0: any free one, bound by serve itself. */
  port?: number;
  timeoutMs?: number;
}

/** serve's line on stderr once it listens (docs/service.md, `--port`): the address it bound. */
const LISTENING = /^bobina serve: listening on (http:\/\/127\.0\.0\.1:(\d+))[,\n]/m;

export async function startServe(o: ServeOptions): Promise<Served> {
  const proc = spawn(process.execPath, [CLI, 'serve', '--port', String(o.port ?? 0), '--host', '127.0.0.1', ...o.flags], {
    env: { ...process.env, ...CHILD_ENV, LOG_LEVEL: 'warn', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => void (err += d.toString()));
  proc.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
  const timeoutMs = o.timeoutMs ?? 20_000;
  const listening = await new Promise<RegExpExecArray>((resolve, reject) => {
    const done = (e: Error | null, said?: RegExpExecArray) => {
      clearTimeout(timer);
      clearInterval(poll);
      proc.off('exit', onExit);
      if (e) reject(e);
      else resolve(said!);
    };
    const onExit = (code: number | null, signal: string | null) => done(new Error(`serve exited with ${code ?? signal}: ${err}`));
    const timer = setTimeout(() => {
      stop(proc, 'SIGKILL').catch(() => undefined);
      done(new Error(`serve did not start within ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    const poll = setInterval(() => {
      const said = LISTENING.exec(err);
      if (said) done(null, said);
    }, 10);
    proc.once('exit', onExit);
  });
  const port = Number(listening[2]);
  if (o.port !== undefined && port !== o.port) {
    await stop(proc, 'SIGKILL');
    throw new Error(`serve listens on ${port}, not on ${o.port}`);
  }
  return { proc, port, base: listening[1]!, stderr: () => err, stdout: () => out };
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
