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

/** A DEFLATE bit stream written by hand (RFC 1951 §3.1.1: values LSB first, Huffman codes MSB first). */
class Bits {
  private readonly bytes: number[] = [];
  private acc = 0;
  private n = 0;
  put(value: number, count: number): this {
    for (let i = 0; i < count; i++) {
      this.acc |= ((value >> i) & 1) << this.n;
      if (++this.n === 8) this.flush();
    }
    return this;
  }
  code(code: number, length: number): this {
    for (let i = length - 1; i >= 0; i--) this.put((code >> i) & 1, 1);
    return this;
  }
  /** Bits written so far. */
  get size(): number {
    return this.bytes.length * 8 + this.n;
  }
  /** Pads to a byte (before a stored block's length). */
  align(): this {
    if (this.n) this.flush();
    return this;
  }
  raw(...bytes: number[]): this {
    this.align();
    this.bytes.push(...bytes);
    return this;
  }
  /** The stream with a zlib header (deflate, 32 K window, no dictionary). */
  zlib(): Uint8Array {
    this.align();
    return Uint8Array.of(0x78, 0x01, ...this.bytes);
  }
  private flush() {
    this.bytes.push(this.acc);
    this.acc = 0;
    this.n = 0;
  }
}

/** Fixed-code literal/length symbol (RFC 1951 §3.2.6). */
function fixedSymbol(bits: Bits, s: number): Bits {
  if (s < 144) return bits.code(0x30 + s, 8);
  if (s < 256) return bits.code(0x190 + s - 144, 9);
  if (s < 280) return bits.code(s - 256, 7);
  return bits.code(0xc0 + s - 280, 8);
}

/** The canonical codes of `lengths` (RFC 1951 §3.2.2). */
function canonical(lengths: number[]): number[] {
  const count = new Array<number>(16).fill(0);
  for (const l of lengths) if (l) count[l]!++;
  const next = new Array<number>(16).fill(0);
  for (let len = 1, code = 0; len < 16; len++) next[len] = code = (code + count[len - 1]!) << 1;
  return lengths.map((l) => (l ? next[l]!++ : 0));
}

/**
 * A dynamic block's header (after its 3 header bits): the code-length symbols, with their extra
 * bits, sent through a code-length code where each of its 19 symbols has 5 bits.
 */
function dynamicHeader(bits: Bits, nlen: number, ndist: number, symbols: Array<number | [number, number]>): Bits {
  bits.put(nlen - 257, 5).put(ndist - 1, 5).put(19 - 4, 4);
  for (let i = 0; i < 19; i++) bits.put(5, 3);
  const codes = canonical(new Array(19).fill(5));
  for (const s of symbols) {
    const [symbol, extra] = typeof s === 'number' ? [s, 0] : s;
    bits.code(codes[symbol]!, 5);
    if (symbol >= 16) bits.put(extra, [2, 3, 7][symbol - 16]!);
  }
  return bits;
}

/** A whole dynamic block: its code lengths sent one by one, then `body` written with its codes. */
function dynamicBlock(bits: Bits, last: boolean, lit: number[], dist: number[], body: (lit: (s: number) => void, dist: (d: number) => void) => void): Bits {
  dynamicHeader(bits.put(last ? 1 : 0, 1).put(2, 2), lit.length, dist.length, [...lit, ...dist]);
  const litCodes = canonical(lit);
  const distCodes = canonical(dist);
  body(
    (s) => bits.code(litCodes[s]!, lit[s]!),
    (d) => bits.code(distCodes[d]!, dist[d]!),
  );
  return bits;
}

/** 257 literal/length code lengths: `len` bits for each symbol named, 0 for the rest. */
function litLengths(entries: Record<number, number>, n = 257): number[] {
  const lengths = new Array<number>(n).fill(0);
  for (const [s, l] of Object.entries(entries)) lengths[Number(s)] = l;
  return lengths;
}

