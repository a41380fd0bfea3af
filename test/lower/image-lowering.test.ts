// <image> lowering: where the image comes from (a data: URI, a name given to compile), its width,
// the limits, and a known pattern printed dot for dot, read back from the emitted bytes of both
// raster commands (GS v 0, and the DR800's ESC * bands).
import { describe, expect, it } from 'vitest';
import { emit } from '../../src/emit/index.js';
import type { RawDiagnostic } from '../../src/diagnostics.js';
import { DEFAULT_LIMITS, loadProfile, renderPage, type Bitmap, type Op, type Profile } from '../../src/index.js';
import { lowerImage, type ImageSources } from '../../src/lower/image.js';
import type { ImageNode } from '../../src/parse/ast.js';
import { lowerContext } from '../support/lower-context.js';
import { bitmapDots, rasterImages } from '../support/raster.js';
import { hex } from '../support/hex.js';
import { writePng } from '../support/png-writer.js';

/** A 40×24 pattern: a 1-dot frame, a diagonal, and a checkerboard block. */
const W = 40;
const H = 24;
const black = (x: number, y: number) => x === 0 || y === 0 || x === W - 1 || y === H - 1 || x === y || (x >= 24 && x < 32 && y >= 4 && y < 12 && (x + y) % 2 === 0);
const PATTERN = writePng({ width: W, height: H, colour: 0, depth: 1, samples: (x, y) => [black(x, y) ? 0 : 1] });
const base64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

function lower(node: Partial<ImageNode>, printer: Profile, images?: ImageSources, limits = DEFAULT_LIMITS) {
  const ctx = lowerContext(printer, { limits, ...(images && { images }) });
  lowerImage({ type: 'image', src: 'logo', dither: 'floyd-steinberg', start: 3, end: 30, ...node }, ctx);
  return { ops: ctx.out, diagnostics: ctx.diagnostics };
}

const dots = bitmapDots;

// fast-check runs are CPU-bound: a timeout that holds on a loaded 2-core machine.
describe('a known pattern, printed dot for dot', { timeout: 60_000 }, () => {
  it.each(['MAKER5T20', 'MAKER3DR800', 'MAKER1MP4200'])('%s: the emitted raster bytes hold exactly the pattern', (code) => {
    const printer = loadProfile(code);
    const { ops, diagnostics } = lower({ src: `data:image/png;base64,${base64(PATTERN)}` }, printer);
    expect(diagnostics).toEqual([]);
    const { bytes, records } = emit(ops, printer, { records: true });
    const [image] = rasterImages(bytes, records!);
    const want = Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => (black(x, y) ? 1 : 0)));
    // The printed image is padded to whole bytes (GS v 0) or 24-dot bands (ESC *) with white.
    const got = Array.from({ length: image!.height }, (_, y) => Array.from(image!.dots.subarray(y * image!.width, (y + 1) * image!.width)));
    expect(got.slice(0, H).map((row) => row.slice(0, W))).toEqual(want);
    expect(got.flatMap((row, y) => row.filter((v, x) => v && (x >= W || y >= H)))).toEqual([]);
    // The preview draws the same dots from the bytes.
    const page = renderPage(bytes, { printer });
    const drawn = page.marks.filter((m) => m.kind === 'bitmap');
    expect(drawn.length).toBeGreaterThan(0);
  });

  it('every dither prints pure black and white as they are', () => {
    const printer = loadProfile('MAKER5T20');
    for (const dither of ['floyd-steinberg', 'atkinson', 'threshold'] as const) {
      const op = lower({ dither }, printer, { logo: PATTERN }).ops[0] as Extract<Op, { op: 'image' }>;
      expect(dots(op.bitmap)).toEqual(Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => (black(x, y) ? 1 : 0))));
    }
  });
});

