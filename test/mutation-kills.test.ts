// Tests written for mutants that survived `npm run mutation` (bench/MUTATION.md): each asserts the
// exact bytes or diagnostics that the mutated code changed without any other test noticing.
import { describe, expect, it } from 'vitest';
import { compile } from '../src/index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
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

describe('a character the code page lacks, with no table entry and no compatibility form', () => {
  it('prints as its letter without accents, with a warning naming what was printed', () => {
    const r = compile('ŝ ĉ', { printer: 5 });
    // ESC @, ESC t 2 (CP850), "s c", LF.
    expect(hex(r.bytes)).toBe('1b401b74027320630a');
    expect(diags(r)).toEqual([
      ['warning', 'text/transliterated', 'U+015D "ŝ" is not in CP850 on Epson TM-T20: printed as "s"', 1, 2],
      ['warning', 'text/transliterated', 'U+0109 "ĉ" is not in CP850 on Epson TM-T20: printed as "c"', 3, 4],
    ]);
  });

  it('prints the same for its decomposed form (letter + combining mark)', () => {
    expect(hex(compile('s\u0302', { printer: 5 }).bytes)).toBe('1b401b7402730a');
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

  it('warns about a payload of nothing but control characters and prints nothing', () => {
    const r = compile('<qrcode>\x1b</qrcode>', { printer: 0 });
    expect(r.bytes.length).toBe(0);
    expect(r.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'lower/qr-empty'], ['warning', 'text/control-removed']]);
  });
});

