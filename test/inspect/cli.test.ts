// The disasm, preview and selftest commands as a user runs them: a child process, exit codes
// 0 (done), 1 (content errors), 2 (usage), and one-line errors without stack traces.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { bobina, STACK, CLI_TEST_TIMEOUT } from '../support/cli.js';

// Tests here run the CLI as a child process (support/cli.ts).
vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT });

const dir = mkdtempSync(join(tmpdir(), 'bobina-inspect-'));
const PNG_MAGIC = '89504e470d0a1a0a';

describe('bobina disasm', () => {
  it('lists a byte stream from stdin one command per line, text decoded in CP850', () => {
    const r = bobina(['disasm', '-', '--printer', '5'], Buffer.from([0x1b, 0x40, 0x1b, 0x61, 0x01, 0x50, 0xc6, 0x6f, 0x0a, 0x1d, 0x56, 0x42, 0x00]));
    expect(r.code).toBe(0);
    const lines = r.stdout.toString('utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^000002 {2}1B 61 01 +ESC a +select justification \(n=1, align="center"\)$/);
    expect(lines[2]).toContain('"Pão\\n"');
    expect(lines[3]).toContain('mode="partial"');
  });

  it('reads a compiled file in the Daruma dialect when asked for the DR800', () => {
    const bin = join(dir, 'dr800.bin');
    expect(bobina(['compile', 'fixtures/small.txt', '--printer', '3', '-o', bin]).code).toBeLessThan(2);
    const r = bobina(['disasm', bin, '--printer', 'MAKER3DR800']);
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).not.toContain('UNKNOWN');
  });

  it.each([
    [['disasm'], 'missing input file'],
    [['disasm', 'no/such/file.bin'], 'no such file'],
    [['disasm', '-', '--printer', '42'], 'unknown printer'],
    [['disasm', '-', '--bogus'], 'bogus'],
  ])('exits 2 with one line for %j', (args, message) => {
    const r = bobina(args, Buffer.alloc(0));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe('bobina preview', () => {
  it('writes a PNG and an SVG of the compiled receipt', () => {
    const png = join(dir, 'nfce.png');
    const svg = join(dir, 'nfce.svg');
    expect(bobina(['preview', 'fixtures/nfce.txt', '--printer', '4', '-o', png]).code).toBe(0);
    expect(readFileSync(png).subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
    const r = bobina(['preview', 'fixtures/nfce.txt', '--printer', 'MAKER5T20', '-o', svg]);
    expect(r.code).toBe(0);
    expect(readFileSync(svg, 'utf8')).toContain('Obrigado');
  });

  it('prints SVG on stdout without -o, and previews raw bytes with --bytes', () => {
    const r = bobina(['preview', '-', '--printer', '5'], 'Olá\n');
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toContain('<svg');
    const raw = bobina(['preview', '-', '--printer', '5', '--bytes'], Buffer.from([0x41, 0x0a, 0x1d, 0x56, 0x41, 0x00]));
    expect(raw.stdout.toString()).toContain('full cut');
  });

  it('exits 1 when the content has errors, after writing what it could', () => {
    const r = bobina(['preview', '-', '--printer', '5'], `<qrcode>${'x'.repeat(8000)}</qrcode>`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error');
    expect(r.stderr).not.toMatch(STACK);
  });

  it.each([
    [['preview', 'fixtures/nfce.txt'], 'missing --printer'],
    [['preview', 'fixtures/nfce.txt', '--printer', '5', '-o', 'x.gif'], '.png or .svg'],
    [['preview', 'fixtures/nfce.txt', '--printer', 'NOPE'], 'unknown printer'],
  ])('exits 2 with one line for %j', (args, message) => {
    const r = bobina(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe('bobina selftest', () => {
  it('writes the page bytes with -o and its picture with --preview', () => {
    const bin = join(dir, 'selftest.bin');
    const png = join(dir, 'selftest.png');
    const r = bobina(['selftest', '--printer', '4', '-o', bin, '--preview', png]);
    expect(r.code).toBe(0);
    expect(readFileSync(bin).subarray(0, 2).toString('hex')).toBe('1b40');
    expect(readFileSync(png).subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
  });

  it('lists the page on stdout without -o', () => {
    const r = bobina(['selftest', '--printer', 'MAKER3DR800']);
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toContain('BOBINA SELF-TEST');
  });

  it('exits 2 without a printer or with an unknown one', () => {
    for (const args of [['selftest'], ['selftest', '--printer', '99'], ['selftest', 'extra', '--printer', '5']]) {
      const r = bobina(args);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(STACK);
    }
  });
});