describe('where the image comes from, and its width', () => {
  // Loaded when each test runs, not when the file is collected (bench/MUTATION.md).
  const t20 = () => loadProfile('MAKER5T20');

  it('a name given to compile: PNG bytes, or a bitmap used as it is', () => {
    const bitmap: Bitmap = { width: 9, height: 2, bytesPerRow: 2, bits: Uint8Array.of(0xff, 0x80, 0x00, 0x00) };
    expect(lower({}, t20(), { logo: bitmap }).ops).toEqual([{ op: 'image', bitmap, start: 3, end: 30 }]);
    expect(lower({ width: 18 }, t20(), { logo: bitmap }).ops[0]).toMatchObject({ bitmap: { width: 18, height: 4 } });
    expect(lower({ width: 80 }, t20(), { logo: PATTERN }).ops[0]).toMatchObject({ bitmap: { width: 80, height: 48 } });
  });

  it('by default its own width, at most the printable width; a wider width is a warning', () => {
    const wide = writePng({ width: 1000, height: 10, colour: 0, depth: 8, samples: () => [255] });
    expect(lower({}, t20(), { logo: wide }).ops[0]).toMatchObject({ bitmap: { width: 576, height: 6 } });
    const r = lower({ width: 600 }, t20(), { logo: PATTERN });
    expect(r.ops[0]).toMatchObject({ bitmap: { width: 576 } });
    expect(r.diagnostics).toEqual([{ code: 'lower/image-too-wide', message: 'image width 600 dots is wider than the 576 printable dots of Epson TM-T20: scaled to 576', start: 3, end: 30 }]);
  });

  it('an unknown name, an unreadable PNG, a bad data: URI: errors at the tag, nothing printed', () => {
    const codes = (r: { ops: Op[]; diagnostics: RawDiagnostic[] }) => [r.ops.length, r.diagnostics.map((d) => `${d.code}: ${d.message}`)];
    expect(codes(lower({ src: 'logo' }, t20()))).toEqual([0, ['lower/image-unknown: no image named "logo" was given to compile (pass it as images: { name: pngBytes })']]);
    expect(codes(lower({ src: 'lgo' }, t20(), { logo: PATTERN }))).toEqual([0, ['lower/image-unknown: no image named "lgo" was given to compile (given: logo)']]);
    expect(codes(lower({ src: 'toString' }, t20(), { logo: PATTERN }))[1]).toEqual([expect.stringMatching(/^lower\/image-unknown/)]);
    expect(codes(lower({}, t20(), { logo: new TextEncoder().encode('not a png') }))).toEqual([0, ['lower/image-unreadable: unreadable PNG: not a PNG file (no PNG signature)']]);
    expect(codes(lower({ src: 'data:image/png;base64,@@@' }, t20()))).toEqual([0, ['lower/image-unreadable: the data: URI is not valid base64']]);
    expect(codes(lower({ src: 'data:image/gif;base64,R0lG' }, t20()))).toEqual([0, ['lower/image-unreadable: only data:image/png;base64 URIs are read']]);
    expect(codes(lower({}, t20(), { logo: { width: 9, height: 2, bytesPerRow: 1, bits: new Uint8Array(2) } }))[1]).toEqual([expect.stringMatching(/neither PNG bytes/)]);
    const damaged = Uint8Array.from(PATTERN);
    damaged.fill(0, 50, 70);
    expect(codes(lower({}, t20(), { logo: damaged }))[1]).toEqual([expect.stringMatching(/^lower\/image-unreadable: unreadable PNG/)]);
  });

  it('an image past maxImagePixels, as given or as printed, is an error before it is decoded', () => {
    const limits = { ...DEFAULT_LIMITS, maxImagePixels: 959 };
    expect(lower({}, t20(), { logo: PATTERN }, limits).diagnostics.map((d) => d.message)).toEqual(['the image is 40×24 = 960 pixels, more than 959 (the limit maxImagePixels): not printed']);
    const tall = writePng({ width: 1, height: 4000, colour: 0, depth: 8, samples: () => [0] });
    expect(lower({}, t20(), { logo: tall }, { ...DEFAULT_LIMITS, maxImagePixels: 100_000 }).diagnostics.map((d) => d.code)).toEqual([]);
    expect(lower({ width: 576 }, t20(), { logo: tall }, { ...DEFAULT_LIMITS, maxImagePixels: 100_000 }).diagnostics.map((d) => d.message)).toEqual([
      'the image as printed is 576×2304000 = 1327104000 pixels, more than 100000 (the limit maxImagePixels): not printed',
    ]);
  });

  it('prints nothing on the generic template, with a warning', () => {
    expect(lower({}, loadProfile('GENERICA'), { logo: PATTERN }).diagnostics.map((d) => d.code)).toEqual(['lower/image-unsupported']);
  });
});