describe('inflating hand-written streams', () => {
  const text = (s: string) => new TextEncoder().encode(s);

  it('a fixed block whose end-of-block code is cut off is damaged, not padded with zeros', () => {
    // 3 header bits, 'A' (8 bits), end of block (7 zero bits): 18 bits, the last byte holds only zeros.
    const whole = fixedSymbol(fixedSymbol(new Bits().put(1, 1).put(1, 2), 0x41), 256).zlib();
    expect(unzlib(whole, new Uint8Array(5))).toEqual(text('A'));
    expect(() => unzlib(whole.subarray(0, whole.length - 1), new Uint8Array(5))).toThrow(new DamagedData('the data ends inside a block'));
  });

  it('reads stored, fixed and dynamic blocks one after another until the last', () => {
    const bits = new Bits().put(0, 1).put(0, 2).raw(3, 0, 0xfc, 0xff, 0x61, 0x62, 0x63); // stored "abc", not last
    fixedSymbol(fixedSymbol(bits.put(0, 1).put(1, 2), 0x64), 256); // fixed "d", not last
    dynamicBlock(bits, true, litLengths({ 0x65: 2, 0x66: 2, 256: 2 }), [1], (lit) => {
      lit(0x65);
      lit(0x66);
      lit(0x65);
      lit(256);
    });
    fixedSymbol(fixedSymbol(bits.put(1, 1).put(1, 2), 0x67), 256); // after the last block: not read
    expect(new TextDecoder().decode(unzlib(bits.zlib(), new Uint8Array(20)))).toBe('abcdefe');
  });

  it('a stored block: its length check, its data cut short, its data past the buffer', () => {
    const stored = (...bytes: number[]) => new Bits().put(1, 1).put(0, 2).raw(...bytes).zlib();
    expect(unzlib(stored(2, 0, 0xfd, 0xff, 7, 8), new Uint8Array(4))).toEqual(Uint8Array.of(7, 8));
    expect(unzlib(stored(0, 0, 0xff, 0xff), new Uint8Array(4))).toEqual(new Uint8Array(0));
    expect(() => unzlib(stored(2, 0, 0xfd, 0xfe, 7, 8), new Uint8Array(4))).toThrow(new DamagedData('a stored block with a wrong length check'));
    expect(() => unzlib(stored(2, 0, 0xfc, 0xff, 7, 8), new Uint8Array(4))).toThrow(new DamagedData('a stored block with a wrong length check'));
    expect(() => unzlib(stored(2, 0, 0xfd), new Uint8Array(4))).toThrow(new DamagedData('the data ends inside a block'));
    expect(() => unzlib(stored(3, 0, 0xfc, 0xff, 7, 8), new Uint8Array(4))).toThrow(new DamagedData('the data ends inside a block'));
    // The block holds more than the buffer: the buffer is filled and the rest is not read.
    expect(unzlib(stored(4, 0, 0xfb, 0xff, 1, 2, 3, 4), new Uint8Array(3))).toEqual(Uint8Array.of(1, 2, 3));
    // The same after a first block of one byte: only what is left of the buffer is taken.
    const two = new Bits().put(0, 1).put(0, 2).raw(1, 0, 0xfe, 0xff, 9).put(1, 1).put(0, 2).raw(4, 0, 0xfb, 0xff, 1, 2, 3, 4).zlib();
    expect(unzlib(two, new Uint8Array(3))).toEqual(Uint8Array.of(9, 1, 2));
  });

  it('a stored block after a Huffman block starts at the next whole byte', () => {
    // Fixed "x" (3 + 8 + 7 bits), then a stored block's 3 header bits in the same byte, then its length.
    const bits = fixedSymbol(fixedSymbol(new Bits().put(0, 1).put(1, 2), 0x78), 256).put(1, 1).put(0, 2).raw(1, 0, 0xfe, 0xff, 0x79);
    expect(new TextDecoder().decode(unzlib(bits.zlib(), new Uint8Array(5)))).toBe('xy');
  });

  it('fixed codes: literals of 8 and 9 bits, lengths and distances with extra bits, and their limits', () => {
    const fixed = (write: (b: Bits) => Bits) => write(new Bits().put(1, 1).put(1, 2)).zlib();
    // 'a', 0xff, then length 10 (symbol 264) at distance 2 (code 1), end of block.
    const stream = fixed((b) => fixedSymbol(fixedSymbol(fixedSymbol(fixedSymbol(b, 0x61), 0xff), 264).code(1, 5), 256));
    expect(Array.from(unzlib(stream, new Uint8Array(20)))).toEqual([0x61, 0xff, ...Array(5).fill([0x61, 0xff]).flat()]);
    // Length 258 (symbol 285, no extra bits), distance 1.
    expect(unzlib(fixed((b) => fixedSymbol(fixedSymbol(fixedSymbol(b, 9), 285).code(0, 5), 256)), new Uint8Array(300))).toEqual(new Uint8Array(259).fill(9));
    // Length 13 + 1 (symbol 266, 1 extra bit), distance 5 + 1 (code 4, 1 extra bit).
    const symbols = [1, 2, 3, 4, 5, 6];
    const far = fixed((b) => {
      for (const s of symbols) fixedSymbol(b, s);
      return fixedSymbol(fixedSymbol(b, 266).put(1, 1).code(4, 5).put(1, 1), 256);
    });
    expect(Array.from(unzlib(far, new Uint8Array(40)))).toEqual([...symbols, ...Array.from({ length: 14 }, (_, i) => symbols[i % 6]!)]);
    expect(() => unzlib(fixed((b) => fixedSymbol(b, 286)), new Uint8Array(4))).toThrow(new DamagedData('bad length code'));
    expect(() => unzlib(fixed((b) => fixedSymbol(b, 287)), new Uint8Array(4))).toThrow(new DamagedData('bad length code'));
    // The fixed distance code has 30 symbols: 11110 and 11111 begin no code.
    expect(() => unzlib(fixed((b) => fixedSymbol(fixedSymbol(b, 1), 257).code(30, 5).put(0, 10)), new Uint8Array(9))).toThrow(new DamagedData('no such Huffman code'));
    expect(() => unzlib(fixed((b) => fixedSymbol(fixedSymbol(b, 1), 257).code(31, 5).put(0, 10)), new Uint8Array(9))).toThrow(new DamagedData('no such Huffman code'));
    // Distance 2 with one byte written; distance 1 with none.
    expect(() => unzlib(fixed((b) => fixedSymbol(fixedSymbol(b, 1), 257).code(1, 5)), new Uint8Array(9))).toThrow(new DamagedData('a distance back past the start'));
    expect(() => unzlib(fixed((b) => fixedSymbol(b, 257).code(0, 5)), new Uint8Array(9))).toThrow(new DamagedData('a distance back past the start'));
    expect(unzlib(fixed((b) => fixedSymbol(fixedSymbol(fixedSymbol(b, 1), 257).code(0, 5), 256)), new Uint8Array(9))).toEqual(Uint8Array.of(1, 1, 1, 1));
  });

  it('dynamic code lengths: repeats of the last length or of zeros, and what is damage', () => {
    const block = (nlen: number, ndist: number, symbols: Array<number | [number, number]>) => dynamicHeader(new Bits().put(1, 1).put(2, 2), nlen, ndist, symbols);
    // 'a' and end of block with 1-bit codes (0 and 1), no distance codes: 97 zeros, 1, 158 zeros, 1,
    // then the three distance lengths as one repeat that ends exactly at the last length.
    const zeros = (n: number): Array<[number, number]> => (n >= 11 ? [[18, n - 11]] : [[17, n - 3]]);
    const ok = block(257, 3, [...zeros(97), 1, [18, 127], [18, 9], 1, [17, 0]]).code(0, 1).code(0, 1).code(1, 1).zlib();
    expect(unzlib(ok, new Uint8Array(9))).toEqual(Uint8Array.of(0x61, 0x61));
    // 16 repeats the length before it: 'a' … 'd' and end of block with 3 bits (000 … 100).
    const repeat = block(257, 1, [...zeros(97), 3, [16, 0], [18, 127], [18, 6], 3, 1]).code(0, 3).code(1, 3).code(2, 3).code(3, 3).code(4, 3).zlib();
    expect(new TextDecoder().decode(unzlib(repeat, new Uint8Array(9)))).toBe('abcd');
    expect(() => unzlib(block(257, 1, [[16, 0]]).zlib(), new Uint8Array(4))).toThrow(new DamagedData('a repeat with nothing before it'));
    expect(() => unzlib(block(257, 1, [[18, 127], [18, 127], [18, 12]]).zlib(), new Uint8Array(4))).toThrow(new DamagedData('code lengths past the end'));
    expect(() => unzlib(block(257, 1, [[18, 127], [18, 108], [16, 0]]).zlib(), new Uint8Array(4))).toThrow(new DamagedData('code lengths past the end'));
    expect(() => unzlib(block(257, 1, [1, [18, 127], [18, 107], 1]).zlib(), new Uint8Array(4))).toThrow(new DamagedData('no end-of-block code'));
    expect(() => unzlib(block(257, 1, [1, 1, 1, [18, 127], [18, 104], 1, 1]).zlib(), new Uint8Array(4))).toThrow(new DamagedData('over-subscribed Huffman code'));
    expect(() => unzlib(block(258, 1, []).zlib(), new Uint8Array(4))).toThrow(new DamagedData('the data ends inside a block'));
    expect(() => unzlib(new Bits().put(1, 1).put(2, 2).put(287 - 257, 5).put(0, 5).put(0, 4).zlib(), new Uint8Array(4))).toThrow(new DamagedData('too many codes'));
    expect(() => unzlib(new Bits().put(1, 1).put(2, 2).put(286 - 257, 5).put(30, 5).put(0, 4).zlib(), new Uint8Array(4))).toThrow(new DamagedData('too many codes'));
    // An incomplete code: 'a' and end of block are 00 and 01; 1… is no code at all.
    const incomplete = block(257, 1, [...zeros(97), 2, [18, 127], [18, 9], 2, 1]).code(0, 2).put(0xffff, 15).zlib();
    expect(() => unzlib(incomplete, new Uint8Array(9))).toThrow(new DamagedData('no such Huffman code'));
    // The same with the stream ending right after those 15 bits: no 16th bit is read.
    const exact = [0, 1, 2, 3].map((n) => {
      const bits = block(257, 1, [...zeros(97), 2, [18, 127], [18, 9], 2, 1]);
      for (let i = 0; i < n; i++) bits.code(0, 2);
      return bits.put(0xffff, 15);
    }).find((bits) => bits.size % 8 === 0);
    expect(exact).toBeDefined();
    expect(() => unzlib(exact!.zlib(), new Uint8Array(9))).toThrow(new DamagedData('no such Huffman code'));
  });

  it('the most codes a dynamic block may have: 286 literal/length and 30 distance codes', () => {
    const lengths = litLengths({ 0x61: 1, 256: 1 }, 286);
    const dist = new Array<number>(30).fill(0);
    dist[29] = 1;
    const stream = dynamicBlock(new Bits(), true, lengths, dist, (lit) => {
      lit(0x61);
      lit(256);
    }).zlib();
    expect(unzlib(stream, new Uint8Array(4))).toEqual(Uint8Array.of(0x61));
  });

  it('the zlib header: two bytes, method 8, a multiple of 31, no preset dictionary', () => {
    // 0xf8 alone would pass the method and check tests with its flags byte missing.
    expect(() => unzlib(Uint8Array.of(0xf8), new Uint8Array(4))).toThrow(new DamagedData('not a zlib stream'));
    expect(() => unzlib(new Uint8Array(0), new Uint8Array(4))).toThrow(new DamagedData('not a zlib stream'));
    // 0x78bb: method 8, 0x78bb % 31 = 0, FDICT set.
    expect(() => unzlib(Uint8Array.of(0x78, 0xbb, 0, 0, 0, 0, 3, 0), new Uint8Array(4))).toThrow(new DamagedData('not a zlib stream'));
    expect(() => unzlib(Uint8Array.of(0x78, 0x9d, 3, 0), new Uint8Array(4))).toThrow(new DamagedData('not a zlib stream'));
    expect(() => unzlib(Uint8Array.of(0x79, 0x9c, 3, 0), new Uint8Array(4))).toThrow(new DamagedData('not a zlib stream'));
    // 0x7709: method 7, though 0x7709 % 31 = 0 and FDICT is clear.
    expect(() => unzlib(Uint8Array.of(0x77, 0x09, 3, 0), new Uint8Array(4))).toThrow(new DamagedData('not a zlib stream'));
    expect(unzlib(Uint8Array.of(0x78, 0x9c, 3, 0), new Uint8Array(4))).toEqual(new Uint8Array(0));
  });

  it('once the buffer is full, the rest of the stream is not read, damaged or not', () => {
    // A stored block (not last) that fills the buffer, then a block of type 3.
    const stored = new Bits().put(0, 1).put(0, 2).raw(2, 0, 0xfd, 0xff, 5, 6).put(1, 1).put(3, 2).zlib();
    expect(unzlib(stored, new Uint8Array(2))).toEqual(Uint8Array.of(5, 6));
    // Literals that fill it, then a length code fixed blocks do not have.
    const literals = fixedSymbol(fixedSymbol(fixedSymbol(new Bits().put(1, 1).put(1, 2), 0x41), 0x42), 286).zlib();
    expect(unzlib(literals, new Uint8Array(2))).toEqual(Uint8Array.of(0x41, 0x42));
    // A copy that fills it (and would run past it), then the same.
    const copy = fixedSymbol(fixedSymbol(fixedSymbol(new Bits().put(1, 1).put(1, 2), 0x41), 258).code(0, 5), 286).zlib();
    expect(unzlib(copy, new Uint8Array(3))).toEqual(Uint8Array.of(0x41, 0x41, 0x41));
    expect(unzlib(copy, new Uint8Array(5))).toEqual(Uint8Array.of(0x41, 0x41, 0x41, 0x41, 0x41));
  });
});
