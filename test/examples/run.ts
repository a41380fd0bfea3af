// Runs an example as a user would: `node examples/…` from the repository root, as a child process
// that is always ended (by pid) when the test is done or its time is up. Asynchronous, so a server
// the test runs in process (the virtual printer) keeps answering meanwhile.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/cli.js';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function needsBuild(): void {
  // The examples import 'bobina', which resolves to this package's dist/ (npm test builds it first).
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run "npm run build" (npm test does it first)');
}

/** Runs `node <script> …args` to its end; killed with SIGKILL after `timeoutMs`. */
export function runExample(script: string, args: string[], timeoutMs = 30_000, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  needsBuild();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, script), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms)`;
      process.kill(child.pid!, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `node <script>` and resolves once a stdout line matches `ready`; `stop()` ends it by pid. */
export function startExample(script: string, env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs = 30_000) {
  needsBuild();
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [join(ROOT, script)], { cwd: ROOT, env: { ...process.env, ...env } });
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const started = new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    let pending = '';
    child.stdout.on('data', (d: Buffer) => {
      pending += d.toString('utf8');
      const parts = pending.split('\n');
      pending = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const m = line.match(ready);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before it was ready: ${stderr}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    started,
    lines,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
      await exited;
    },
  };
}
