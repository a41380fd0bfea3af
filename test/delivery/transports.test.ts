// Device addresses and what each transport does when the device misbehaves: refused, never
// answering the connection, not taking data, gone mid-job, a missing device, a plain file, stdout.
// Every failure says whether any byte may have reached the printer (`started`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  DeviceAddressError,
  openPrinter,
  parseDevice,
  PartialWriteError,
  PrinterOfflineError,
  PrinterRefusedError,
  PrinterTimeoutError,
} from '../../src/delivery/index.js';
import { child, tempDir, virtualPrinter } from './helpers.js';

/** A job far bigger than the kernel's socket buffers, so a printer that stops reading blocks the writer. */
const HUGE = new Uint8Array(24 * 1024 * 1024).fill(0x41);

describe('device addresses', () => {
  it.each([
    ['tcp://192.168.0.50:9100', { kind: 'tcp', host: '192.168.0.50', port: 9100 }],
    ['tcp://printer.local', { kind: 'tcp', host: 'printer.local', port: 9100 }],
    ['tcp://[::1]:9101', { kind: 'tcp', host: '::1', port: 9101 }],
    ['file:/dev/usb/lp0', { kind: 'file', path: '/dev/usb/lp0' }],
    ['file:///dev/usb/lp0', { kind: 'file', path: '/dev/usb/lp0' }],
    ['file:out/receipt.bin', { kind: 'file', path: 'out/receipt.bin' }],
    ['-', { kind: 'stdout' }],
  ])('reads %s', (text, expected) => {
    expect(parseDevice(text)).toMatchObject(expected);
  });

  it.each(['lp0', 'http://printer:9100', 'tcp://', 'tcp://host:9100/x', 'tcp://host:99999', 'file:', 'usb://x'])('rejects %s as a usage error', (text) => {
    expect(() => parseDevice(text)).toThrow(DeviceAddressError);
  });
});

describe('tcp transport', () => {
  it('reports a refused connection as never started', async () => {
    const vp = await virtualPrinter({ printer: 5 });
    const address = vp.address;
    await vp.close();
    const err = await openPrinter(address, 5).print(Uint8Array.of(0x1b, 0x40)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrinterRefusedError);
    expect(err).toMatchObject({ code: 'refused', phase: 'connect', written: 0, total: 2, started: false });
  });

  it('gives up connecting to a printer that never answers, within the connect timeout', async () => {
    // A real process that listens with a one-place queue and is then stopped: the kernel queues
    // the first connections and leaves the next ones hanging, as a hung printer does.
    const hung = child(['-e', "const s=require('net').createServer().listen({port:0,host:'127.0.0.1',backlog:1},()=>console.log(s.address().port))"]);
    const port = Number(await hung.line(/^\d+$/));
    process.kill(hung.process.pid!, 'SIGSTOP');
    const net = await import('node:net');
    const fillers: import('node:net').Socket[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const s = net.connect({ port, host: '127.0.0.1' });
        fillers.push(s);
        s.on('error', () => undefined);
        const connected = await new Promise((r) => (s.once('connect', () => r(true)), setTimeout(() => r(false), 150)));
        if (!connected) break;
      }
      const err = await openPrinter(`tcp://127.0.0.1:${port}`, 5, { connectTimeoutMs: 200 }).print(Uint8Array.of(0x1b, 0x40)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PrinterTimeoutError);
      expect(err).toMatchObject({ phase: 'connect', started: false });
    } finally {
      for (const s of fillers) s.destroy();
    }
  }, 15000);

  it('times out a printer that stops taking data, saying how much it took', async () => {
    const vp = await virtualPrinter({ printer: 5, state: { offline: 'silent' } });
    const err = await openPrinter(vp.address, 5, { writeTimeoutMs: 250, chunkBytes: 64 * 1024 }).print(HUGE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrinterTimeoutError);
    expect(err).toMatchObject({ phase: 'write', started: true, total: HUGE.length });
    expect((err as PrinterTimeoutError).written).toBeLessThan(HUGE.length);
    expect((err as Error).message).toMatch(/after \d+ of 25165824 bytes/);
  }, 15000);

  it('reports a printer that goes away mid-job as a partial write, and the printer keeps a torn job', async () => {
    const vp = await virtualPrinter({ printer: 5, state: { slow: 200_000 } });
    const session = openPrinter(vp.address, 5, { chunkBytes: 64 * 1024 });
    const printing = session.print(HUGE).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    await vp.setState({ offline: 'refuse' });
    const read = vp.received;
    const err = await printing;
    expect(err).toBeInstanceOf(PartialWriteError);
    expect(err).toMatchObject({ code: 'partial-write', started: true });
    await vp.setState({ offline: 'no' });
    const [torn] = await vp.waitForJobs(1, 5000);
    // The printer keeps exactly what it had read when it went away.
    expect(torn).toMatchObject({ endedBy: 'reset', complete: false, size: read });
    expect(torn!.size).toBeGreaterThan(0);
    expect(torn!.size).toBeLessThan(HUGE.length);
    expect((err as PartialWriteError).written).toBeGreaterThanOrEqual(read);
  }, 15000);
});

describe('file and stdout transports', () => {
  it('appends a job to a plain file and says its status is unavailable', async () => {
    const path = join(tempDir(), 'printer.bin');
    writeFileSync(path, 'before:');
    const session = openPrinter(`file:${path}`, 5);
    expect(await session.status()).toMatchObject({ available: false, ready: true, reasons: [] });
    expect(await session.print(Uint8Array.of(0x1b, 0x40, 0x41, 0x0a))).toEqual({ written: 4, confirmacao: 'sent', confirmation: 'not-requested', motivos: [] });
    expect(readFileSync(path, 'latin1')).toBe('before:\x1b@A\n');
  });

  it('writes to a character device and, when it never answers, calls its status unavailable rather than offline', async () => {
    const session = openPrinter('file:/dev/null', 5, { statusTimeoutMs: 100 });
    expect(await session.status()).toMatchObject({ available: false, ready: true, detail: 'no answer to 10 04 01 within 100 ms' });
    expect((await session.print(Uint8Array.of(0x1b, 0x40))).written).toBe(2);
  });

  it('calls a missing device offline, never started', async () => {
    const session = openPrinter(`file:${join(tempDir(), 'no', 'lp0')}`, 5);
    expect(await session.status()).toMatchObject({ ready: false, reasons: ['offline'] });
    const err = await session.print(Uint8Array.of(0x1b, 0x40)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrinterOfflineError);
    expect(err).toMatchObject({ started: false, phase: 'connect' });
  });

  it('writes to stdout with "-", with no status and no confirmation', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (d: Buffer) => chunks.push(d));
    const session = openPrinter('-', 5, { stdout: out });
    expect((await session.status()).available).toBe(false);
    expect(await session.print(Uint8Array.of(1, 2, 3))).toMatchObject({ written: 3, confirmacao: 'sent' });
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([1, 2, 3]));
  });
});
