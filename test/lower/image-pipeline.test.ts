// The image pipeline's pure parts: PNG decoding (every colour type, depth, palette, tRNS and
// interlacing, against pngjs as the reference), scaling to a width, and the three dithers.
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { dither } from '../../src/lower/image/dither.js';
import { decodePng, pngSize, type Grey } from '../../src/lower/image/png.js';
import { scaleGrey } from '../../src/lower/image/scale.js';
import { writePng, type PngSpec } from '../support/png-writer.js';

/** pngjs's RGBA, laid on white and taken to grey as bobina does: the reference. */
function reference(png: Uint8Array): Grey {
  const img = PNG.sync.read(Buffer.from(png));
  const grey = new Uint8Array(img.width * img.height);
  for (let i = 0; i < grey.length; i++) {
    const [r, g, b, a] = [img.data[4 * i]!, img.data[4 * i + 1]!, img.data[4 * i + 2]!, img.data[4 * i + 3]!];
    grey[i] = Math.round(255 - (a * (255 - (0.299 * r + 0.587 * g + 0.114 * b))) / 255);
  }
  return { width: img.width, height: img.height, grey };
}

const FORMATS: Array<[PngSpec['colour'], PngSpec['depth']]> = [
  [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [2, 8], [2, 16], [3, 1], [3, 2], [3, 4], [3, 8], [4, 8], [4, 16], [6, 8], [6, 16],
];

const spec = fc
  .record({
    format: fc.constantFrom(...FORMATS),
    width: fc.integer({ min: 1, max: 19 }),
    height: fc.integer({ min: 1, max: 13 }),
    interlace: fc.boolean(),
    seed: fc.integer({ min: 1, max: 1 << 30 }),
    trns: fc.boolean(),
  })
  .map(({ format: [colour, depth], width, height, interlace, seed, trns }): PngSpec => {
    const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colour];
    const max = colour === 3 ? (1 << depth) - 1 : 2 ** depth - 1;
    const value = (x: number, y: number, c: number) => Math.abs(Math.imul(seed ^ (x * 73856093) ^ (y * 19349663) ^ (c * 83492791), 2654435761)) % (max + 1);
    const palette = colour === 3 ? Array.from({ length: max + 1 }, (_, i) => [(i * 37) & 255, (i * 91) & 255, (i * 151) & 255]) : undefined;
    const key = colour === 0 ? [0, value(0, 0, 0) >> (depth === 16 ? 0 : 0)] : undefined;
    const t = !trns ? undefined : colour === 3 ? palette!.map((_, i) => (i * 53) & 255) : colour === 0 ? [key![1]! >> 8, key![1]! & 255] : colour === 2 ? [0, value(0, 0, 0), 0, value(0, 0, 1), 0, value(0, 0, 2)].map((v, i) => (i % 2 === 0 && depth === 16 ? 0 : v & 255)) : undefined;
    return { width, height, colour, depth, interlace, palette, trns: t, samples: (x, y) => Array.from({ length: channels }, (_, c) => value(x, y, c)) };
  });

