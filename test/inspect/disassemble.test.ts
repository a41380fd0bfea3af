// The disassembler against bobina's own output (every fixture × template, command for command),
// against other dialects, and against arbitrary bytes (fast-check): it never throws and always
// accounts for every byte.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, disassemble, formatDisassembly, listProfiles, renderSvg, type EmitRecord, type Instruction } from '../../src/index.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.txt'));

/** Emitter record key → the effects its bytes may disassemble to ('none' = a command without one). */
const EXPECTED: Readonly<Record<EmitRecord['op'], readonly string[]>> = {
  init: ['reset', 'none'],
  codepage: ['codepage'],
  alignLeft: ['align'],
  alignCenter: ['align'],
  alignRight: ['align'],
  condensedOn: ['condensed'],
  condensedOff: ['condensed'],
  text: ['text', 'lf'],
  line: ['text', 'lf'],
  lineFeed: ['lf'],
  feed: ['feed', 'lf', 'text'],
  cutFull: ['cut'],
  cutPartial: ['cut'],
  drawer: ['drawer'],
  boldOn: ['bold'],
  boldOff: ['bold'],
  underlineOn: ['underline'],
  underlineOff: ['underline'],
  invertOn: ['invert'],
  invertOff: ['invert'],
  size: ['size'],
  qrModel: ['none'],
  qrSize: ['qr-size'],
  qrEcc: ['qr-ecc'],
  qrStore: ['qr-store'],
  qrPrint: ['qr-print'],
  qr: ['qr'],
  qrEnter: ['reset'],
  qrLeave: ['reset'],
  raster: ['raster'],
  barcodeHeight: ['barcode-height'],
  barcodeModule: ['barcode-module'],
  barcodeText: ['barcode-text'],
  barcode: ['barcode'],
  bandSpacing: ['spacing'],
  spacingReset: ['spacing'],
  // Printed at the next LF (Epson) or at once, like a raster image (a printer whose bands end with nothing).
  band: ['band', 'lf', 'raster'],
};

const effectOf = (i: Instruction) => i.effect?.type ?? 'none';

describe.each(fixtures)('disassembling the compiled fixture %s', (fixture) => {
  const source = readFileSync(join(FIXTURES, fixture), 'utf8');
  it.each(listProfiles().map((p) => p.code))('for %s lists the commands the compile records name, byte for byte', (profile) => {
    const { bytes, records } = compile(source, { printer: profile, records: true });
    const listing = disassemble(bytes, { printer: profile });
    expect(listing.filter((i) => i.kind === 'unknown' || i.kind === 'truncated')).toEqual([]);
    for (const record of records!) {
      const expected = EXPECTED[record.op];
      expect(expected, `no expectation for record op "${record.op}"`).toBeDefined();
      if (record.length === 0) continue;
      // A line feed right after text is read as the end of that text line: the same byte, one entry.
      const covering = listing.find((i) => i.offset <= record.offset && record.offset < i.offset + i.length)!;
      if (covering.offset < record.offset) {
        expect(covering.kind, `${record.op} at ${record.offset}`).toBe('text');
        if (record.op !== 'text' && record.op !== 'line') expect(bytes[record.offset]).toBe(0x0a);
      }
      const inside = listing.filter((i) => i.offset >= record.offset && i.offset < record.offset + record.length);
      for (const ins of inside) expect(expected, `${record.op} at ${record.offset}`).toContain(effectOf(ins));
    }
  });
});