describe('a bitmap given to compile, and values that are not one', () => {
  const dotsOf = (r: { ops: Op[] }) => dots((r.ops[0] as Extract<Op, { op: 'image' }>).bitmap);
  /** A 9×3 bitmap with 3 bytes a row; its padding bits are set, and are no dots of the image. */
  const padded = (): Bitmap => ({
    width: 9, height: 3, bytesPerRow: 3,
    bits: Uint8Array.of(0b10000000, 0b10111111, 0xff, 0b01000001, 0b00111111, 0xff, 0b11111111, 0b11111111, 0xff),
  });
  const paddedDots = [[1, 0, 0, 0, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 0, 0, 1, 0], [1, 1, 1, 1, 1, 1, 1, 1, 1]];

  it('at its own width, with rows of whole bytes, it is printed as given (not copied)', () => {
    const bitmap: Bitmap = { width: 16, height: 2, bytesPerRow: 2, bits: Uint8Array.of(0xf0, 0x0f, 0x81, 0x18) };
    const op = lower({}, loadProfile('MAKER5T20'), { logo: bitmap }).ops[0] as Extract<Op, { op: 'image' }>;
    expect(op.bitmap).toBe(bitmap);
  });

  it('rows padded past their width are repacked to the width: the same dots, no padding printed', () => {
    const r = lower({}, loadProfile('MAKER5T20'), { logo: padded() });
    expect((r.ops[0] as Extract<Op, { op: 'image' }>).bitmap).toMatchObject({ width: 9, height: 3, bytesPerRow: 2 });
    expect(dotsOf(r)).toEqual(paddedDots);
    const { bits } = (r.ops[0] as Extract<Op, { op: 'image' }>).bitmap;
    expect(Array.from(bits)).toEqual([0b10000000, 0b10000000, 0b01000001, 0b00000000, 0b11111111, 0b10000000]);
  });

  it('rows of whole bytes with bits set past the width: those bits are no dots (GS v 0 would print them)', () => {
    // 9 dots wide, 2 bytes a row: the last 7 bits of each row's second byte are past the width.
    const bitmap: Bitmap = { width: 9, height: 2, bytesPerRow: 2, bits: Uint8Array.of(0xff, 0xff, 0x00, 0x7f) };
    const r = lower({}, loadProfile('MAKER5T20'), { logo: bitmap });
    const op = r.ops[0] as Extract<Op, { op: 'image' }>;
    expect(Array.from(op.bitmap.bits)).toEqual([0xff, 0x80, 0x00, 0x00]);
    expect(r.diagnostics).toEqual([]);
    // The raster band as the TM-T20 gets it: GS v 0 m=0, 2 bytes a row, 2 rows, then those rows.
    expect(hex(emit(r.ops, loadProfile('MAKER5T20')).bytes)).toContain('1d76300002000200' + 'ff800000');
    // Bits past the width in the last byte only: a bitmap whose width is whole bytes is as given.
    const whole: Bitmap = { width: 8, height: 1, bytesPerRow: 1, bits: Uint8Array.of(0xff) };
    expect((lower({}, loadProfile('MAKER5T20'), { logo: whole }).ops[0] as Extract<Op, { op: 'image' }>).bitmap).toBe(whole);
  });

  it('scaled to twice its width, each dot becomes 2×2 dots, read from its own rows', () => {
    const r = lower({ width: 18 }, loadProfile('MAKER5T20'), { logo: padded() });
    const twice = paddedDots.flatMap((row) => [row.flatMap((d) => [d, d]), row.flatMap((d) => [d, d])]);
    expect(dotsOf(r)).toEqual(twice);
  });

  it.each([
    ['null', null],
    ['a function with the fields of one', Object.assign(() => 0, { width: 8, height: 1, bytesPerRow: 1, bits: new Uint8Array(1) })],
    ['width 0', { width: 0, height: 1, bytesPerRow: 0, bits: new Uint8Array(0) }],
    ['height 0', { width: 8, height: 0, bytesPerRow: 1, bits: new Uint8Array(0) }],
    ['a fractional width', { width: 8.5, height: 1, bytesPerRow: 2, bits: new Uint8Array(2) }],
    ['a fractional height', { width: 8, height: 1.5, bytesPerRow: 1, bits: new Uint8Array(2) }],
    ['a fractional bytesPerRow', { width: 8, height: 2, bytesPerRow: 1.5, bits: new Uint8Array(3) }],
    ['rows narrower than the width', { width: 9, height: 1, bytesPerRow: 1, bits: new Uint8Array(2) }],
    ['bits as a plain array', { width: 8, height: 1, bytesPerRow: 1, bits: [0xff] }],
    ['fewer bits than its rows', { width: 8, height: 3, bytesPerRow: 1, bits: new Uint8Array(2) }],
  ])('%s is neither PNG bytes nor a bitmap: an error at the tag, nothing printed', (_, value) => {
    const r = lower({}, loadProfile('MAKER5T20'), { logo: value as Bitmap });
    expect(r.ops).toEqual([]);
    expect(r.diagnostics).toEqual([{ code: 'lower/image-unreadable', message: 'image "logo" is neither PNG bytes (a Uint8Array) nor a bitmap { width, height, bytesPerRow, bits }', start: 3, end: 30 }]);
  });

  it('the smallest bitmap of each shape is one', () => {
    for (const bitmap of [
      { width: 1, height: 1, bytesPerRow: 1, bits: Uint8Array.of(0x80) },
      { width: 8, height: 2, bytesPerRow: 1, bits: Uint8Array.of(0xff, 0x01) },
    ]) expect(lower({}, loadProfile('MAKER5T20'), { logo: bitmap }).ops).toEqual([{ op: 'image', bitmap, start: 3, end: 30 }]);
  });
});

