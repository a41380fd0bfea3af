// `bobina compile` and `bobina printers`, black box: exit codes, outputs, diagnostics format.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { compile } from '../../src/index.js';
import { bobina, ROOT, STACK, CLI_TEST_TIMEOUT } from '../support/cli.js';

// Tests here run the CLI as a child process (support/cli.ts).
vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT });

const nfce = join('fixtures', 'nfce.txt');

describe('bobina compile', () => {
  it('prints the readable listing by default, identical to the golden file', () => {
    const r = bobina(['compile', nfce, '--printer', 'MAKER5T20']);
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toBe(readFileSync(join(ROOT, 'fixtures/expected/nfce/MAKER5T20.hex'), 'utf8'));
    expect(r.stderr).toMatch(/^fixtures\/nfce\.txt:41:1: info lower\/qr-raster-fallback: /m);
  });

  it('writes the exact bytes with -o, by id or by code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bobina-cli-'));
    const out = join(dir, 'out.bin');
    const expected = compile(readFileSync(join(ROOT, nfce), 'utf8'), { printer: 3 }).bytes;
    for (const printer of ['3', 'MAKER3DR800']) {
      const r = bobina(['compile', nfce, '--printer', printer, '-o', out]);
      expect(r.code).toBe(0);
      expect(Buffer.compare(readFileSync(out), Buffer.from(expected))).toBe(0);
    }
  });

  it('reads stdin for "-" and writes raw bytes with --format bin', () => {
    const r = bobina(['compile', '-', '--printer', '5', '--format', 'bin'], 'Olá\n<paperCutFull>');
    expect(r.code).toBe(0);
    expect(r.stdout.toString('hex')).toBe('1b40' + '1b7402' + '4f6ca00a' + '1d564100');
  });

  it('gives bytes and diagnostics as JSON with --format json', () => {
    const r = bobina(['compile', '-', '--printer', '3', '--format', 'json'], '<paperCutPartial>');
    const body = JSON.parse(r.stdout.toString());
    expect(Buffer.from(body.bytes, 'base64').toString('hex')).toBe('1b40' + '0a0a0a1b6d');
    expect(body.diagnostics[0]).toMatchObject({ code: 'lower/partial-cut-fallback', severity: 'warning', span: { start: { line: 1, column: 1 } } });
  });

  it('exits 0 with warnings, and 1 with them under --strict', () => {
    expect(bobina(['compile', '-', '--printer', '4'], '<textCondensedOn>x').code).toBe(0);
    const strict = bobina(['compile', '-', '--printer', '4', '--strict'], '<textCondensedOn>x');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe('<stdin>:1:1: warning lower/condensed-unsupported: Elgin i9 has no condensed text: <textCondensedOn> is ignored\n');
  });

  it('exits 1 on an error diagnostic, printed as file:line:col: severity code: message', () => {
    const r = bobina(['compile', '-', '--printer', '5'], 'total\n  <qrcode>https://x');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^<stdin>:2:3: error parse\/unclosed-qrcode: /);
    expect(r.stderr).not.toMatch(STACK);
  });

  it.each([
    [['compile', nfce], /missing --printer/],
    [['compile', '--printer', '5'], /missing input file/],
    [['compile', nfce, '--printer', 'MAKER9'], /unknown printer "MAKER9"/],
    [['compile', nfce, '--printer', '5', '--format', 'pdf'], /--format must be one of bin, hex, json/],
    [['compile', 'no/such/file.txt', '--printer', '5'], /cannot read no\/such\/file\.txt: no such file/],
    [['compile', nfce, '--printer', '5', '--bogus'], /Unknown option '--bogus'/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('exits 2 on the usage error %j, with one clear line and no stack', (args, message) => {
    const r = bobina(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe('bobina printers', () => {
  it('lists the seven templates with what degrades where', () => {
    const r = bobina(['printers']);
    expect(r.code).toBe(0);
    const lines = r.stdout.toString().trim().split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[4]).toMatch(/^3\s+MAKER3DR800\s+Daruma DR800\s+full cut\s+yes\s+raster image/);
    expect(lines[4]).toMatch(/native \(daruma-esc-b\), CODE128 raster$/);
    expect(lines[4]).toMatch(/\sbold underline size≤2x2, invert dropped\s/);
    expect(lines[6]).toMatch(/\sbold underline invert size≤8x8\s/);
    expect(lines[1]).toMatch(/\sremoved\s/);
    expect(lines[5]).toMatch(/native \(epson-gs-k\)$/);
    expect(lines[1]).toMatch(/as text$/);
  });

  it('gives the same as JSON', () => {
    const rows = JSON.parse(bobina(['printers', '--json']).stdout.toString());
    expect(rows[4]).toMatchObject({ id: 4, code: 'MAKER4I9', capabilities: expect.arrayContaining(['qr.native']) });
    expect(rows[3]).toMatchObject({ sizeMax: { width: 2, height: 2 }, missing: { invert: 'dropped' } });
    expect(rows[3].barcodes).toEqual({ ean13: 'native', ean8: 'native', upca: 'native', code39: 'native', code128: 'raster image', itf: 'native', codabar: 'native' });
  });

  it('says the generic template claims nothing and removes what it cannot print', () => {
    const rows = JSON.parse(bobina(['printers', '--json']).stdout.toString());
    expect(rows[0]).toMatchObject({ code: 'GENERICA', capabilities: [], missing: { cut: 'removed', 'cut.partial': 'removed', condensed: 'removed', drawer: 'removed', bold: 'removed', size: 'removed', 'qr.native': 'as text' } });
    expect(rows[3]).toMatchObject({ code: 'MAKER3DR800', missing: { 'cut.partial': 'full cut', invert: 'dropped', 'qr.native': 'raster image' } });
  });
});
