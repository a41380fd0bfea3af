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

/** How long one `bobina()` run may take before it is killed (SIGKILL) and fails its test. */
export const CHILD_TIMEOUT = 60_000;
/**
 * A timeout for tests that run the CLI: above CHILD_TIMEOUT, so a slow child (a loaded 2-core
 * machine takes seconds to start Node and render a preview) is not cut by vitest's 5 s default,
 * while a hung one still fails on its own kill. Files that run the CLI set it with
 * `vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT })`.
 */
export const CLI_TEST_TIMEOUT = CHILD_TIMEOUT + 10_000;

export function bobina(args: string[], input?: string | Buffer, env?: Record<string, string>): Run {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" (npm test does it first)`);
  // Bounded: a CLI that hangs fails its test (code null, the error said) instead of the whole run.
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, input, maxBuffer: 64 * 1024 * 1024, timeout: CHILD_TIMEOUT, killSignal: 'SIGKILL', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') + (r.error ? `\n${r.error.message}` : '') };
}

/** A stack trace would show frames like "    at fn (file:line:col)". */
export const STACK = /^\s+at\s/m;
