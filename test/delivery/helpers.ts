// Shared by the delivery tests: virtual printers that are always closed, child processes that are
// always killed (by pid), and the compiled fixtures.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startVirtualPrinter, type VirtualPrinter, type VirtualPrinterOptions } from '../../src/delivery/index.js';
import { ROOT } from '../support/cli.js';

export const FIXTURES = readdirSync(join(ROOT, 'fixtures')).filter((f) => f.endsWith('.txt'));
export const fixture = (name: string) => readFileSync(join(ROOT, 'fixtures', name), 'utf8');
export const DELIVERY_DIST = join(ROOT, 'dist', 'delivery.js');

const printers = new Set<VirtualPrinter>();
const children = new Set<ChildProcess>();
const dirs = new Set<string>();

afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
  children.clear();
  await Promise.all([...printers].map((p) => p.close()));
  printers.clear();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs.clear();
});

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

/** A node child process, killed (SIGKILL, by pid) after the test if still running. */
export function child(args: string[], options: { input?: 'pipe' | 'ignore'; env?: NodeJS.ProcessEnv } = {}): Child {
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: [options.input ?? 'ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
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
