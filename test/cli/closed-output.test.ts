// A closed output (`bobina … | head -3`): the command ends quietly, exit 141 as a shell reports for
// cat or git ended by SIGPIPE, never Node's "Unhandled 'error' event" and its stack
// (src/cli/closed-output.ts). Each child's stdout is closed by this process, the reader.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bobina, CHILD_TIMEOUT, CLI, CLI_TEST_TIMEOUT, ROOT, STACK } from '../support/cli.js';

vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT });

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Bytes read before the pipe was closed. */
  read: number;
}

/**
 * Runs the CLI and closes its stdout: at once, or after the first chunk (as `head -1` does once it
 * has its line); `input`, if any, is written to its stdin and stdin is left open. Killed (and the
 * test failed) after CHILD_TIMEOUT.
 */
function closingStdout(args: string[], o: { after?: 'start' | 'first-chunk'; input?: string } = {}): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT);
    let stderr = '';
    let read = 0;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    if ((o.after ?? 'start') === 'start') child.stdout.destroy();
    else child.stdout.once('data', (chunk: Buffer) => {
      read = chunk.length;
      child.stdout.destroy();
    });
    if (o.input !== undefined) child.stdin.write(o.input);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, read });
    });
  });
}

let dir: string;
let db: string;
let big: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bobina-closed-'));
  db = join(dir, 'db.sqlite');
  // Far more than a pipe holds (64 KiB): compile is still writing when the reader goes.
  big = join(dir, 'big.txt');
  writeFileSync(big, Array.from({ length: 3000 }, (_, i) => `line ${i} of plain text\n`).join(''));
  expect(bobina(['users', 'add', '--email', 'ana@example.com', '--password', 'pw-ana-1', '--name', 'Ana', '--db', db]).code).toBe(0);
  expect(bobina(['terminals', 'add', '--email', 'ana@example.com', '--terminal', 'PDV', '--db', db]).code).toBe(0);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quiet = (r: Ended) => {
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
  expect(r.signal).toBeNull();
  expect(r.code).toBe(141);
};

describe('a closed stdout', () => {
  it('ends compile quietly when the reader goes after the first lines (| head -1)', async () => {
    const r = await closingStdout(['compile', big, '--printer', '5'], { after: 'first-chunk' });
    expect(r.read).toBeGreaterThan(0);
    quiet(r);
  });

  it.each([
    ['printers', ['printers']],
    ['--help', ['--help']],
    ['terminals status', ['terminals', 'status', '--db', '{db}']],
    ['users list --json', ['users', 'list', '--json', '--db', '{db}']],
  ])('ends %s quietly when stdout is closed before it writes', async (_name, args) => {
    quiet(await closingStdout(args.map((a) => (a === '{db}' ? db : a))));
  });

  it('stops the virtual printer in order when its answers have nowhere to go', async () => {
    const r = await closingStdout(['virtual-printer', '--printer', '5', '--port', '0'], { input: 'state\n' });
    quiet(r);
    expect(r.stderr).toMatch(/listening on tcp:\/\/127\.0\.0\.1:\d+/);
  });
});

describe('a closed stdout and stderr under bobina serve', () => {
  it('does not end the service: it serves on, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--db', db], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'info' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT);
    // stderr closed at once: its "listening on" line meets EPIPE (before, that stopped the service with exit 141).
    child.stderr.destroy();
    try {
      // Its port from the server's own log line, on stdout; then stdout closed too: every later log line meets EPIPE.
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve ended (exit ${code}): ${out}`)));
      });
      child.stdout.destroy();
      // Requests make log lines, each written into the closed pipe.
      for (let i = 0; i < 5; i++) expect((await fetch(`${url}/health`)).status).toBe(200);
      expect((await fetch(`${url}/nowhere`)).status).toBe(404);
      expect(child.exitCode).toBeNull();
      const ended = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await ended).toBe(0);
    } finally {
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