describe('the disassembler', () => {
  it('refuses bytes that are not a Uint8Array with a TypeError naming them, as the preview does', () => {
    for (const [bytes, shown] of [[null, 'null'], ['abc', 'the string "abc"'], [[27, 64], 'an array']] as const) {
      expect(() => disassemble(bytes as never, { printer: 5 })).toThrow(new TypeError(`disassemble(): bytes must be a Uint8Array, not ${shown}`));
      expect(() => renderSvg(bytes as never, { printer: 5 })).toThrow(new TypeError(`renderSvg(): bytes must be a Uint8Array, not ${shown}`));
    }
    expect(() => renderSvg(new Uint8Array([27, 64]), undefined as never)).toThrow(/^renderSvg\(\): options must be an object such as \{ printer: 5 \}, not undefined$/);
    expect(disassemble(Buffer.from([27, 64])).map((i) => i.mnemonic)).toEqual(['ESC @']);
  });

  it('decodes text runs in CP850, so Portuguese letters read as written', () => {
    const { bytes } = compile('Promoção: pão e café à vontade\n', { printer: 5 });
    const texts = disassemble(bytes).flatMap((i) => (i.effect?.type === 'text' ? [i.effect.text] : []));
    expect(texts.join('')).toBe('Promoção: pão e café à vontade\n');
  });

  it('reads Daruma bytes in the Daruma dialect chosen by the printer profile', () => {
    const bytes = Uint8Array.of(0x1b, 0x6a, 0x01, 0x1b, 0x70, 0x1b, 0x6d);
    const daruma = disassemble(bytes, { printer: 'MAKER3DR800' }).map((i) => i.effect);
    // ESC p takes no pin on the DR800: the pin is the printer's own, so none is claimed.
    expect(daruma).toEqual([{ type: 'align', align: 'center' }, { type: 'drawer' }, { type: 'cut', partial: false }]);
    const epson = disassemble(bytes, { printer: 5 }).map((i) => i.name);
    expect(epson[0]).toBe('print and reverse feed n dots');
  });

  it('shows unknown commands as such and goes on listing after them', () => {
    const bytes = Uint8Array.of(0x1b, 0x99, 0x41, 0x0a, 0x00, 0x1b, 0x61, 0x02);
    const listing = disassemble(bytes);
    expect(listing.map((i) => i.kind)).toEqual(['unknown', 'text', 'unknown', 'command']);
    expect(formatDisassembly(bytes, listing)).toContain('UNKNOWN: unknown command');
  });

  it('reports a command cut off by the end of the stream as truncated instead of failing', () => {
    const listing = disassemble(Uint8Array.of(0x41, 0x1d, 0x76, 0x30, 0x00, 0x10, 0x00, 0xff, 0xff, 0x01));
    expect(listing.at(-1)?.kind).toBe('truncated');
  });

  it('reads a stream another program wrote: barcode, bit image and Epson QR', () => {
    const bytes = Uint8Array.of(
      ...[0x1d, 0x6b, 0x04, 0x31, 0x32, 0x33, 0x00], // GS k CODE39 "123" NUL
      ...[0x1b, 0x2a, 0x00, 0x02, 0x00, 0xff, 0x81], // ESC * 8-dot, 2 columns
      ...[0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, 0x04],
      ...[0x1d, 0x56, 0x01],
    );
    expect(disassemble(bytes).map((i) => i.mnemonic)).toEqual(['GS k', 'ESC *', 'GS ( k', 'GS V']);
  });

  it('never throws on any bytes and accounts for every byte exactly once', () => {
    const interesting = fc.oneof(fc.constantFrom(0x1b, 0x1d, 0x1c, 0x10, 0x0a, 0x28, 0x6b, 0x76, 0x30, 0x2a, 0x21, 0x81, 0x51, 0x00), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(interesting, { maxLength: 200 }), fc.constantFrom(0, 1, 3, 4, 5), (arr, printer) => {
        const bytes = Uint8Array.from(arr);
        const listing = disassemble(bytes, { printer });
        let at = 0;
        for (const ins of listing) {
          expect(ins.offset).toBe(at);
          expect(ins.length).toBeGreaterThan(0);
          at += ins.length;
        }
        expect(at).toBe(bytes.length);
        formatDisassembly(bytes, listing);
        renderSvg(bytes, { printer });
      }),
      { numRuns: 300 },
    );
  });
});
