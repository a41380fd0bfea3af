// Properties of <barcode>, <image> and <qrcode size ecc> through the whole compile, for any
// attribute values and any data: never a throw; a barcode is an error at its data, or printed
// (natively with the attributes asked, or as an image) and read back by the disassembler and the
// preview as the symbol of exactly its data; an image of any width and dither prints at the width
// asked within the paper.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, disassemble, listProfiles, loadProfile, renderPage } from '../../src/index.js';
import { nativeSymbol } from '../../src/inspect/barcode-draw.js';
import { ENCODERS, SYMBOLOGIES } from '../../src/lower/barcode/index.js';
import { writePng } from '../support/png-writer.js';

const printers = listProfiles().map((p) => p.code);
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 16 }).filter((s) => !s.includes('</barcode'));
const digits = fc.stringMatching(/^[0-9]{1,14}$/);

// fast-check runs are CPU-bound: a timeout that holds on a loaded 2-core machine.
describe('<barcode> with any attributes and data', { timeout: 60_000 }, () => {
  it('is an error at its data, or prints the symbol of exactly that data', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...printers),
        fc.constantFrom(...SYMBOLOGIES),
        fc.integer({ min: 1, max: 255 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom('none', 'above', 'below', 'both'),
        fc.oneof(digits, printable, fc.constantFrom('A40156B', '789100031550', 'ABC-12')),
        (printer, type, height, module, text, data) => {
          const source = `<textAlignCenter><barcode type="${type}" height="${height}" module="${module}" text="${text}">${data}</barcode>\n`;
          const { bytes, diagnostics } = compile(source, { printer });
          const encoded = ENCODERS[type](data);
          const errors = diagnostics.filter((d) => d.severity === 'error');
          if (!encoded.ok) {
            expect(errors.map((d) => d.code)).toEqual(['lower/barcode-invalid']);
            return;
          }
          if (errors.length) {
            expect(errors.map((d) => d.code)).toEqual(['lower/barcode-too-wide']);
            return;
          }
          const profile = loadProfile(printer);
          const listing = disassemble(bytes, { printer });
          const native = listing.find((i) => i.effect?.type === 'barcode');
          if (native) {
            const p = profile.barcode!;
            expect(module).toBeGreaterThanOrEqual(p.moduleRange.min);
            expect(height).toBeLessThanOrEqual(p.heightRange.max);
            expect(p.text).toContain(text);
            const effect = native.effect as Extract<typeof native.effect, { type: 'barcode' }>;
            const read = nativeSymbol(effect.symbology!, effect.data);
            expect(typeof read === 'string' ? read : read.text).toBe(encoded.symbol.text);
            const page = renderPage(bytes, { printer });
            expect(page.marks.some((m) => m.kind === 'note' && m.label.startsWith('native barcode'))).toBe(true);
          } else if (profile.image) {
            expect(diagnostics.map((d) => d.code)).toContain('lower/barcode-raster-fallback');
            expect(listing.some((i) => i.effect?.type === 'raster')).toBe(true);
          }
          // The human-readable text is printed where asked: by the printer, or as a line.
          if (!native && (text !== 'none' || !profile.image)) {
            const lines = listing.flatMap((i) => (i.effect?.type === 'text' ? [i.effect.text] : [])).join('');
            expect(lines).toContain(encoded.symbol.text);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('<image> with any width and dither', { timeout: 60_000 }, () => {
  const png = writePng({ width: 30, height: 10, colour: 0, depth: 8, samples: (x, y) => [(x * 9 + y * 20) % 256] });
  it('prints at the width asked, at most the paper, and never throws', () => {
    fc.assert(
      fc.property(fc.constantFrom(...printers), fc.option(fc.integer({ min: 1, max: 700 })), fc.constantFrom('floyd-steinberg', 'atkinson', 'threshold'), (printer, width, dither) => {
        const source = `<image src="logo"${width === null ? '' : ` width="${width}"`} dither="${dither}"/>`;
        const { bytes, diagnostics } = compile(source, { printer, images: { logo: png } });
        const profile = loadProfile(printer);
        if (!profile.image) {
          expect(diagnostics.map((d) => d.code)).toEqual(['lower/image-unsupported']);
          return;
        }
        const expected = Math.min(width ?? 30, profile.image.widthDots);
        const images = renderPage(bytes, { printer }).marks.filter((m) => m.kind === 'bitmap');
        expect(images.length).toBeGreaterThan(0);
        const drawn = images.reduce((w, m) => Math.max(w, m.kind === 'bitmap' ? m.bitmap.width : 0), 0);
        // GS v 0 rounds the width up to whole bytes.
        expect(drawn - expected).toBeGreaterThanOrEqual(0);
        expect(drawn - expected).toBeLessThan(8);
      }),
      { numRuns: 100 },
    );
  });
});

describe('<qrcode size ecc>', { timeout: 60_000 }, () => {
  it('without them the bytes are exactly as before; with them, never a throw', () => {
    fc.assert(
      fc.property(fc.constantFrom(...printers), fc.option(fc.integer({ min: 1, max: 16 })), fc.option(fc.constantFrom('L', 'M', 'Q', 'H')), (printer, size, ecc) => {
        const attrs = `${size === null ? '' : ` size="${size}"`}${ecc === null ? '' : ` ecc="${ecc}"`}`;
        const withAttrs = compile(`<qrcode${attrs}>https://example.com/r/123</qrcode>`, { printer });
        if (attrs === '') expect(withAttrs.bytes).toEqual(compile('<qrcode>https://example.com/r/123</qrcode>', { printer }).bytes);
        expect(withAttrs.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
