// Runs the built `bobina` CLI as a user would: a child process, exit code, stdout, stderr.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

export interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export function bobina(args: string[], input?: string | Buffer): Run {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" (npm test does it first)`);
  // Bounded: a CLI that hangs fails its test (code null, the error said) instead of the whole run.
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, input, maxBuffer: 64 * 1024 * 1024, timeout: 60_000, killSignal: 'SIGKILL' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') + (r.error ? `\n${r.error.message}` : '') };
}

/** A stack trace would show frames like "    at fn (file:line:col)". */
export const STACK = /^\s+at\s/m;
