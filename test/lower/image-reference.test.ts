// The image pipeline's arithmetic against textbook versions written out here: error diffusion
// (Floyd–Steinberg, Atkinson) dot for dot, scaling as the exact area mean of the source pixels each
// dot covers, and base64 against Node's own codec. The pipeline tests check these at a few points;
// here every dot of many drawn images is compared.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bitmap } from '../../src/index.js';
import { decodeBase64 } from '../../src/lower/image/base64.js';
import { dither, type Dither } from '../../src/lower/image/dither.js';
import type { Grey } from '../../src/lower/image/png.js';
import { scaleGrey, type Levels } from '../../src/lower/image/scale.js';
import { bitmapDots } from '../support/raster.js';

/** The textbook kernels: where a dot's error goes, [dx, dy, weight], in the order they are usually written. */
const KERNELS: Record<Dither, Array<[number, number, number]>> = {
  'floyd-steinberg': [[1, 0, 7 / 16], [-1, 1, 3 / 16], [0, 1, 5 / 16], [1, 1, 1 / 16]],
  atkinson: [[1, 0, 1 / 8], [2, 0, 1 / 8], [-1, 1, 1 / 8], [0, 1, 1 / 8], [1, 1, 1 / 8], [0, 2, 1 / 8]],
  threshold: [],
};

/** Error diffusion as it is taught: each dot in reading order, its error sent to the neighbours on the image. */
function textbookDither(image: Levels, method: Dither): number[][] {
  const { width, height } = image;
  const levels = Float32Array.from(image.levels);
  const dots: number[][] = [];
  for (let y = 0; y < height; y++) {
    const row: number[] = [];
    for (let x = 0; x < width; x++) {
      const v = levels[y * width + x]!;
      const out = v < 128 ? 0 : 255;
      row.push(out === 0 ? 1 : 0);
      for (const [dx, dy, w] of KERNELS[method]) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx >= 0 && nx < width && ny < height) levels[ny * width + nx]! += (v - out) * w;
      }
    }
    dots.push(row);
  }
  return dots;
}

/** The bitmap's dots (1 = black), and whether every padding bit past the width is white. */
function read(b: Bitmap): { dots: number[][]; padding: number } {
  const dots = bitmapDots(b);
  let padding = 0;
  for (let y = 0; y < b.height; y++) for (let x = b.width; x < b.bytesPerRow * 8; x++) padding += b.bits[y * b.bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7)) ? 1 : 0;
  return { dots, padding };
}

/** Grey images with structure a dither can get wrong: noise, flat greys, ramps, and edges. */
const levelsArb = fc
  .record({
    width: fc.integer({ min: 1, max: 21 }),
    height: fc.integer({ min: 1, max: 9 }),
    kind: fc.constantFrom('noise', 'flat', 'ramp', 'edge'),
    grey: fc.integer({ min: 0, max: 255 }),
    seed: fc.integer({ min: 1, max: 1 << 30 }),
  })
  .map(({ width, height, kind, grey, seed }): Levels => {
    const at = (x: number, y: number) =>
      kind === 'flat' ? grey
      : kind === 'ramp' ? (x * 255) / Math.max(1, width - 1)
      : kind === 'edge' ? (x + y < width / 2 ? grey : 255 - grey)
      : Math.abs(Math.imul(seed ^ (x * 73856093) ^ (y * 19349663), 2654435761)) % 256;
    return { width, height, levels: Float32Array.from({ length: width * height }, (_, i) => at(i % width, Math.floor(i / width))) };
  });

