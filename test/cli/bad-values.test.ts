// A value a command cannot use is a usage error before anything runs (exit 2, one line naming the
// flag, no stack), not a default taken in its place, nor a failure later at run time: values an
// operator's probe found taken (an empty --db opened ./bobina.sqlite, --compile-timeout 30d made
// every Insert time out, a file as --state-dir logged a stack every 3 s, --stuck-after 0.0001 was
// stored as 0 ms, an ftp:// --url retried for ever, a taken --control-port left the printer
// running and named the wrong port).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bobina, CHILD_TIMEOUT, CLI, CLI_TEST_TIMEOUT, ROOT, STACK } from '../support/cli.js';
let dir: string;
let taken: Server;
let takenPort: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bobina-bad-values-'));
  writeFileSync(join(dir, 'a-file'), 'not a directory');
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  takenPort = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('a value a command cannot use', () => {
  const db = () => join(dir, 'store.sqlite');
  const nfce = join(ROOT, 'fixtures', 'nfce.txt');
  it.each([
    ['an empty --db', () => ['users', 'list', '--db', ''], /--db needs a file name \(it was empty\)/],
    ['an empty --database-url', () => ['users', 'list', '--database-url', ''], /--database-url needs a URL/],
    ['a --stuck-after that is 0 ms once stored', () => ['users', 'set', '--email', 'a@example.com', '--stuck-after', '0.0001', '--db', db()], /--stuck-after must be seconds \(at least 0\.001/],
    ['a --compile-timeout past what a timer can wait', () => ['serve', '--db', db(), '--port', '0', '--compile-timeout', '30d'], /invalid --compile-timeout "30d": at most 24d/],
    ['a --lease past what a timer can wait', () => ['serve', '--db', db(), '--port', '0', '--lease', '25d'], /invalid --lease "25d": at most 24d/],
    ['a file as --state-dir', () => ['serve', '--db', db(), '--port', '0', '--state-dir', join(dir, 'a-file')], /--state-dir .*a-file is not a directory/],
    ['an --url that is not http or https', () => ['agent', '--url', 'ftp://127.0.0.1/', '--key', 'bobt_x', '--terminal', 'P', '--device', 'tcp://127.0.0.1:9'], /invalid --url "ftp:\/\/127\.0\.0\.1\/": the service is reached over http/],
    ['an empty -o', () => ['compile', nfce, '--printer', '5', '-o', ''], /-o needs a file name/],
    ['an empty --out', () => ['virtual-printer', '--printer', '5', '--port', '0', '--out', ''], /--out needs a directory/],
    ['a --limit of 0', () => ['webhooks', 'log', '--email', 'a@example.com', '--limit', '0', '--db', db()], /--limit "0" is not a number from 1 to 9999/],
    ['a --cursor the service never handed out', () => ['jobs', 'list', '--cursor', 'garbage', '--db', db()], /--cursor is not a valid cursor/],
  ])('%s: exits 2 naming it', (_name, args, message) => {
    const r = bobina(args());
    expect(r.code, r.stderr.toString()).toBe(2);
    expect(r.stderr.toString()).toMatch(message);
    expect(r.stderr.toString()).not.toMatch(STACK);
  }, CLI_TEST_TIMEOUT);

  // SQLite opens '' as a temporary database, deleted on close: `users add` said "added user" and
  // serve started on it, and everything written was lost. A flag naming the store still wins.
  it.each([
    ['users add', ['users', 'add', '--email', 'a@example.com', '--name', 'A', '--password', 'pw-a-1']],
    ['serve', ['serve', '--port', '0']],
  ])('an empty or blank BOBINA_DB (%s): exits 2 naming it, before opening anything', (_name, args) => {
    for (const value of ['', '  ']) {
      const r = bobina(args, undefined, { BOBINA_DB: value, DATABASE_URL: '' });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`BOBINA_DB="${value}" names no file`);
      expect(r.stderr).not.toMatch(STACK);
    }
    expect(bobina(['users', 'list', '--db', db()], undefined, { BOBINA_DB: '', DATABASE_URL: '' }).code).toBe(0);
  }, CLI_TEST_TIMEOUT);

  it('a LOG_LEVEL pino does not have: serve exits 2 naming it and the levels it takes (it stopped with pino\'s own message, exit 1)', () => {
    const r = bobina(['serve', '--db', db(), '--port', '0'], undefined, { LOG_LEVEL: 'bogus' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('LOG_LEVEL="bogus" is not a log level: one of trace, debug, info, warn, error, fatal, silent');
    expect(r.stderr).not.toMatch(STACK);
  }, CLI_TEST_TIMEOUT);

  it('a directory as standard input: exits 2, saying it cannot read it', () => {
    const stdin = openSync(dir, 'r');
    try {
      const r = spawnSync(process.execPath, [CLI, 'compile', '-', '--printer', '5'], { stdio: [stdin, 'pipe', 'pipe'], timeout: CHILD_TIMEOUT, killSignal: 'SIGKILL' });
      expect(r.status).toBe(2);
      expect(r.stderr.toString()).toMatch(/cannot read standard input: EISDIR/);
    } finally {
      closeSync(stdin);
    }
  }, CLI_TEST_TIMEOUT);

  it('a --control-port already taken: exits 2 naming that port, with nothing left listening', () => {
    const r = bobina(['virtual-printer', '--printer', '5', '--port', '0', '--control-port', String(takenPort)]);
    expect(r.code).toBe(2);
    expect(r.stderr.toString()).toContain(`cannot listen on 127.0.0.1:${takenPort}: EADDRINUSE`);
  }, CLI_TEST_TIMEOUT);
});
