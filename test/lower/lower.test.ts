// Degradations per the spec's support table, each a diagnostic naming the printer with a span.
import { describe, expect, it } from 'vitest';
import { compile, loadProfile, lower, parse, receipt, type ProfileInput } from '../../src/index.js';
import { hex } from '../support/hex.js';

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
    expect(hex(native.bytes)).toContain('1df92030' + '1d6b51' + '01' + '080001' + '0300' + '616263' + '1df92031' + '1b7402');
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
    expect(hex(bytes.subarray(5, 31))).toBe('87c6e4a082a1a2a383889385818 0c7e5b590d6e0e9b6d2e2b79a'.replace(' ', ''));
  });

  it('removes control characters from text and normalises CRLF and CR to LF', () => {
    const { bytes, diagnostics } = compile('a\x1bp\x00\x19\xfab\r\nc\rd', { printer: 5 });
    expect(Buffer.from(bytes.subarray(5)).toString('latin1')).toBe('ap\xa3b\nc\nd\n');
    expect(diagnostics.map((d) => d.code)).toEqual(['text/control-removed', 'text/control-removed', 'text/control-removed']);
  });
});

// The IR that the public lower() returns and the message for a tag no data covers, at the points
// the tests above did not look: each kept because a mutant of src/lower survived without it
// (`npm run mutation`, bench/MUTATION.md).
describe('lower()', () => {
  it('marks clean text for a one-byte code page as Latin-1, and not for UTF-8 output', () => {
    expect(lower(parse('ab').ast, 5).ops).toEqual([{ op: 'text', text: 'ab', start: 0, end: 2, latin1: true }]);
    expect(lower(parse('ab').ast, 0).ops).toEqual([{ op: 'text', text: 'ab', start: 0, end: 2 }]);
  });
});

describe('a tag the printer cannot do, with no fallback in its data', () => {
  it('is lower/command-unsupported, naming the printer and the tag, and prints nothing for it', () => {
    // The generic template's data without its "missing" entries: a plain-text printer that says so.
    const { caps: _c, bytes: _b, missing: _m, ...data } = loadProfile(0);
    const printer = loadProfile(structuredClone(data) as ProfileInput);
    const { bytes, diagnostics } = compile('a<cashDrawerOpen>b<paperCutFull>', { printer });
    expect(new TextDecoder().decode(bytes)).toBe('ab\n');
    expect(diagnostics.map((d) => [d.code, d.message, d.span.start.offset, d.span.end.offset])).toEqual([
      ['lower/command-unsupported', `${printer.printer} has no cash drawer command: <cashDrawerOpen> is ignored`, 1, 17],
      ['lower/command-unsupported', `${printer.printer} has no paper cutter: <paperCutFull> is ignored`, 18, 32],
    ]);
  });
});

describe('text the sanitiser removes entirely', () => {
  it('leaves no text op, so a cut after it needs no line feed first', () => {
    // A control character alone (removed, with a warning) or a zero-width space alone (removed).
    for (const s of ['\x01<paperCutFull>', '\u200b<paperCutFull>']) {
      expect(lower(parse(s).ast, 5).ops.map((o) => o.op)).toEqual(['cut']);
      const { bytes } = compile(s, { printer: 5 });
      expect(hex(bytes)).toBe(hex(compile('<paperCutFull>', { printer: 5 }).bytes));
    }
  });
});

// QR codes at their exact edges, each kept because a mutant survived without it (`npm run
// mutation`, bench/MUTATION.md): the exact bytes or diagnostics the mutated code changed.
const diags = (r: ReturnType<typeof compile>) => r.diagnostics.map((d) => [d.severity, d.code, d.message, d.span.start.column, d.span.end.column]);