// fast-check runs are CPU-bound: a timeout that holds on a loaded 2-core machine.
describe('dithering, dot for dot', { timeout: 60_000 }, () => {
  it.each(['floyd-steinberg', 'atkinson', 'threshold'] as const)('%s prints every dot the textbook method prints, rows padded with white', (method) => {
    fc.assert(
      fc.property(levelsArb, (image) => {
        const before = Float32Array.from(image.levels);
        const b = dither(image, method);
        expect([b.width, b.height, b.bytesPerRow, b.bits.length]).toEqual([image.width, image.height, Math.ceil(image.width / 8), Math.ceil(image.width / 8) * image.height]);
        expect(read(b)).toEqual({ dots: textbookDither(image, method), padding: 0 });
        // The caller's levels are left as they were.
        expect(image.levels).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('Floyd–Steinberg on a 3×2 grey of 100: each neighbour gets its share of the error', () => {
    // (0,0) 100 → dot, error +100: right 143.75, below 131.25, below-right 106.25. (1,0) → white,
    // error -111.25: right 51.33 → dot, below-left 110.39 → dot, below 71.48, below-right 93.05.
    // (2,0)'s +51.33 lifts below-left to 81.11 and below to 109.09; (0,1)'s +110.39 lifts its right
    // neighbour to 129.40 → white, whose -125.6 puts the last dot at 54.1 → dot.
    const image = { width: 3, height: 2, levels: new Float32Array(6).fill(100) };
    expect(read(dither(image, 'floyd-steinberg')).dots).toEqual([[1, 0, 1], [1, 0, 1]]);
  });

  it('error past either end of a row is dropped, not carried round to the other end', () => {
    // (1,0) 200 → white, error -55; its right neighbour is off the image. Carried to the next row's
    // first dot (150 - 10.31 - 24.06 = 115.6) that would print a dot there.
    const right = { width: 2, height: 2, levels: Float32Array.of(255, 200, 150, 255) };
    expect(read(dither(right, 'floyd-steinberg')).dots).toEqual([[0, 0], [0, 0]]);
    // (0,0) 200 → white, error -55: 160 - 24.06 = 135.9 stays white; its below-left share (-10.31)
    // belongs to no dot, and sent to the end of its own row it would make that a dot.
    const left = { width: 2, height: 2, levels: Float32Array.of(200, 160, 255, 255) };
    expect(read(dither(left, 'floyd-steinberg')).dots).toEqual([[0, 0], [0, 0]]);
  });
});

/** Area mean in doubles: each dot is the mean of the source over the rectangle it covers. */
function areaMean(image: Grey, width: number): { width: number; height: number; levels: number[] } {
  const height = Math.max(1, Math.round((image.height * width) / image.width));
  const rx = image.width / width;
  const ry = image.height / height;
  const overlap = (s: number, a: number, b: number) => Math.max(0, Math.min(s + 1, b) - Math.max(s, a));
  const levels: number[] = [];
  for (let oy = 0; oy < height; oy++) {
    for (let ox = 0; ox < width; ox++) {
      let sum = 0;
      for (let sy = 0; sy < image.height; sy++) {
        const fy = overlap(sy, oy * ry, (oy + 1) * ry);
        if (fy === 0) continue;
        for (let sx = 0; sx < image.width; sx++) sum += fy * overlap(sx, ox * rx, (ox + 1) * rx) * image.grey[sy * image.width + sx]!;
      }
      levels.push(sum / (rx * ry));
    }
  }
  return { width, height, levels };
}

describe('scaling, as the area mean', { timeout: 60_000 }, () => {
  const greyArb = fc
    .record({ width: fc.integer({ min: 1, max: 24 }), height: fc.integer({ min: 1, max: 12 }), seed: fc.integer({ min: 1, max: 1 << 30 }) })
    .map(({ width, height, seed }): Grey => ({
      width, height, grey: Uint8Array.from({ length: width * height }, (_, i) => Math.abs(Math.imul(seed ^ (i * 73856093), 2654435761)) % 256),
    }));

  it('every dot is the mean of the source pixels it covers, by area, at any width', () => {
    fc.assert(
      fc.property(greyArb, fc.integer({ min: 1, max: 40 }), (image, width) => {
        const want = areaMean(image, width);
        const got = scaleGrey(image, width);
        expect([got.width, got.height, got.levels.length]).toEqual([want.width, want.height, want.width * want.height]);
        // Float32 sums of a few products: within a hundredth of a level (NaN is never within it).
        const off = Array.from(got.levels).findIndex((v, i) => !(Math.abs(v - want.levels[i]!) < 0.01));
        expect(off === -1 ? [] : [off, got.levels[off], want.levels[off]]).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('at its own width the levels are the grey values exactly', () => {
    fc.assert(
      fc.property(greyArb, (image) => {
        expect(scaleGrey(image, image.width)).toEqual({ width: image.width, height: image.height, levels: Float32Array.from(image.grey) });
      }),
    );
  });

  it('a width that keeps the height still scales the row: 4×1 to 2 dots wide', () => {
    const got = scaleGrey({ width: 4, height: 1, grey: Uint8Array.of(0, 100, 200, 255) }, 2);
    expect(got).toEqual({ width: 2, height: 1, levels: Float32Array.of(50, 227.5) });
  });
});

describe('base64', () => {
  const bytesArb = fc.uint8Array({ maxLength: 40 });

  it('decodes what Node encodes, with or without padding, with whitespace anywhere', () => {
    fc.assert(
      fc.property(bytesArb, fc.boolean(), fc.array(fc.tuple(fc.nat(), fc.constantFrom('\t', '\n', '\f', '\r', ' ', '\r\n', '  ')), { maxLength: 6 }), (bytes, pad, spaces) => {
        let text = Buffer.from(bytes).toString('base64');
        if (!pad) text = text.replace(/=+$/, '');
        for (const [at, space] of spaces) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + space + text.slice(i);
        }
        expect(decodeBase64(text)).toEqual(bytes);
      }),
    );
  });

  it('every character of the alphabet has its value', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    // Each character as the first six bits of a byte: "Xw==" is (value << 2) | 3.
    for (let v = 0; v < 64; v++) expect(decodeBase64(`${alphabet[v]}w==`)).toEqual(Uint8Array.of((v << 2) | 3));
  });

  it('is undefined for text that is not base64', () => {
    for (const text of [
      'Q', // a length no base64 text has (4n + 1 characters)
      'QUJDR',
      'QQ===', // three padding characters
      'Q=Q=', // padding inside
      'QQ==QUJD',
      'QU-D', // the URL-safe alphabet is not read
      'QU_D',
      'QU\u0080D', // past ASCII
      'QU\u0100D',
      'QU\u00c1D',
      'QU\vD', // vertical tab is not whitespace here
      'QU.D',
    ]) expect([text, decodeBase64(text)]).toEqual([text, undefined]);
  });

  it('empty text (or only whitespace and padding) is no bytes', () => {
    expect(decodeBase64('')).toEqual(new Uint8Array(0));
    expect(decodeBase64(' \n\t')).toEqual(new Uint8Array(0));
  });
});