describe('the sanitiser, character class by character class (exact bytes and diagnostics)', () => {
  const T20 = 'is not in CP850 on Epson TM-T20';
  // [source, template, bytes after the ESC @ ESC t prelude (CP850 printers) or all bytes (generic), diagnostics]
  const cases: [string, string, number, string, (string | number)[][]][] = [
    ['NBSP is a space; C1 controls U+0080 and U+009F go', 'a\u00a0b\u009fc\u0080d', 5, '61206263640a', [
      ['info', 'text/normalized', 'U+00A0 "\u00a0" is printed as a plain space', 2, 3],
      ['warning', 'text/control-removed', 'control character U+009F removed: text cannot send printer commands', 4, 5],
      ['warning', 'text/control-removed', 'control character U+0080 removed: text cannot send printer commands', 6, 7],
    ]],
    ['an em space is a space', '\u2003', 5, '200a', [['info', 'text/normalized', 'U+2003 "\u2003" is printed as a plain space', 1, 2]]],
    ['zero-width characters and BOMs go silently', '\u200bA\ufeff', 5, '410a', []],
    ['a mark with no letter before it is replaced', '\u0301a', 5, '3f610a', [['warning', 'text/replaced', `U+0301 "\u0301" ${T20}: printed as "?"`, 1, 2]]],
    ['a mark after a line break is not joined to it', '\n\u0301', 5, '0a3f0a', [['warning', 'text/replaced', `U+0301 "\u0301" ${T20}: printed as "?"`, 1, 2]]],
    ['a mark after a tab is not joined to it', '\t\u0301', 5, '093f0a', [['warning', 'text/replaced', `U+0301 "\u0301" ${T20}: printed as "?"`, 2, 3]]],
    ['two marks on one letter go with it', 's\u0302\u0323', 5, '730a', [['warning', 'text/transliterated', `U+0073 U+0302 U+0323 "s\u0302\u0323" ${T20}: printed as "s"`, 1, 4]]],
    ['an accent on a letter that has it already is stripped with it', 'e\u0301\u0301', 5, '650a', [['warning', 'text/transliterated', `U+0065 U+0301 U+0301 "e\u0301\u0301" ${T20}: printed as "e"`, 1, 4]]],
    ['a mark on an astral character stays with it', '😀\u0301x', 5, '3f780a', [['warning', 'text/replaced', `U+1F600 U+0301 "😀\u0301" ${T20}: printed as "?"`, 1, 4]]],
    ['a full-width letter with a combining accent composes', 'ｅ\u0301', 5, '820a', [['info', 'text/normalized', `U+FF45 U+0301 "ｅ\u0301" ${T20}: printed in its compatibility form "é"`, 1, 3]]],
    ['a ligature is its letters; the euro sign is from the table', 'ﬁ€', 5, '66694555520a', [
      ['info', 'text/normalized', `U+FB01 "ﬁ" ${T20}: printed in its compatibility form "fi"`, 1, 2],
      ['warning', 'text/transliterated', `U+20AC "€" ${T20}: printed as "EUR"`, 2, 3],
    ]],
    ['a fraction without its own byte uses a plain slash', '⅓', 5, '312f330a', [['info', 'text/normalized', `U+2153 "⅓" ${T20}: printed in its compatibility form "1/3"`, 1, 2]]],
    ['UTF-8 output: lone surrogates are replaced', '\ud800x\udc00', 0, '3f783f0a', [
      ['warning', 'text/replaced', 'lone surrogate U+D800 replaced by "?"', 1, 2],
      ['warning', 'text/replaced', 'lone surrogate U+DC00 replaced by "?"', 3, 4],
    ]],
    ['UTF-8 output: an astral character and its mark print as they are', '😀\u0301x', 0, 'f09f9880cc81780a', []],
  ];
  it.each(cases)('%s', (_what, source, printer, bytes, expected) => {
    const r = compile(source, { printer });
    const prelude = printer === 0 ? '' : '1b401b7402';
    expect(hex(r.bytes)).toBe(prelude + bytes);
    expect(diags(r)).toEqual(expected);
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

  it('replaces a character whose compatibility form has a part the code page lacks (ǅ = D + ž), rather than printing part of it', () => {
    const r = compile('ǅ', { printer: 5 });
    expect(hex(r.bytes)).toBe('1b401b74023f0a');
    expect(diags(r)).toEqual([['warning', 'text/replaced', 'U+01C5 "ǅ" is not in CP850 on Epson TM-T20: printed as "?"', 1, 2]]);
  });
});

describe('surrogates and marks at the edges of their ranges (exact bytes and diagnostics)', () => {
  const T20 = 'is not in CP850 on Epson TM-T20';
  const cases: [string, string, number, string, (string | number)[][]][] = [
    ['UTF-8 output keeps a no-break space as it is', 'a\u00a0b', 0, '61c2a0620a', []],
    ['UTF-8 output keeps U+E000, the first code point after the surrogates', '\ue000', 0, 'ee80800a', []],
    ['an astral combining mark stays with its letter', 'a\u{1D167}', 5, '3f0a', [['warning', 'text/replaced', `U+0061 U+1D167 "a\u{1D167}" ${T20}: printed as "?"`, 1, 4]]],
    ['U+10000 (D800 DC00) is one character', '\u{10000}', 5, '3f0a', [['warning', 'text/replaced', `U+10000 "\u{10000}" ${T20}: printed as "?"`, 1, 3]]],
    ['a high surrogate before U+E000 is not a pair', '\ud800\ue000', 5, '3f3f0a', [
      ['warning', 'text/replaced', `U+D800 "\ud800" ${T20}: printed as "?"`, 1, 2],
      ['warning', 'text/replaced', `U+E000 "\ue000" ${T20}: printed as "?"`, 2, 3],
    ]],
    ['a low surrogate after another character is not paired with it', '€\udc00', 5, '4555523f0a', [
      ['warning', 'text/transliterated', `U+20AC "€" ${T20}: printed as "EUR"`, 1, 2],
      ['warning', 'text/replaced', `U+DC00 "\udc00" ${T20}: printed as "?"`, 2, 3],
    ]],
    ['two low surrogates are two characters', '\udc00\udc00', 5, '3f3f0a', [
      ['warning', 'text/replaced', `U+DC00 "\udc00" ${T20}: printed as "?"`, 1, 2],
      ['warning', 'text/replaced', `U+DC00 "\udc00" ${T20}: printed as "?"`, 2, 3],
    ]],
    ['a mark on a space goes with the space', ' \u0301', 5, '200a', [['warning', 'text/transliterated', `U+0020 U+0301 " \u0301" ${T20}: printed as " "`, 1, 3]]],
  ];
  it.each(cases)('%s', (_what, source, printer, bytes, expected) => {
    const r = compile(source, { printer });
    expect(hex(r.bytes)).toBe((printer === 0 ? '' : '1b401b7402') + bytes);
    expect(diags(r)).toEqual(expected);
  });
});
