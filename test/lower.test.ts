// Degradations per the spec's support table, each a diagnostic naming the printer with a span.
import { describe, expect, it } from 'vitest';
import { compile, lower, parse } from '../src/index.js';

const diag = (s: string, printer: number | string) => compile(s, { printer }).diagnostics.map((d) => `${d.severity} ${d.code}@${d.span.start.line}:${d.span.start.column}`);

describe('lower', () => {
  it('turns a partial cut into a full cut on the DR800, and says so', () => {
    expect(diag('x\n<paperCutPartial>', 3)).toEqual(['warning lower/partial-cut-fallback@2:1']);
    expect(lower(parse('<paperCutPartial>').ast, 3).ops).toMatchObject([{ op: 'cut', partial: false }]);
    expect(lower(parse('<paperCutPartial>').ast, 5).ops).toMatchObject([{ op: 'cut', partial: true }]);
  });

  it('drops condensed text on the i9 with a warning per tag', () => {
    expect(diag('<textCondensedOn>a<textCondensedOff>', 4)).toEqual(['warning lower/condensed-unsupported@1:1', 'warning lower/condensed-unsupported@1:19']);
    expect(compile('<textCondensedOn>a<textCondensedOff>', { printer: 4 }).diagnostics[0]!.message).toContain('Elgin i9');
  });

  it.each([2, 3, 5, 6])('prints QR as a raster image on template %i, as an info', (id) => {
    expect(diag('<qrcode>abc</qrcode>', id)).toEqual(['info lower/qr-raster-fallback@1:1']);
  });

  it('keeps QR native on template 4', () => {
    expect(diag('<qrcode>abc</qrcode>', 4)).toEqual([]);
  });

  it("prints the MP-4200's QR as a raster image by default, and natively in ESC/Bema mode when the profile asks", () => {
    expect(diag('<qrcode>abc</qrcode>', 1)).toEqual(['info lower/qr-raster-fallback@1:1']);
    const native = compile('<qrcode>abc</qrcode>', { printer: { extends: 1, qr: { command: 'bematech-gs-k-q' } } });
    expect(native.diagnostics).toEqual([]);
    expect(Buffer.from(native.bytes).toString('hex')).toContain('1df92030' + '1d6b51' + '01' + '080001' + '0300' + '616263' + '1df92031' + '1b7402');
  });

  it('reports too much data for a QR code as an error, not a crash', () => {
    for (const id of [1, 4, 5]) expect(diag(`<qrcode>${'x'.repeat(3000)}</qrcode>`, id)).toEqual(['error lower/qr-too-long@1:1']);
  });

  it('reports a QR code too large for the paper even at one dot per module', () => {
    const narrow = { extends: 'MAKER5T20', image: { widthDots: 64 } };
    expect(compile(`<qrcode>${'x'.repeat(200)}</qrcode>`, { printer: narrow }).diagnostics.map((d) => d.code)).toEqual(['lower/qr-too-wide']);
  });

  it('warns about an empty QR code and prints nothing for it', () => {
    expect(diag('<qrcode></qrcode><qrcode/>', 5)).toEqual(['warning lower/qr-empty@1:1', 'warning lower/qr-empty@1:18']);
  });

  it('transliterates what CP850 lacks and replaces what it cannot, with a warning each', () => {
    const { bytes, diagnostics } = compile('“a” € 😀', { printer: 5 });
    expect(Buffer.from(bytes).toString('latin1')).toContain('"a" EUR ?');
    expect(diagnostics.map((d) => d.code)).toEqual(['text/transliterated', 'text/transliterated', 'text/transliterated', 'text/replaced']);
  });

  it('encodes every Portuguese letter exactly in CP850', () => {
    const { bytes } = compile('çãõáéíóúâêôàüÇÃÕÁÉÍÓÚÂÊÔÀÜ', { printer: 5 });
    expect(Buffer.from(bytes.subarray(5, 31)).toString('hex')).toBe('87c6e4a082a1a2a383889385818 0c7e5b590d6e0e9b6d2e2b79a'.replace(' ', ''));
  });

  it('removes control characters from text and normalises CRLF and CR to LF', () => {
    const { bytes, diagnostics } = compile('a\x1bp\x00\x19\xfab\r\nc\rd', { printer: 5 });
    expect(Buffer.from(bytes.subarray(5)).toString('latin1')).toBe('ap\xa3b\nc\nd\n');
    expect(diagnostics.map((d) => d.code)).toEqual(['text/control-removed', 'text/control-removed', 'text/control-removed']);
  });
});
