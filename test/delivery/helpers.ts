// Shared by the delivery tests: virtual printers that are always closed, child processes that are
// always killed (by pid), and the compiled fixtures.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startVirtualPrinter, type VirtualPrinter, type VirtualPrinterOptions } from '../../src/delivery/index.js';
import { ROOT } from '../support/cli.js';

export const FIXTURES = readdirSync(join(ROOT, 'fixtures')).filter((f) => f.endsWith('.txt'));
export const fixture = (name: string) => readFileSync(join(ROOT, 'fixtures', name), 'utf8');
export const DELIVERY_DIST = join(ROOT, 'dist', 'delivery.js');

const printers = new Set<VirtualPrinter>();
const children = new Set<ChildProcess>();
/** Processes this test started that are not its own children (a child's children): killed by pid. */
const pids = new Set<number>();
const dirs = new Set<string>();
/** Tests of this file running now: more than one when a suite runs its tests concurrently. */
let running = 0;

beforeEach(() => {
  running++;
});

// What the tests started is cleaned up once none of them runs: after each test when they run one
// after another; after the last one when a suite runs them concurrently (each has its own
// printers, terminals and agents, so what one started never stands in another's way meanwhile).
afterEach(async () => {
  if (--running > 0) return;
  for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
  children.clear();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  pids.clear();
  await Promise.all([...printers].map((p) => p.close()));
  printers.clear();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs.clear();
});

/** Waits until `check` holds, looking every 10 ms; fails after `timeoutMs` saying what it waited for. */
export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A virtual printer closed after the test, whatever happens. */
export async function virtualPrinter(options: VirtualPrinterOptions): Promise<VirtualPrinter> {
  const vp = await startVirtualPrinter(options);
  printers.add(vp);
  return vp;
}

export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bobina-delivery-'));
  dirs.add(d);
  return d;
}

export interface Child {
  process: ChildProcess;
  /** Resolves with the first stdout line matching `pattern`; rejects on exit or after `timeoutMs`. */
  line(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** The same, on stderr. */
  errLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}

/** A node child process (or `command`'s), killed (SIGKILL, by pid) after the test if still running. */
export function child(args: string[], options: { input?: 'pipe' | 'ignore'; env?: NodeJS.ProcessEnv; command?: string } = {}): Child {
  const proc = spawn(options.command ?? process.execPath, args, { cwd: ROOT, stdio: [options.input ?? 'ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  children.add(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const watch = (stream: 'stdout' | 'stderr') => (pattern: RegExp, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const text = () => (stream === 'stdout' ? out : err);
      const check = () => {
        const m = text().split('\n').find((l) => pattern.test(l));
        if (m === undefined) return false;
        clearTimeout(timer);
        proc[stream]!.off('data', onData);
        resolve(m);
        return true;
      };
      const onData = () => void check();
      const timer = setTimeout(() => reject(new Error(`no ${stream} line matching ${pattern} within ${timeoutMs} ms; stdout: ${out} stderr: ${err}`)), timeoutMs);
      if (check()) return;
      proc[stream]!.on('data', onData);
      void exited.then(() => setTimeout(() => !check() && reject(new Error(`exited before ${pattern}; stdout: ${out} stderr: ${err}`)), 10));
    });
  return { process: proc, line: watch('stdout'), errLine: watch('stderr'), exited, stdout: () => out, stderr: () => err };
}

/**
 * A node process whose parent never reaps it: a shell starts it in the background, prints its pid,
 * and becomes `sleep` (exec), which never waits for children. Killed, the process stays a zombie
 * until that parent ends: what a container whose PID 1 does not reap keeps forever. Both are killed
 * by pid after the test.
 */
export async function unreapedChild(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<{ pid: number; parent: Child }> {
  const parent = child(['-c', '"$@" & echo "unreaped $!"; exec sleep 600', 'sh', process.execPath, ...args], { ...options, command: 'sh' });
  const pid = Number(/unreaped (\d+)/.exec(await parent.line(/^unreaped \d+$/))![1]);
  pids.add(pid);
  return { pid, parent };
}

/** A process's state letter in /proc (R, S, Z…), or undefined when it has none. */
export function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0];
  } catch {
    return undefined;
  }
}