describe('a QR payload with control characters', () => {
  // Elgin i9: native GS ( k; Epson TM-T20: raster image from the module matrix.
  it.each([4, 5])('prints on template %i exactly as the payload without them, with a warning per character removed', (printer) => {
    const dirty = compile('<qrcode>a\x1bb\x7f\x85c</qrcode>', { printer });
    const clean = compile('<qrcode>abc</qrcode>', { printer });
    expect(hex(dirty.bytes)).toBe(hex(clean.bytes));
    const removed = diags(dirty).filter((d) => d[1] === 'text/control-removed');
    expect(removed).toEqual([
      ['warning', 'text/control-removed', 'control character U+001B removed from the QR payload', 10, 11],
      ['warning', 'text/control-removed', 'control character U+007F removed from the QR payload', 12, 13],
      ['warning', 'text/control-removed', 'control character U+0085 removed from the QR payload', 13, 14],
    ]);
    // Whatever else is said (the raster fallback on the TM-T20) is said alike, over the longer tag.
    const rest = (r: typeof dirty) => diags(r).filter((d) => d[1] !== 'text/control-removed').map((d) => d.slice(0, 3));
    expect(rest(dirty)).toEqual(rest(clean));
  });

  it('keeps TAB, LF and CR in the payload (they are data, not printer commands)', () => {
    const withBreaks = compile('<qrcode>a\tb\nc\rd</qrcode>', { printer: 4 });
    expect(withBreaks.diagnostics).toEqual([]);
    // GS ( k 31 50 48 store: pL pH = 3 + 7 payload bytes.
    expect(hex(withBreaks.bytes)).toContain('1d286b0a003150306109620a630d64');
  });

  it('prints nothing but a warning when only control characters were sent', () => {
    const r = compile('<qrcode>\x1b\x00</qrcode>', { printer: 4 });
    expect(diags(r).map((d) => d[1])).toEqual(['lower/qr-empty', 'text/control-removed', 'text/control-removed']);
    expect(hex(r.bytes)).toBe(hex(compile('', { printer: 4 }).bytes));
  });
});

describe('a QR payload with a lone surrogate', () => {
  // A lone surrogate is no character: qrcode's raster path threw on it (URIError, reported as
  // lower/internal-error) and the i9's native GS ( k wrote it as UTF-8's U+FFFD without a word.
  const replaced = (column: number, point: string) => ['warning', 'text/replaced', `lone surrogate ${point} in the QR payload replaced by U+FFFD (it is no character, and has no UTF-8)`, column, column + 1];

  it.each([1, 2, 3, 4, 5, 6])('prints on template %i the payload with U+FFFD in its place, with a warning at it', (printer) => {
    const lone = compile('<qrcode>a\ud800b\udc00</qrcode>', { printer });
    const written = compile('<qrcode>a\ufffdb\ufffd</qrcode>', { printer });
    expect(hex(lone.bytes)).toBe(hex(written.bytes));
    expect(diags(lone)).toEqual([...diags(written).filter((d) => d[1] !== 'text/replaced'), replaced(10, 'U+D800'), replaced(12, 'U+DC00')]);
  });

  it('sends U+FFFD as its UTF-8 in the i9\'s native command, and keeps a pair as its character', () => {
    // GS ( k 31 50 48 store: pL pH = 3 + 1 + 3 + 4 payload bytes.
    expect(hex(compile('<qrcode>a\ud800\ud83d\ude00</qrcode>', { printer: 4 }).bytes)).toContain('1d286b0b00315030' + '61' + 'efbfbd' + 'f09f9880');
    expect(compile('<qrcode>\ud83d\ude00</qrcode>', { printer: 4 }).diagnostics).toEqual([]);
  });

  it("is said and replaced in the builder's qrcode() too", () => {
    const r = receipt().qrcode('x\udc00').compile({ printer: 5 });
    expect(r.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['info lower/qr-raster-fallback', 'warning text/replaced']);
    expect(hex(r.bytes)).toBe(hex(compile('<qrcode>x\ufffd</qrcode>', { printer: 5 }).bytes));
  });
});

describe('QR limits at their exact edges', () => {
  it('holds 2331 bytes natively at error correction M, and refuses 2332 saying both numbers', () => {
    expect(compile(`<qrcode>${'x'.repeat(2331)}</qrcode>`, { printer: 4 }).diagnostics).toEqual([]);
    const over = compile(`<qrcode>${'x'.repeat(2332)}</qrcode>`, { printer: 4 });
    expect(diags(over)).toEqual([['error', 'lower/qr-too-long', 'QR payload of 2332 bytes is more than a QR code holds at error correction M (2331 bytes)', 1, 2350]]);
  });

  it('counts the payload in UTF-8 bytes, not characters', () => {
    // 1166 × "é" = 2332 UTF-8 bytes.
    expect(diags(compile(`<qrcode>${'é'.repeat(1166)}</qrcode>`, { printer: 4 })).map((d) => d[2])).toEqual([
      'QR payload of 2332 bytes is more than a QR code holds at error correction M (2331 bytes)',
    ]);
  });

  it('prints a raster QR at one dot per module when exactly that fits, and refuses one dot narrower', () => {
    // "abc" is a 21×21 symbol: 29 modules with the quiet zone.
    const fits = compile('<qrcode>abc</qrcode>', { printer: { extends: 'MAKER5T20', image: { widthDots: 29 } } });
    expect(diags(fits)).toEqual([['info', 'lower/qr-raster-fallback', 'Epson TM-T20 uses no native QR command in its profile: printed as a raster image (21×21 modules, 1 dots each)', 1, 21]]);
    const narrow = compile('<qrcode>abc</qrcode>', { printer: { extends: 'MAKER5T20', image: { widthDots: 28 } } });
    expect(diags(narrow)).toEqual([['error', 'lower/qr-too-wide', 'QR code of 21 modules does not fit 28 dots on Epson TM-T20, even at 1 dot per module', 1, 21]]);
    expect(hex(narrow.bytes)).toBe(hex(compile('', { printer: 5 }).bytes));
  });

  it('uses the profile module size when the paper has room for more', () => {
    const wide = compile('<qrcode>abc</qrcode>', { printer: { extends: 'MAKER5T20', qr: { moduleSize: 2 } } });
    expect(wide.diagnostics.map((d) => d.message)).toEqual(['Epson TM-T20 uses no native QR command in its profile: printed as a raster image (21×21 modules, 2 dots each)']);
  });
});

