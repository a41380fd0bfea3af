// Passwords typed at a prompt are never echoed, and the prompt leaves the terminal as it found
// it; the serve settings default to loopback and read --trust-proxy (issue 10 items 5 and 10).
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveSettings } from '../../src/cli/commands/serve.js';
import type { Io } from '../../src/cli/io.js';
import { readPassword } from '../../src/cli/password.js';

/** A terminal that records raw mode and lets the test type, and an stderr that records what was shown. */
function fakeTerminal() {
  const stdin = Object.assign(new EventEmitter(), {
    isTTY: true as const,
    raw: [] as boolean[],
    setRawMode(on: boolean) {
      this.raw.push(on);
      return this;
    },
    resume() { return this; },
    pause() { return this; },
  });
  const stderr = new PassThrough();
  let shown = '';
  stderr.on('data', (d: Buffer) => (shown += d.toString()));
  const io = { stdout: new PassThrough(), stderr, readStdin: () => Buffer.alloc(0), stdin } as unknown as Io;
  const type = (...chunks: string[]) => {
    for (const c of chunks) stdin.emit('data', Buffer.from(c));
  };
  return { io, stdin, type, shown: () => shown };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the password prompt', () => {
  it('reads a line in raw mode without echoing it, handling backspace, and asks twice when confirming', async () => {
    const t = fakeTerminal();
    const pending = readPassword({}, t.io, true);
    await tick();
    t.type('se', 'cret', '\u007f', 'T\r');
    await tick();
    t.type('secreT\n');
    expect(await pending).toBe('secreT');
    expect(t.shown()).toBe('Password: \nRepeat password: \n');
    expect(t.stdin.raw).toEqual([true, false, true, false]);
  });

  it('refuses two different passwords, and stops at Ctrl-C', async () => {
    const t = fakeTerminal();
    const mismatch = readPassword({}, t.io, true);
    await tick();
    t.type('one\r');
    await tick();
    t.type('two\r');
    await expect(mismatch).rejects.toThrow(/do not match/);
    const cancelled = readPassword({}, t.io, false);
    await tick();
    t.type('abc\u0003');
    await expect(cancelled).rejects.toThrow(/cancelled/);
    expect(t.stdin.raw.at(-1)).toBe(false);
  });
});

describe('bobina serve settings', () => {
  it('bind 127.0.0.1 unless --host or HOST says otherwise', () => {
    expect(serveSettings([], {}).host).toBe('127.0.0.1');
    expect(serveSettings(['--host', '0.0.0.0'], {}).host).toBe('0.0.0.0');
    expect(serveSettings([], { HOST: '::' }).host).toBe('::');
  });

  it('take --trust-proxy (or BOBINA_TRUST_PROXY) as true, a hop count, or proxy addresses, and no trust by default', () => {
    expect(serveSettings([], {}).trustProxy).toBeUndefined();
    expect(serveSettings(['--trust-proxy', 'true'], {}).trustProxy).toBe(true);
    expect(serveSettings(['--trust-proxy', '2'], {}).trustProxy).toBe(2);
    expect(serveSettings([], { BOBINA_TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toBe('127.0.0.1,10.0.0.0/8');
    expect(() => serveSettings(['--trust-proxy', ''], {})).toThrow(/needs a value/);
  });

  it('take the fleet timing from --heartbeat and --offline-grace, else BOBINA_HEARTBEAT and BOBINA_OFFLINE_GRACE', () => {
    expect(serveSettings([], {}).fleet).toBeUndefined();
    expect(serveSettings(['--heartbeat', '30s', '--offline-grace', '2s'], {}).fleet).toEqual({ heartbeatMs: 30_000, offlineGraceMs: 2_000 });
    expect(serveSettings([], { BOBINA_HEARTBEAT: '1m', BOBINA_OFFLINE_GRACE: '500ms' }).fleet).toEqual({ heartbeatMs: 60_000, offlineGraceMs: 500 });
    expect(serveSettings(['--heartbeat', '20s'], { BOBINA_HEARTBEAT: '1m' }).fleet).toEqual({ heartbeatMs: 20_000 });
    expect(() => serveSettings([], { BOBINA_OFFLINE_GRACE: '-1' })).toThrow(/invalid BOBINA_OFFLINE_GRACE "-1"/);
    expect(() => serveSettings(['--heartbeat', '0'], {})).toThrow(/invalid --heartbeat "0"/);
  });

  it('take --idempotency-keep as a duration, and leave the default (24 h) to the jobs otherwise', () => {
    expect(serveSettings(['--idempotency-keep', '48h'], {}).jobs).toEqual({ idempotencyKeepMs: 48 * 3_600_000 });
    expect(serveSettings([], {}).jobs).toBeUndefined();
    expect(() => serveSettings(['--idempotency-keep', 'forever'], {})).toThrow(/invalid --idempotency-keep/);
  });

  it('take --job-keep as a duration (no timer: 90 days is fine), and leave the default (30 days) to the jobs otherwise', () => {
    expect(serveSettings(['--job-keep', '90d'], {}).jobs).toEqual({ keepMs: 90 * 86_400_000 });
    expect(() => serveSettings(['--job-keep', '0'], {})).toThrow(/invalid --job-keep "0"/);
  });
});