describe('names, data: URIs and limits, to the letter', () => {
  it('an unknown name lists every name that was given', () => {
    const r = lower({ src: 'logo' }, loadProfile('MAKER5T20'), { header: PATTERN, footer: PATTERN, stamp: PATTERN });
    expect(r.diagnostics.map((d) => d.message)).toEqual(['no image named "logo" was given to compile (given: header, footer, stamp)']);
  });

  it('a data: URI is read whatever the case of its prefix, and only at the start of src', () => {
    const t20 = loadProfile('MAKER5T20');
    expect(lower({ src: `DATA:Image/PNG;Base64,${base64(PATTERN)}` }, t20).ops).toMatchObject([{ op: 'image', bitmap: { width: W, height: H } }]);
    // A name that only contains such a prefix is a name.
    const name = 'old data:image/png;base64,';
    expect(lower({ src: name }, t20, { [name]: PATTERN }).ops).toMatchObject([{ op: 'image', bitmap: { width: W, height: H } }]);
  });

  it('an image of exactly maxImagePixels is printed; the printed size is the width by the height that keeps the proportions', () => {
    const t20 = loadProfile('MAKER5T20');
    expect(lower({}, t20, { logo: PATTERN }, { ...DEFAULT_LIMITS, maxImagePixels: 960 })).toMatchObject({ diagnostics: [], ops: [{ op: 'image' }] });
    // 40×24 at 500 dots wide is 500×300.
    expect(lower({ width: 500 }, t20, { logo: PATTERN }, { ...DEFAULT_LIMITS, maxImagePixels: 149_999 }).diagnostics.map((d) => d.message)).toEqual([
      'the image as printed is 500×300 = 150000 pixels, more than 149999 (the limit maxImagePixels): not printed',
    ]);
    expect(lower({ width: 500 }, t20, { logo: PATTERN }, { ...DEFAULT_LIMITS, maxImagePixels: 150_000 }).ops).toMatchObject([{ bitmap: { width: 500, height: 300 } }]);
  });

  it('with no limits given, the default maxImagePixels holds', () => {
    const t20 = loadProfile('MAKER5T20');
    const ctx = lowerContext(t20, { images: { logo: PATTERN } });
    const big = Math.ceil(Math.sqrt(DEFAULT_LIMITS.maxImagePixels)) + 1;
    const huge = Uint8Array.from(writePng({ width: 1, height: 1, colour: 0, depth: 8, samples: () => [0] }));
    new DataView(huge.buffer).setUint32(16, big);
    new DataView(huge.buffer).setUint32(20, big);
    lowerImage({ type: 'image', src: 'huge', dither: 'threshold', start: 0, end: 1 }, { ...ctx, images: { huge } });
    expect(ctx.diagnostics.map((d) => d.message)).toEqual([`the image is ${big}×${big} = ${big * big} pixels, more than ${DEFAULT_LIMITS.maxImagePixels} (the limit maxImagePixels): not printed`]);
  });

  it('an unreadable PNG is only that, whatever width the tag asks for', () => {
    const r = lower({ width: 600 }, loadProfile('MAKER5T20'), { logo: new TextEncoder().encode('not a png at all, but long enough to have a header') });
    expect(r).toEqual({ ops: [], diagnostics: [{ code: 'lower/image-unreadable', message: 'unreadable PNG: not a PNG file (no PNG signature)', start: 3, end: 30 }] });
  });

  it('the generic template says it prints no images', () => {
    expect(lower({}, loadProfile('GENERICA'), { logo: PATTERN }).diagnostics).toEqual([
      { code: 'lower/image-unsupported', message: `${loadProfile('GENERICA').printer} prints no images: <image> is ignored`, start: 3, end: 30 },
    ]);
  });
});
