// The zlib/DEFLATE decoder of PNG data, against node:zlib's encoder: every block type (stored,
// fixed and dynamic codes, Z_RLE, Huffman only), any data; damaged or short streams are an error,
// never a hang; an output buffer bounds what is kept.
import { constants, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DamagedData, unzlib } from '../../src/lower/image/inflate.js';

const STRATEGIES = [constants.Z_DEFAULT_STRATEGY, constants.Z_FIXED, constants.Z_HUFFMAN_ONLY, constants.Z_RLE, constants.Z_FILTERED];
/** Data that compresses well, badly, or in runs. */
const data = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc.array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 400 })), { maxLength: 30 }).map((runs) => Uint8Array.from(runs.flatMap(([v, n]) => Array(n).fill(v)))),
  fc.string({ maxLength: 2000 }).map((s) => new TextEncoder().encode(s.repeat(3))),
);

// fast-check runs are CPU-bound: a timeout that holds on a loaded 2-core machine.
describe('inflating zlib streams', { timeout: 60_000 }, () => {
  it('gives back exactly what node:zlib compressed, at every level and strategy', () => {
    fc.assert(
      fc.property(data, fc.integer({ min: 0, max: 9 }), fc.constantFrom(...STRATEGIES), (bytes, level, strategy) => {
        const z = deflateSync(bytes, { level, strategy });
        expect(unzlib(z, new Uint8Array(bytes.length))).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps at most the buffer it is given, and stops there', () => {
    const bytes = new Uint8Array(100_000).fill(7);
    const z = deflateSync(bytes);
    expect(unzlib(z, new Uint8Array(10))).toEqual(new Uint8Array(10).fill(7));
    expect(unzlib(z, new Uint8Array(200_000))).toHaveLength(100_000);
  });

  it('a damaged or cut stream is DamagedData or a shorter result, never a throw of another kind or a hang', () => {
    fc.assert(
      fc.property(data, fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 255 }), fc.boolean(), (bytes, at, value, cut) => {
        const z = Uint8Array.from(deflateSync(bytes));
        const i = at % z.length;
        const broken = cut ? z.subarray(0, i) : (z[i] = value, z);
        try {
          const out = unzlib(broken, new Uint8Array(bytes.length));
          expect(out.length).toBeLessThanOrEqual(bytes.length);
        } catch (error) {
          expect(error).toBeInstanceOf(DamagedData);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('says what is wrong', () => {
    expect(() => unzlib(Uint8Array.of(1, 2, 3), new Uint8Array(4))).toThrow(new DamagedData('not a zlib stream'));
    expect(() => unzlib(Uint8Array.of(0x78, 0x9c, 0x07), new Uint8Array(4))).toThrow(new DamagedData('block type 3'));
    expect(() => unzlib(Uint8Array.of(0x78, 0x9c), new Uint8Array(4))).toThrow(new DamagedData('the data ends inside a block'));
  });
});
