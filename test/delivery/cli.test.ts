// `bobina virtual-printer` end to end: the built CLI as a child process, a job delivered to it over
// TCP, its files in --out, its state changed on stdin and over the HTTP control port, "quit".
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { deliver, openPrinter } from '../../src/delivery/index.js';
import { bobina, CLI, STACK } from '../support/cli.js';
import { child, fixture, tempDir, virtualPrinter } from './helpers.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('bobina virtual-printer', () => {
  it('prints a job into --out with its preview, and changes state from stdin and from the control port', async () => {
    const out = tempDir();
    const vp = child([CLI, 'virtual-printer', '--port', '0', '--printer', 'MAKER3DR800', '--out', out, '--control-port', '0'], { input: 'pipe' });
    const address = /listening on (tcp:\/\/\S+?),/.exec(await vp.errLine(/listening on/))![1]!;
    const control = /control on (\S+)/.exec(await vp.errLine(/control on/))![1]!;

    const bytes = compile(fixture('kitchen.txt'), { printer: 'MAKER3DR800' }).bytes;
    expect(await deliver(openPrinter(address, 'MAKER3DR800'), { id: '1', token: 't', bytes })).toMatchObject({ outcome: 'completed', confirmacao: 'sent' });
    await vp.errLine(/job 1: \d+ bytes, complete, saved/);
    expect(readdirSync(out).sort()).toEqual(['job-0001.bin', 'job-0001.json', 'job-0001.png']);
    expect(readFileSync(join(out, 'job-0001.bin')).equals(Buffer.from(bytes))).toBe(true);
    expect(readFileSync(join(out, 'job-0001.png')).subarray(0, 4).equals(PNG)).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'job-0001.json'), 'utf8'))).toMatchObject({ seq: 1, size: bytes.length, complete: true, endedBy: 'close' });

    vp.process.stdin!.write('paper out\n');
    await vp.line(/"paper":"out"/);
    expect((await openPrinter(address, 'MAKER3DR800').status()).reasons).toEqual(['media-empty']);

    vp.process.stdin!.write('paper sideways\n');
    await vp.errLine(/paper: expected ok \| low \| out/);

    const set = await fetch(`${control}/state`, { method: 'POST', body: JSON.stringify({ paper: 'ok', cover: 'open' }) });
    expect(set.status).toBe(200);
    expect((await openPrinter(address, 'MAKER3DR800').status()).reasons).toEqual(['cover-open']);
    expect((await fetch(`${control}/state`, { method: 'POST', body: '{"paper":"soon"}' })).status).toBe(400);
    const jobs = (await (await fetch(`${control}/jobs`)).json()) as { seq: number; sha256: string }[];
    expect(jobs.map((j) => j.seq)).toEqual([1]);
    expect(Buffer.from(await (await fetch(`${control}/jobs/1`)).arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    vp.process.stdin!.write('quit\n');
    expect(await vp.exited).toEqual({ code: 0, signal: null });
  }, 20000);

  it('stops cleanly on SIGTERM', async () => {
    const vp = child([CLI, 'virtual-printer', '--port', '0', '--printer', '5'], { input: 'pipe' });
    await vp.errLine(/type "help"/);
    process.kill(vp.process.pid!, 'SIGTERM');
    expect(await vp.exited).toEqual({ code: 0, signal: null });
  }, 20000);

  it('numbers jobs after those already in --out, so a restart overwrites nothing', async () => {
    const out = tempDir();
    const first = await virtualPrinter({ printer: 'GENERICA', out });
    await deliver(openPrinter(first.address, 'GENERICA'), { id: '1', token: 't', bytes: compile('one', { printer: 0 }).bytes });
    await first.close();
    const second = await virtualPrinter({ printer: 'GENERICA', out });
    await deliver(openPrinter(second.address, 'GENERICA'), { id: '2', token: 't', bytes: compile('two', { printer: 0 }).bytes });
    expect(second.jobs.map((j) => j.seq)).toEqual([2]);
    expect(readdirSync(out).filter((f) => f.endsWith('.bin')).sort()).toEqual(['job-0001.bin', 'job-0002.bin']);
  });

  it.each([
    [['virtual-printer', '--port', '0'], /missing --printer/],
    [['virtual-printer', '--port', 'x', '--printer', '5'], /invalid --port "x"/],
    [['virtual-printer', '--port', '0', '--printer', 'MAKER9'], /unknown printer "MAKER9"/],
    [['virtual-printer', '--port', '0', '--printer', '5', '--colour'], /Unknown option '--colour'/],
  ])('exits 2 with one line for %j', { timeout: 20_000 }, (args, message) => {
    const r = bobina(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK);
  });

  it('exits 2 when the port is taken', async () => {
    const taken = await virtualPrinter({ printer: 5 });
    const r = bobina(['virtual-printer', '--port', String(taken.port), '--printer', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot listen on 127.0.0.1:\d+: EADDRINUSE/);
  }, 20000);
});