// fast-check runs are CPU-bound: a timeout that holds on a loaded 2-core machine.
describe('PNG decoding', { timeout: 60_000 }, () => {
  it('gives what pngjs gives, for every colour type, depth, palette, tRNS and interlacing, every filter', () => {
    fc.assert(
      fc.property(spec, (s) => {
        const png = writePng(s);
        const ours = decodePng(png, 1e6);
        if ('error' in ours) throw new Error(ours.error);
        const ref = reference(png);
        expect([ours.width, ours.height]).toEqual([ref.width, ref.height]);
        // Grey from RGBA rounded twice (pngjs to 8 bits, then the luma) may differ by one level.
        ours.grey.forEach((v, i) => expect(Math.abs(v - ref.grey[i]!)).toBeLessThanOrEqual(1));
      }),
      { numRuns: 300 },
    );
  });

  it('transparent pixels come out white', () => {
    const png = writePng({ width: 2, height: 1, colour: 6, depth: 8, samples: (x) => (x === 0 ? [0, 0, 0, 0] : [0, 0, 0, 255]) });
    expect(decodePng(png, 1e6)).toEqual({ width: 2, height: 1, grey: Uint8Array.of(255, 0) });
  });

  it('says why a file is not a readable PNG, and never throws', () => {
    const good = writePng({ width: 3, height: 2, colour: 0, depth: 8, samples: () => [0] });
    expect(decodePng(new TextEncoder().encode('GIF89a…'), 1e6)).toEqual({ error: 'not a PNG file (no PNG signature)' });
    expect(decodePng(good.subarray(0, 40), 1e6)).toEqual({ error: expect.stringMatching(/ends/) });
    const bad = Uint8Array.from(good);
    bad[25] = 5; // colour type 5 does not exist
    expect(decodePng(bad, 1e6)).toEqual({ error: 'colour type 5 with bit depth 8 is not a PNG format' });
    const damaged = Uint8Array.from(good);
    damaged.fill(0xff, 45, 60);
    expect(decodePng(damaged, 1e6)).toHaveProperty('error');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 0, max: 80 }), (noise, at) => {
        const mixed = Uint8Array.from(good);
        mixed.set(noise.subarray(0, Math.max(0, mixed.length - at)), at);
        decodePng(mixed, 1e6); // returns an image or an error, never throws
      }),
    );
  });

  it('refuses an image past the pixel limit from its header, before taking memory for it', () => {
    const png = writePng({ width: 30, height: 20, colour: 0, depth: 8, samples: () => [0] });
    expect(decodePng(png, 599)).toEqual({ error: '30×20 pixels is more than 599' });
    expect(decodePng(png, 600)).toMatchObject({ width: 30, height: 20 });
    const huge = Uint8Array.from(png);
    huge.set([0x7f, 0xff, 0xff, 0xff], 16); // a header that claims 2147483647 × 20
    expect(decodePng(huge, 1e6)).toEqual({ error: '2147483647×20 pixels is more than 1000000' });
  });

  it('reads the size from the header alone', () => {
    const png = writePng({ width: 300, height: 7, colour: 2, depth: 8, samples: () => [1, 2, 3] });
    expect(pngSize(png)).toEqual({ width: 300, height: 7 });
    expect(pngSize(Uint8Array.of(1, 2, 3))).toEqual({ error: 'not a PNG file (no PNG signature)' });
  });

  it('a file whose data inflates past its size keeps only what the size says', () => {
    const big = writePng({ width: 64, height: 64, colour: 0, depth: 8, samples: () => [0] });
    const small = Uint8Array.from(big);
    small[19] = 8; // IHDR width 64 → 8: the data is eight times what the header announces
    const out = decodePng(small, 1e6);
    expect(out).toMatchObject({ width: 8, height: 64 });
  });
});

describe('scaling and dithering', () => {
  const grey = (width: number, height: number, f: (x: number, y: number) => number): Grey => ({
    width, height, grey: Uint8Array.from({ length: width * height }, (_, i) => f(i % width, Math.floor(i / width))),
  });

  it('scales by area: halving averages 2×2 blocks, doubling repeats pixels, the height follows the width', () => {
    const img = grey(4, 2, (x) => (x % 2 ? 255 : 0));
    expect(Array.from(scaleGrey(img, 2).levels)).toEqual([127.5, 127.5]);
    expect(scaleGrey(img, 8)).toMatchObject({ width: 8, height: 4 });
    expect(Array.from(scaleGrey(grey(2, 1, (x) => x * 255), 4).levels)).toEqual([0, 0, 255, 255, 0, 0, 255, 255]);
    expect(scaleGrey(grey(1000, 1, () => 0), 10).height).toBe(1);
  });

  it('threshold: below 128 is a dot; Floyd–Steinberg and Atkinson keep a grey level as a share of dots', () => {
    const ramp = { width: 3, height: 1, levels: Float32Array.of(0, 127, 128) };
    expect(Array.from(dither(ramp, 'threshold').bits)).toEqual([0b11000000]);
    const half = { width: 64, height: 64, levels: new Float32Array(64 * 64).fill(128) };
    const count = (b: Uint8Array) => b.reduce((n, v) => n + v.toString(2).replace(/0/g, '').length, 0);
    expect(count(dither(half, 'threshold').bits)).toBe(0);
    expect(Math.abs(count(dither(half, 'floyd-steinberg').bits) / (64 * 64) - 0.5)).toBeLessThan(0.02);
    const quarter = { width: 64, height: 64, levels: new Float32Array(64 * 64).fill(191) };
    expect(Math.abs(count(dither(quarter, 'floyd-steinberg').bits) / (64 * 64) - 0.25)).toBeLessThan(0.02);
    // Atkinson drops a quarter of the error: a light grey prints lighter than its share.
    expect(count(dither(quarter, 'atkinson').bits) / (64 * 64)).toBeLessThan(0.25);
    expect(dither(half, 'atkinson').bits).not.toEqual(dither(half, 'floyd-steinberg').bits);
  });

  it('pure black and white survive every method unchanged', () => {
    const pattern = { width: 10, height: 3, levels: Float32Array.from({ length: 30 }, (_, i) => ((i * 7) % 3 ? 255 : 0)) };
    const expected = dither(pattern, 'threshold').bits;
    expect(dither(pattern, 'floyd-steinberg').bits).toEqual(expected);
    expect(dither(pattern, 'atkinson').bits).toEqual(expected);
  });
});
