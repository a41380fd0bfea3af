// Compile limits (issue 10, item 1): output bytes, QR codes and diagnostics per job, each found
// before the work it bounds, each an error or a summary diagnostic with a position.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import QRCode from '../../src/lower/qrcode-core.js';
import { conteudo } from '../support/arbitraries.js';
import { resolveDiagnostics } from '../../src/diagnostics.js';
import { emitWithin } from '../../src/emit/index.js';
import { compile, DEFAULT_LIMITS, DIAGNOSTIC_CODES, hasErrors, listing, loadProfile, parse } from '../../src/index.js';
import { OutputLimitReached, outputTooLarge } from '../../src/limits.js';
import { lowerRaw } from '../../src/lower/index.js';
import { chunk, writePng } from '../support/png-writer.js';

const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);
afterEach(() => vi.restoreAllMocks());

describe('compile limits', () => {
  it('exports its defaults, and every limit code is in the one catalogue', () => {
    expect(DEFAULT_LIMITS).toEqual({ maxOutputBytes: 1024 * 1024, maxQrCodes: 16, maxDiagnostics: 100, maxImages: 16, maxImagePixels: 4 * 1024 * 1024 });
    expect(DIAGNOSTIC_CODES).toMatchObject({
      'limit/output-too-large': 'error',
      'limit/too-many-qrcodes': 'error',
      'limit/diagnostics-truncated': 'info',
      'limit/too-many-images': 'error',
      'limit/image-too-large': 'error',
    });
  });

  it('keeps the result shape { bytes, diagnostics, records? } for a job over a limit', () => {
    const over = compile('<qrcode>a</qrcode>'.repeat(17), { printer: 5 });
    expect(Object.keys(over).sort()).toEqual(['bytes', 'diagnostics']);
    expect(Object.keys(compile('<qrcode>a</qrcode>'.repeat(17), { printer: 5, records: true })).sort()).toEqual(['bytes', 'diagnostics', 'records']);
  });

  it('allows the default number of QR codes', () => {
    const r = compile('<qrcode>a</qrcode>\n'.repeat(16), { printer: 5 });
    expect(hasErrors(r.diagnostics)).toBe(false);
    expect(r.bytes.length).toBeGreaterThan(0);
  });

  it('refuses one QR code too many at that QR code, before building any symbol', () => {
    const create = vi.spyOn(QRCode, 'create');
    const r = compile('<qrcode>a</qrcode>\n'.repeat(100_000), { printer: 3 });
    expect(create).not.toHaveBeenCalled();
    expect(r.bytes.length).toBe(0);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ code: 'limit/too-many-qrcodes', severity: 'error', span: { start: { line: 17, column: 1 } } });
    expect(r.diagnostics[0]!.message).toContain('100000 QR codes');
  });

  it('takes a lower or a lifted QR limit from the options', () => {
    expect(codes(compile('<qrcode>a</qrcode>'.repeat(3), { printer: 4, limits: { maxQrCodes: 2 } }))).toEqual(['limit/too-many-qrcodes']);
    expect(codes(compile('<qrcode>a</qrcode>'.repeat(40), { printer: 4, limits: { maxQrCodes: Infinity } }))).toEqual([]);
  });

  it('stops emitting at the command where the output passes the byte limit', () => {
    const line = 'linha de texto\n<paperFeed>';
    const r = compile(line.repeat(1000), { printer: 5, limits: { maxOutputBytes: 200 } });
    expect(r.bytes.length).toBe(0);
    expect(codes(r)).toEqual(['limit/output-too-large']);
    // Passed within the first few lines, not at the end of the 1,000th.
    expect(r.diagnostics[0]!.span.start.line).toBeLessThan(20);
    expect(r.diagnostics[0]!.message).toContain('200 bytes');
  });

  it('stops at the same command, with the same diagnostic, whether records are kept or not', () => {
    // The output passes 5 bytes with the text; the next command is the alignment, a command with
    // no text of its own: compile() used to check the limit there only when keeping records.
    const s = 'aaaaaaaaaa\n<textAlignCenter>b';
    const span = (r: ReturnType<typeof compile>) => r.diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset]);
    const plain = compile(s, { printer: 5, limits: { maxOutputBytes: 5 } });
    expect(span(plain)).toEqual([['limit/output-too-large', 11, 28]]);
    expect(span(compile(s, { printer: 5, limits: { maxOutputBytes: 5 }, records: true }))).toEqual(span(plain));
    expect(listing(s, { printer: 5, limits: { maxOutputBytes: 5 } }).diagnostics).toEqual(plain.diagnostics);
  });

  it('names the same printed line whether records are kept or not, on ESC/POS and plain text', () => {
    // Without records the emitter marks a text op once, with them once per printed line: the limit
    // is passed inside the op, and both must name the line after it (11–22), not the op or the job end.
    const s = 'aaaaaaaaaa\nbbbbbbbbbb\ncc';
    const span = (r: ReturnType<typeof compile>) => r.diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset]);
    for (const printer of [0, 5]) {
      const plain = compile(s, { printer, limits: { maxOutputBytes: 5 } });
      expect(span(plain)).toEqual([['limit/output-too-large', 11, 22]]);
      expect(listing(s, { printer, limits: { maxOutputBytes: 5 } }).diagnostics).toEqual(plain.diagnostics);
    }
    // Over the limit only with the last line: no mark follows it without records (found by the property below).
    const lastLine = compile('\n\n', { printer: 5, limits: { maxOutputBytes: 5 } });
    expect(span(lastLine)).toEqual([['limit/output-too-large', 1, 2]]);
    expect(listing('\n\n', { printer: 5, limits: { maxOutputBytes: 5 } }).diagnostics).toEqual(lastLine.diagnostics);
  });

  it('gives compile() and listing() the same diagnostics for any content and any byte limit', () => {
    fc.assert(
      fc.property(conteudo, fc.integer({ min: 1, max: 400 }), fc.constantFrom(0, 1, 3, 5), (s, maxOutputBytes, printer) => {
        const options = { printer, limits: { maxOutputBytes } };
        expect(compile(s, options).diagnostics).toEqual(listing(s, options).diagnostics);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses one long text over the byte limit, on ESC/POS and on the generic printer', () => {
    // Lines of 48 bytes (47 columns and LF): none wider than the paper.
    const lines = (bytes: number) => ('x'.repeat(47) + '\n').repeat(Math.floor(bytes / 48));
    for (const printer of [0, 5]) {
      const r = compile(lines(DEFAULT_LIMITS.maxOutputBytes + 48), { printer });
      expect(codes(r)).toEqual(['limit/output-too-large']);
      expect(r.bytes.length).toBe(0);
    }
    expect(compile(lines(DEFAULT_LIMITS.maxOutputBytes - 100), { printer: 0 }).diagnostics).toEqual([]);
  });

  it('lists at most maxDiagnostics, then one info with the count of the rest', () => {
    // wrap: the one long line would add an info of its own.
    const r = compile('<b>'.repeat(1000), { printer: 5, wrap: 'word' });
    expect(r.diagnostics).toHaveLength(101);
    const last = r.diagnostics[100]!;
    expect(last).toMatchObject({ code: 'limit/diagnostics-truncated', severity: 'info' });
    expect(last.message).toMatch(/^900 more diagnostics not listed \(900 warnings\)/);
    expect(last.span.start.column).toBe(301);
    expect(hasErrors(r.diagnostics)).toBe(false);
  });

  it('still lists an error that comes after the cap is full of warnings', () => {
    const r = compile('<b>'.repeat(150) + '</qrcode>', { printer: 5, wrap: 'word' });
    expect(r.diagnostics).toHaveLength(101);
    expect(hasErrors(r.diagnostics)).toBe(true);
    expect(codes(r)).toContain('parse/stray-closing-tag');
    expect(r.diagnostics.find((d) => d.code === 'limit/diagnostics-truncated')!.message).toMatch(/^51 more diagnostics not listed \(51 warnings\)/);
  });

  it('counts errors it could not list, by severity', () => {
    const r = compile('</qrcode>'.repeat(130) + '<b>', { printer: 5, limits: { maxDiagnostics: 10 } });
    expect(r.diagnostics).toHaveLength(11);
    expect(r.diagnostics.at(-1)!.message).toMatch(/^121 more diagnostics not listed \(120 errors, 1 warning\)/);
  });

  it('lists the first error even with maxDiagnostics 0, so hasErrors() still says so', () => {
    const r = compile('<foo><textSize width="9">', { printer: 5, limits: { maxDiagnostics: 0 } });
    expect(codes(r)).toEqual(['parse/attribute-invalid', 'limit/diagnostics-truncated']);
    expect(hasErrors(r.diagnostics)).toBe(true);
    expect(r.diagnostics.at(-1)!.message).toBe('1 more diagnostic not listed (1 warning): only 0 are kept (the limit maxDiagnostics, and the first error)');
    const warnings = compile('<foo><b>', { printer: 5, limits: { maxDiagnostics: 0 } });
    expect(codes(warnings)).toEqual(['limit/diagnostics-truncated']);
    expect(hasErrors(warnings.diagnostics)).toBe(false);
  });

  it('applies to listing() too', () => {
    expect(listing('<qrcode>a</qrcode>'.repeat(17), { printer: 5 }).diagnostics.map((d) => d.code)).toEqual(['limit/too-many-qrcodes']);
  });

  it('rejects a limit that is not a whole number as a usage error', () => {
    expect(() => compile('x', { printer: 5, limits: { maxQrCodes: -1 } })).toThrow(TypeError);
    expect(() => compile('x', { printer: 5, limits: { maxOutputBytes: Number.NaN } })).toThrow(/maxOutputBytes/);
  });

  it('names the limit and the type of a wrong value, and refuses limits that are not an object', () => {
    const message = (limits: unknown) => () => compile('x', { printer: 5, limits: limits as never });
    expect(message({ maxDiagnostics: '5' })).toThrow(new TypeError('compile(): limits.maxDiagnostics must be a whole number ≥ 0 or Infinity, not the string "5"'));
    expect(message({ maxOutputBytes: Number.NaN })).toThrow(/, not the number NaN$/);
    expect(message('x')).toThrow(new TypeError('compile(): limits must be an object such as { maxQrCodes: 4 }, not the string "x"'));
    expect(message(null)).toThrow(/limits must be an object .*, not null$/);
    expect(message([1])).toThrow(/limits must be an object .*, not an array$/);
  });
});

describe('the output limit while lowering', () => {
  // What can multiply its input (a barcode drawn as a raster, an image, a row laid out to the
  // paper) spends the bytes it will at least print before it is built; past maxOutputBytes lowering
  // stops there (limits.ts OutputBudget). Never a test of time: of what was built.
  /** Where the emitter finds the output past the limit with every element built (compile's stages without a budget), as compile's diagnostic. */
  const placeOfAll = (s: string, printer: number, maxBytes: number) => {
    const profile = loadProfile(printer);
    const out = emitWithin(lowerRaw(parse(s).ast, profile, []), profile, { maxBytes, source: s });
    return out instanceof OutputLimitReached ? resolveDiagnostics(s, [outputTooLarge(maxBytes, out.start, out.end)]) : [];
  };
  const tooLarge = (r: ReturnType<typeof compile>) => r.diagnostics.filter((d) => d.code === 'limit/output-too-large');
  // CODE39 at 6 dots per module is wider than GS k takes, so each is a raster: 10 characters are
  // 876 dots, trimmed to the TM-T20's 576 with its quiet zones, × 255 rows = 72 × 255 = 18,360 bytes.
  const barcode = '<barcode type="code39" module="6" height="255">ABCDEFGHIJ</barcode>\n';

  it('draws no barcode after the one whose raster passes the limit, and names the place emitting them all names', () => {
    const s = barcode.repeat(40);
    const r = compile(s, { printer: 5, limits: { maxOutputBytes: 20_000 } });
    expect(r.bytes.length).toBe(0);
    // Each raster barcode says so as it is drawn: 2 were, of 40. The first leaves 1,640 bytes; the
    // second passes the limit, and is drawn (the emitter finds the place in its bands); the third stops lowering.
    expect(codes(r)).toEqual(['lower/barcode-raster-fallback', 'lower/barcode-raster-fallback', 'limit/output-too-large']);
    expect(tooLarge(r)).toEqual(placeOfAll(s, 5, 20_000));
    expect(tooLarge(r)[0]!.span.start.line).toBe(2);
  });

  it('refuses nothing that fits: a job of exactly the limit prints, one byte less is refused at the same place as emitting everything', () => {
    const s = barcode.repeat(3) + '<row><cell width="1">' + 'x'.repeat(30) + '</cell><cell></cell></row>';
    for (const printer of [3, 5]) {
      const all = compile(s, { printer, limits: { maxOutputBytes: Infinity } });
      const exact = compile(s, { printer, limits: { maxOutputBytes: all.bytes.length } });
      expect(exact.bytes).toEqual(all.bytes);
      expect(exact.diagnostics).toEqual(all.diagnostics);
      const under = compile(s, { printer, limits: { maxOutputBytes: all.bytes.length - 1 } });
      expect(tooLarge(under)).toEqual(placeOfAll(s, printer, all.bytes.length - 1));
    }
  });

  it('decodes no image past the limit: a damaged one there is not even read, and one that prints nothing spends nothing', () => {
    // A 200×200 white PNG prints as 5,000 bytes at least; a damaged one has a good header (its
    // size) and data that is no zlib stream, which decoding reports as lower/image-unreadable.
    const white = Buffer.from(writePng({ width: 200, height: 200, colour: 0, depth: 8, samples: () => [255] })).toString('base64');
    const header = new Uint8Array(13);
    new DataView(header.buffer).setUint32(0, 200);
    new DataView(header.buffer).setUint32(4, 200);
    header.set([8, 0, 0, 0, 0], 8);
    const parts = [Uint8Array.of(137, 80, 78, 71, 13, 10, 26, 10), chunk('IHDR', header), chunk('IDAT', Uint8Array.of(1, 2, 3)), chunk('IEND', new Uint8Array(0))];
    const damaged = Buffer.concat(parts).toString('base64');
    const image = (data: string) => `<image src="data:image/png;base64,${data}"/>\n`;
    expect(codes(compile(image(damaged), { printer: 5 }))).toEqual(['lower/image-unreadable']);
    // The second white image passes 9,000 bytes: the damaged one after it is where lowering stops.
    const s = image(white) + image(white) + image(damaged);
    const r = compile(s, { printer: 5, limits: { maxOutputBytes: 9_000 } });
    expect(r.diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([['limit/output-too-large', 2]]);
    expect(tooLarge(r)).toEqual(placeOfAll(s, 5, 9_000));
    // Damaged ones before it print nothing, and spend nothing: the job fits as it did.
    const fits = image(white) + image(damaged) + image(damaged);
    expect(compile(fits, { printer: 5, limits: { maxOutputBytes: 9_000 } }).diagnostics.map((d) => [d.code, d.span.start.line])).toEqual([
      ['lower/image-unreadable', 2],
      ['lower/image-unreadable', 3],
    ]);
  });

  it('lays out no row lines past the limit, and names the place emitting them all names', () => {
    // One character per line at width 1: each printed line is the paper's 48 columns.
    const s = 'total\n<row><cell width="1">' + 'x'.repeat(5_000) + '</cell>\n<cell></cell></row>\n<rule/>';
    for (const [printer, max] of [[0, 10_000], [5, 10_000], [5, 48 * 3]] as const) {
      const r = compile(s, { printer, limits: { maxOutputBytes: max } });
      expect(codes(r)).toEqual(['limit/output-too-large']);
      expect(tooLarge(r)).toEqual(placeOfAll(s, printer, max));
    }
  });

  it('refuses whatever emitting everything refuses, starting at the same line and column, for any content and any byte limit', () => {
    // (Where the output passes the limit in the last bytes before an element that stops lowering,
    // the span is that element's; emitting everything named its first command, which starts there:
    // the line feed before a raster is an empty span at the tag's start.)
    const start = (ds: { span: { start: unknown } }[]) => ds.map((d) => d.span.start);
    fc.assert(
      fc.property(fc.array(fc.oneof(conteudo, fc.constant(barcode), fc.constant('<row><cell width="2">abcdef</cell><cell>x</cell></row>\n'), fc.constant('<rule/>'), fc.constant('<qrcode>abc</qrcode>')), { maxLength: 6 }), fc.integer({ min: 1, max: 40_000 }), fc.constantFrom(0, 1, 3, 5), (pieces, maxOutputBytes, printer) => {
        const s = pieces.join('');
        const r = compile(s, { printer, limits: { maxOutputBytes } });
        expect(start(tooLarge(r))).toEqual(start(placeOfAll(s, printer, maxOutputBytes)));
        if (tooLarge(r).length > 0) expect(r.bytes.length).toBe(0);
      }),
      { numRuns: 400 },
    );
  });
});

describe('compile() called wrong', () => {
  it('says options must be an object with the printer, as a TypeError', () => {
    for (const [options, shown] of [[undefined, 'undefined'], [null, 'null'], [5, 'the number 5']] as const) {
      expect(() => (compile as (c: string, o?: unknown) => unknown)('x', options)).toThrow(
        new TypeError(`compile(): options must be an object such as { printer: 5 }, not ${shown}`),
      );
    }
  });
});