describe('a QR code on the generic (plain text) template', () => {
  it('prints its payload as one sanitised line, ending in exactly one LF', () => {
    expect(Buffer.from(compile('<qrcode>abc</qrcode>', { printer: 0 }).bytes).toString('utf8')).toBe('abc\n');
    expect(Buffer.from(compile('<qrcode>abc\n</qrcode>', { printer: 0 }).bytes).toString('utf8')).toBe('abc\n');
    expect(Buffer.from(compile('<qrcode>abc</qrcode>def', { printer: 0 }).bytes).toString('utf8')).toBe('abc\ndef\n');
    const r = compile('<qrcode>a\x1bb</qrcode>', { printer: 0 });
    expect(Buffer.from(r.bytes).toString('utf8')).toBe('ab\n');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['text/control-removed']);
  });

  it('starts its payload on a line of its own, after text the line already holds', () => {
    const text = (s: string, options = {}) => Buffer.from(compile(s, { printer: 0, ...options }).bytes).toString('utf8');
    expect(text('abc<qrcode>xyz</qrcode>')).toBe('abc\nxyz\n');
    expect(text('<rule/><qrcode>abc</qrcode>')).toBe(`${'-'.repeat(48)}\nabc\n`);
    expect(text('abc\n<qrcode>xyz</qrcode>')).toBe('abc\nxyz\n');
    expect(text('<textAlignRight>abc<qrcode>xyz</qrcode>')).toBe(`${' '.repeat(45)}abc\n${' '.repeat(45)}xyz\n`);
  });

  it('measures its payload as a printed line, and wraps it with wrap: word', () => {
    const source = `ab<qrcode>${'x'.repeat(50)}</qrcode>`;
    const r = compile(source, { printer: 0 });
    expect(r.diagnostics.map((d) => [d.code, d.span.start.column, d.span.end.column])).toEqual([['text/line-too-long', 3, source.length + 1]]);
    expect(r.diagnostics[0]!.message).toMatch(/^this printed line is 50 columns wide/);
    const wrapped = compile(source, { printer: 0, wrap: 'word' });
    expect(Buffer.from(wrapped.bytes).toString('utf8')).toBe(`ab\n${'x'.repeat(48)}\nxx\n`);
    expect(wrapped.diagnostics).toEqual([]);
  });

  it('warns about a payload of nothing but control characters and prints nothing', () => {
    const r = compile('<qrcode>\x1b</qrcode>', { printer: 0 });
    expect(r.bytes.length).toBe(0);
    expect(r.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'lower/qr-empty'], ['warning', 'text/control-removed']]);
  });
});

describe('more exact edges', () => {
  it.each([['L', 25], ['M', 29], ['H', 33]] as const)('draws a raster QR at the profile error correction %s (%i modules for 30 bytes)', (ecc, modules) => {
    const r = compile(`<qrcode>${'x'.repeat(30)}</qrcode>`, { printer: { extends: 'MAKER5T20', qr: { ecc } } });
    expect(r.diagnostics.map((d) => d.message)).toEqual([`Epson TM-T20 uses no native QR command in its profile: printed as a raster image (${modules}×${modules} modules, 6 dots each)`]);
  });

  it('says an empty QR code prints nothing, in words, on every kind of QR', () => {
    for (const printer of [0, 4, 5]) {
      expect(compile('<qrcode></qrcode>', { printer }).diagnostics.map((d) => [d.code, d.message])).toEqual([['lower/qr-empty', 'empty <qrcode>: nothing printed']]);
    }
  });
});
