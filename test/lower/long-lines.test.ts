// Long lines: an info text/line-too-long names each printed line wider than the paper for the font
// in force, at the line's span; compile(…, { wrap: 'word' }) wraps such lines at spaces instead.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, lower, parse, type Op } from '../../src/index.js';
import { lowerRaw } from '../../src/lower/index.js';
import { fontInForce } from '../../src/lower/layout-columns.js';
import { wrapWords } from '../../src/lower/layout-wrap.js';
import { loadProfile } from '../../src/profiles/index.js';

const long = (d: { code: string }) => d.code === 'text/line-too-long';
const at = (d: { span: { start: { line: number; column: number }; end: { line: number; column: number } } }) => `${d.span.start.line}:${d.span.start.column}-${d.span.end.line}:${d.span.end.column}`;

function wrapped(source: string, printer = 'MAKER5T20'): { text: string; codes: string[] } {
  const raw: Parameters<typeof lowerRaw>[2] = [];
  const ops = lowerRaw(parse(source).ast, loadProfile(printer), raw, { wrap: 'word' });
  return { text: ops.filter((o): o is Extract<Op, { op: 'text' }> => o.op === 'text').map((o) => o.text).join(''), codes: raw.map((d) => d.code) };
}

describe('text/line-too-long', () => {
  it('names each printed line wider than the columns, with its line and column span', () => {
    const source = 'curta\n' + 'x'.repeat(49) + '\nok\n  ' + 'y'.repeat(60);
    const { diagnostics } = compile(source, { printer: 'MAKER5T20' });
    expect(diagnostics.filter(long).map((d) => [d.severity, at(d)])).toEqual([
      ['info', '2:1-3:1'],
      ['info', '4:1-4:63'],
    ]);
    expect(diagnostics[0]!.message).toBe(
      "this printed line is 49 columns wide and Epson TM-T20 prints 48 columns of normal text: the printer breaks it where the paper ends (compile with wrap: 'word' to wrap it at spaces)",
    );
    expect(compile('x'.repeat(48), { printer: 'MAKER5T20' }).diagnostics).toEqual([]);
  });

  it('measures in the font in force: 64 condensed columns fit the TM-T20, not the i9 (no condensed)', () => {
    const source = '<textCondensedOn>' + 'c'.repeat(64) + '\n<textCondensedOff>';
    expect(compile(source, { printer: 'MAKER5T20' }).diagnostics).toEqual([]);
    expect(compile(source, { printer: 'MAKER4I9' }).diagnostics.filter(long).map(at)).toEqual(['1:18-2:1']);
    expect(compile(source, { printer: 'MAKER1MP4200' }).diagnostics.filter(long).map(at)).toEqual(['1:18-2:1']);
  });

  it('adds up a line that mixes normal and condensed text', () => {
    // 40 of 48 normal columns, then 13 of 64 condensed: 0.833 + 0.203 > 1.
    const mixed = 'n'.repeat(40) + '<textCondensedOn>' + 'c'.repeat(13) + '\n';
    expect(compile(mixed, { printer: 'MAKER5T20' }).diagnostics.filter(long).map(at)).toEqual(['1:1-2:1']);
    expect(compile('n'.repeat(40) + '<textCondensedOn>' + 'c'.repeat(10) + '\n', { printer: 'MAKER5T20' }).diagnostics).toEqual([]);
  });

  it('ends a line at a command that prints (a cut, a QR code) and at the end of the document', () => {
    const { diagnostics } = compile('z'.repeat(50) + '<paperCutFull>' + 'w'.repeat(50), { printer: 'MAKER5T20' });
    expect(diagnostics.filter(long).map(at)).toEqual(['1:1-1:51', '1:65-1:115']);
  });

  it('ends a line at a QR code, a barcode, an image and a feed between two texts of one source line', () => {
    const z = 'z'.repeat(30);
    const w = 'w'.repeat(30);
    const bitmap = { width: 8, height: 1, bytesPerRow: 1, bits: new Uint8Array([0xff]) };
    for (const middle of ['<qrcode>x</qrcode>', '<barcode type="ean8">1234567</barcode>', '<image src="dot"/>', '<paperFeed>']) {
      expect(compile(z + middle + w, { printer: 'MAKER5T20', images: { dot: bitmap } }).diagnostics.filter(long)).toEqual([]);
      // The i9 prints a QR code natively (the TM-T20 as an image).
      expect(compile(z + middle + w, { printer: 'MAKER4I9', images: { dot: bitmap } }).diagnostics.filter(long)).toEqual([]);
    }
    // The generic template prints a QR code as text of its own, which the line count does not see.
    expect(compile(z + '<qrcode>x</qrcode>' + w, { printer: 'GENERICA' }).diagnostics.filter(long)).toEqual([]);
    expect(compile(z + '<textBoldOn>' + w, { printer: 'MAKER5T20' }).diagnostics.filter(long)).toHaveLength(1);
  });

  it('ends a line wider than the paper at the tag of a QR code or barcode the generic template prints as text', () => {
    // The payload's line starts after a line break at the tag: the line before ends there.
    for (const tag of ['<qrcode>hi</qrcode>', '<barcode type="code39">DATA</barcode>']) {
      expect(compile('x'.repeat(60) + tag, { printer: 'GENERICA' }).diagnostics.filter(long).map(at)).toEqual(['1:1-1:61']);
    }
  });

  it('counts a tab alone on its line, or alone before a change of style, to its stop', () => {
    expect(compile('\t<textBoldOn>' + 'b'.repeat(40), { printer: 'MAKER5T20' }).diagnostics.filter(long)).toEqual([]);
    expect(compile('\t<textBoldOn>' + 'b'.repeat(41), { printer: 'MAKER5T20' }).diagnostics.filter(long).map(at)).toEqual(['1:1-1:55']);
  });

  it('counts a tab as the way to the next stop of 8 columns', () => {
    expect(compile('\t'.repeat(6), { printer: 'MAKER5T20' }).diagnostics).toEqual([]);
    expect(compile('a' + '\t'.repeat(6), { printer: 'MAKER5T20' }).diagnostics).toEqual([]);
    expect(compile('a' + '\t'.repeat(6) + 'b', { printer: 'MAKER5T20' }).diagnostics.filter(long)).toHaveLength(1);
  });

  it('keeps the tab stops where ESC @ set them, 8 columns of normal text apart, in condensed and wide text too', () => {
    const codes = (source: string) => compile(source, { printer: 'MAKER5T20' }).diagnostics.filter(long).length;
    // Five tabs reach column 40 of 48 in any font: 8 normal columns are left, 10⅔ condensed ones (font B).
    expect(codes('<textCondensedOn>' + '\t'.repeat(5) + 'c'.repeat(10))).toBe(0);
    expect(codes('<textCondensedOn>' + '\t'.repeat(5) + 'c'.repeat(11))).toBe(1);
    // At width 2 a stop is 4 characters (96 dots): a tab and 20 wide characters fill the 24 a line holds.
    expect(codes('<textSize width="2">\t' + 'x'.repeat(20))).toBe(0);
    expect(codes('<textSize width="2">\t' + 'x'.repeat(21))).toBe(1);
    expect(codes('<textSize width="2">xxxxx\t' + 'x'.repeat(16))).toBe(0);
    expect(codes('<textSize width="2">xxxxx\t' + 'x'.repeat(17))).toBe(1);
    // And wrapped so: the break comes after the 10 condensed characters that fit.
    const r = compile('<textCondensedOn>' + '\t'.repeat(5) + 'c'.repeat(10) + ' dd', { printer: 'MAKER5T20', wrap: 'word' });
    expect(r.diagnostics.filter(long)).toEqual([]);
    expect(Buffer.from(r.bytes).toString('latin1')).toContain('\t'.repeat(5) + 'c'.repeat(10) + '\ndd');
  });

  it('is reported on the generic template too (48 columns of text)', () => {
    expect(compile('g'.repeat(49), { printer: 'GENERICA' }).diagnostics.filter(long)).toHaveLength(1);
  });

  it('counts a character outside the BMP as one column on the UTF-8 template, in any text of the line', () => {
    const e = '😀';
    const codes = (source: string) => compile(source, { printer: 'GENERICA' }).diagnostics.map((d) => d.code);
    expect(codes(e.repeat(20) + '&lt;' + 'x'.repeat(27))).toEqual([]);
    expect(codes(e.repeat(20) + '&lt;' + 'x'.repeat(28))).toEqual(['text/line-too-long']);
    expect(codes(e.repeat(48) + '\n' + 'x'.repeat(48))).toEqual([]);
    expect(codes('ab' + e.repeat(20) + '&lt;' + 'x'.repeat(25))).toEqual([]);
    expect(codes('a' + '\t'.repeat(6))).toEqual([]);
    // The first and the last high surrogate: U+10000 and U+10FFFD.
    expect(codes('\u{10000}'.repeat(48) + '\n' + 'x'.repeat(40) + '\u{10FFFD}'.repeat(8))).toEqual([]);
    expect(codes('a' + '\t'.repeat(6) + 'b')).toEqual(['text/line-too-long']);
    expect(wrapped(e.repeat(20) + ' ab&lt;' + 'x'.repeat(20), 'GENERICA').text).toBe(e.repeat(20) + ' ab<' + 'x'.repeat(20));
    expect(wrapped(e.repeat(40) + ' ab&lt;' + 'x'.repeat(20), 'GENERICA').text).toBe(e.repeat(40) + '\nab<' + 'x'.repeat(20));
  });

  it('spans the whole line and its line break when the line ends in CRLF or CR, or sanitising changed its text', () => {
    // Sanitised text (a CR, a control character, an escape) is mapped to the source line by line;
    // each span still runs from the line's first column to the start of the next line.
    const spans = (source: string) => compile(source, { printer: 'MAKER5T20' }).diagnostics.filter(long).map(at);
    const x = 'x'.repeat(49);
    expect(spans(`ab\n${x}\ncd`)).toEqual(['2:1-3:1']);
    expect(spans(`ab\r\n${x}\r\ncd`)).toEqual(['2:1-3:1']);
    expect(spans(`ab\r${x}\rcd`)).toEqual(['2:1-3:1']);
    expect(spans(`ab\r\n${x}\r\n${x}\r\n`)).toEqual(['2:1-3:1', '3:1-4:1']);
    expect(spans('x'.repeat(30) + '\u0001' + 'y'.repeat(30) + '\nz')).toEqual(['1:1-2:1']);
    expect(spans('x'.repeat(30) + '&lt;' + 'y'.repeat(30) + '\r\nz')).toEqual(['1:1-2:1']);
    // A text after an escape goes on the op before it: its line, at the end of the document, still ends where it does.
    expect(spans('x'.repeat(30) + '&lt;' + 'y'.repeat(30))).toEqual(['1:1-1:65']);
    // The last line of a sanitised text, at the end of the document, spans to the text's end.
    expect(spans('ab\u0001\n' + 'y'.repeat(50))).toEqual(['2:1-2:51']);
    // A sanitised text that starts with its line break: its second line starts just past it.
    expect(spans('<textBoldOn>\n' + 'y'.repeat(50) + '\u0001\nz')).toEqual(['2:1-3:1']);
  });

  it('spans each line wider than the paper, and only those, for any line breaks, escapes and control characters', () => {
    // Pieces of a line and the columns each prints: a control character prints nothing. (It comes
    // with a letter: a text that sanitising leaves empty after its last line break ends its span at
    // the text's end, past the next line's start.)
    const piece = fc.constantFrom(['a', 1], ['é', 1], [' ', 1], ['&lt;', 1], ['\u0001a', 1], ['x'.repeat(20), 20]);
    const line = fc.tuple(fc.array(piece, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.boolean(), (lines, lastEnds) => {
        let source = '';
        const expected: [number, number][] = [];
        lines.forEach(([pieces, eol], k) => {
          const begin = source.length;
          // (A lone CR before an empty line ending in LF would make a CRLF.)
          if (pieces.length === 0 && source.endsWith('\r')) pieces = [['a', 1]];
          source += pieces.map(([p]) => p).join('') + (k < lines.length - 1 || lastEnds ? eol : '');
          if (pieces.reduce((n, [, w]) => n + (w as number), 0) > 48) expected.push([begin, source.length]);
        });
        const { diagnostics } = compile(source, { printer: 'MAKER5T20' });
        expect(diagnostics.filter(long).map((d) => [d.span.start.offset, d.span.end.offset])).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('names the width in the font the line was printed in, not in a font set after it', () => {
    const message = (source: string) => compile(source, { printer: 'MAKER5T20' }).diagnostics.filter(long).map((d) => d.message.slice(0, d.message.indexOf(':')));
    const normal = 'this printed line is 50 columns wide and Epson TM-T20 prints 48 columns of normal text';
    expect(message('x'.repeat(50) + '<paperCutFull><textCondensedOn>y')).toEqual([normal]);
    expect(message('x'.repeat(50) + '<paperCutFull><textSize width="2">y')).toEqual([normal]);
    expect(message('x'.repeat(50) + '<textCondensedOn>')).toEqual([normal]);
    // A line that mixes fonts, in the font of its last text: 40 × 1/48 + 13 × 1/64 of the line is 66.3 condensed columns.
    expect(message('n'.repeat(40) + '<textCondensedOn>' + 'c'.repeat(13) + '\n')).toEqual(['this printed line is 67 columns wide and Epson TM-T20 prints 64 columns of condensed text']);
    expect(message('<textSize width="2">' + 'x'.repeat(25) + '<textSize><paperCutFull>')).toEqual(['this printed line is 25 columns wide and Epson TM-T20 prints 24 columns of normal text at width 2']);
  });
});

/**
 * Columns a line of one font takes, in a font of `columns` a line where normal text has `normal`:
 * tabs to stops 8 columns of normal text apart (8 × columns / normal of this font's).
 */
function width(line: string, columns = 48, normal = columns): number {
  // In units of 1 / normal of a column, so that a stop is a whole number of them.
  let used = 0;
  for (const c of line) used = c === '\t' ? (Math.floor(used / (8 * columns)) + 1) * 8 * columns : used + normal;
  return used / normal;
}

describe("wrap: 'word'", () => {
  it('breaks at the last space that fits instead, with no info', () => {
    const line = 'Pagamento em dinheiro com troco para cem reais e cinquenta centavos';
    const { text, codes } = wrapped(line + '\nfim');
    expect(text).toBe('Pagamento em dinheiro com troco para cem reais e\ncinquenta centavos\nfim');
    expect(codes).toEqual([]);
    const r = compile(line, { printer: 'MAKER5T20', wrap: 'word' });
    expect(r.diagnostics).toEqual([]);
    expect(Buffer.from(r.bytes).toString('latin1')).toContain('reais e\ncinquenta');
  });

  it('breaks a word longer than the line where the line ends', () => {
    expect(wrapped('ab ' + 'x'.repeat(100)).text).toBe('ab\n' + 'x'.repeat(48) + '\n' + 'x'.repeat(48) + '\nxxxx');
  });

  it('breaks at the space after a word broken at the line end, when a later text of the line runs past the paper', () => {
    expect(wrapped('x'.repeat(50) + ' ab<textBoldOn>' + 'y'.repeat(45)).text).toBe('x'.repeat(48) + '\nxx\nab' + 'y'.repeat(45));
  });

  it('breaks at a space after a word broken at the line end, in the same text', () => {
    // The break inserted in the word comes first in the text: the space's break goes after it.
    expect(wrapped('a'.repeat(50) + ' bb ' + 'c'.repeat(46)).text).toBe('a'.repeat(48) + '\naa bb\n' + 'c'.repeat(46));
  });

  it('breaks at a tab as at a space', () => {
    expect(wrapped('a'.repeat(40) + '\t' + 'b'.repeat(10)).text).toBe('a'.repeat(40) + '\n' + 'b'.repeat(10));
  });

  it('breaks at a space that starts the line, and does not break the word after it that fits', () => {
    expect(wrapped(' ' + 'x'.repeat(48)).text).toBe('\n' + 'x'.repeat(48));
    expect(wrapped('ab\n ' + 'x'.repeat(49)).text).toBe('ab\n\n' + 'x'.repeat(48) + '\nx');
  });

  it('breaks a line only at a space on that line, never at one on a line already ended', () => {
    // The last space of a line (or one that became the break) is no break point for the next line.
    expect(wrapped('ab cd\n' + 'x'.repeat(50)).text).toBe('ab cd\n' + 'x'.repeat(48) + '\nxx');
    expect(wrapped('aaa ' + 'b'.repeat(44) + ' ' + 'c'.repeat(50)).text).toBe('aaa ' + 'b'.repeat(44) + '\n' + 'c'.repeat(48) + '\ncc');
  });

  it('breaks at a space in the text before a font change on the same line', () => {
    // 34 of 48 normal columns and 20 of 64 condensed do not fit; 30 and 20 do.
    const { text } = wrapped('abc ' + 'n'.repeat(30) + '<textCondensedOn>' + 'c'.repeat(20));
    expect(text).toBe('abc\n' + 'n'.repeat(30) + 'c'.repeat(20));
  });

  it('wraps at the columns of the font in force', () => {
    const words = Array.from({ length: 20 }, () => 'abcd').join(' ');
    const lines = wrapped('<textCondensedOn>' + words).text.split('\n');
    expect(lines.map((l) => l.length)).toEqual([64, 34]);
  });

  it('is checked: anything but none or word is a usage error', () => {
    expect(() => compile('x', { printer: 5, wrap: 'char' as 'word' })).toThrow(TypeError);
  });

  it('wraps as a cell wraps its words, whatever style tags cut the text into ops', () => {
    // Words one space apart: the printed lines are those of wrapWords at the columns in force,
    // filled as far as they go. A break at a space in an earlier op of the line edits that op.
    const word = fc.array(fc.constantFrom('a', 'b', 'ç', '1', '&lt;'), { minLength: 1, maxLength: 60 });
    const paragraph = fc.array(word, { maxLength: 12 });
    const tag = fc.constantFrom('<textBoldOn>', '<textBoldOff>', '<textUnderlineOn>', '&amp;lt;');
    fc.assert(
      fc.property(
        fc.array(paragraph, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(), tag), { maxLength: 6 }),
        fc.constantFrom('MAKER5T20', 'MAKER1MP4200', 'GENERICA'),
        fc.constantFrom('', '<textCondensedOn>', '<textSize width="2">', '<textSize width="3">'),
        (paragraphs, tags, printer, font) => {
          // Source pieces: characters (an escape is one) with tags between them; '&amp;lt;' prints '&lt;'.
          const pieces = paragraphs.map((words) => words.map((w) => w.join('')).join(' ')).join('\n').match(/&lt;|[^]/g) ?? [];
          const plain = pieces.map((p) => (p === '&lt;' ? '<' : p));
          for (const [at, t] of tags) {
            const k = at % (pieces.length + 1);
            pieces.splice(k, 0, t);
            plain.splice(k, 0, t === '&amp;lt;' ? '&lt;' : '');
          }
          const profile = loadProfile(printer);
          const f = fontInForce(profile, { condensed: font !== '' && font.includes('Condensed') && profile.caps.has('condensed'), width: profile.caps.has('size') ? Number(/\d/.exec(font)?.[0] ?? 1) : 1 });
          const { text, codes } = wrapped(font + pieces.join(''), printer);
          expect(text).toBe(wrapWords(plain.join(''), f.columns).join('\n'));
          expect(codes.filter((c) => c === 'text/line-too-long')).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps every printed line within the columns and every character, for any words', () => {
    const word = fc.array(fc.constantFrom('a', 'b', 'ç', '1'), { minLength: 1, maxLength: 70 }).map((a) => a.join(''));
    const text = fc.array(fc.oneof(word, fc.constantFrom(' ', '  ', '\n', '\t')), { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.constantFrom('MAKER5T20', 'MAKER1MP4200', 'GENERICA'), fc.boolean(), (s, printer, condensed) => {
        const source = (condensed ? '<textCondensedOn>' : '') + s;
        const { text: out, codes } = wrapped(source, printer);
        const profile = loadProfile(printer);
        const columns = condensed && profile.caps.has('condensed') ? profile.columns.condensed : profile.columns.normal;
        for (const line of out.split('\n')) expect(width(line, columns, profile.columns.normal)).toBeLessThanOrEqual(columns);
        expect(out.replace(/\s/g, '')).toBe(s.replace(/\s/g, ''));
        expect(codes).not.toContain('text/line-too-long');
        expect(() => compile(source, { printer, wrap: 'word', records: true })).not.toThrow();
        expect(lower(parse(source).ast, printer).diagnostics.some(long)).toBe(s.split('\n').some((l) => width(l, columns, profile.columns.normal) > columns));
      }),
      { numRuns: 500 },
    );
  });
});
