// zlib (RFC 1950) and DEFLATE (RFC 1951) decoding for PNG image data, into a buffer of the size
// the image's header promises: decoding stops when it is full, so no stream makes it grow, and
// reading past the end of the data is an error, never a loop. Canonical Huffman codes are decoded
// bit by bit from their counts per length; the fixed codes are built on the first use.
//
// Written here rather than taken from npm, measured: fflate (fast-png's inflater) builds its
// tables when imported, about 46 M instructions at every start-up, more than half of bobina's
// own, and lazily `require`d it brings its whole 12.5 KB gzip into a browser bundle; tiny-inflate
// loops forever on some damaged streams (it reads zeros past the end of its input).

import { lazy } from '../../caches.js';

/** Why a zlib stream cannot be read. */
export class DamagedData extends Error {}

const damaged = (why: string): never => {
  throw new DamagedData(why);
};

interface Huffman {
  /** Codes per length 0–15. */
  counts: Uint16Array;
  /** Symbols in code order. */
  symbols: Uint16Array;
}

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order code-length code lengths are sent in (RFC 1951 §3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** The canonical code of `lengths` (0: symbol unused); over-subscribed lengths are damage. */
function huffman(lengths: ArrayLike<number>): Huffman {
  const counts = new Uint16Array(16);
  for (let i = 0; i < lengths.length; i++) counts[lengths[i]!]!++;
  counts[0] = 0;
  let left = 1;
  for (let len = 1; len < 16; len++) {
    left = (left << 1) - counts[len]!;
    if (left < 0) damaged('over-subscribed Huffman code');
  }
  const offsets = new Uint16Array(16);
  for (let len = 1; len < 15; len++) offsets[len + 1] = offsets[len]! + counts[len]!;
  const symbols = new Uint16Array(lengths.length);
  for (let i = 0; i < lengths.length; i++) if (lengths[i]) symbols[offsets[lengths[i]!]!++] = i;
  return { counts, symbols };
}

// Made by src/caches.ts, so that clearCaches() (run before each test under mutation testing) builds
// them again.
const fixedCodes = lazy((): { lengths: Huffman; distances: Huffman } => {
  const lengths = new Uint8Array(288);
  lengths.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
  return { lengths: huffman(lengths), distances: huffman(new Uint8Array(30).fill(5)) };
});

class Reader {
  at = 0;
  private buffer = 0;
  private count = 0;
  constructor(readonly data: Uint8Array) {}

  bits(n: number): number {
    while (this.count < n) {
      if (this.at >= this.data.length) damaged('the data ends inside a block');
      this.buffer |= this.data[this.at++]! << this.count;
      this.count += 8;
    }
    const v = this.buffer & ((1 << n) - 1);
    this.buffer >>>= n;
    this.count -= n;
    return v;
  }

  /** Drops the bits left in the current byte (before a stored block). */
  align(): void {
    this.buffer = 0;
    this.count = 0;
  }

  decode(h: Huffman): number {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      code |= this.bits(1);
      const count = h.counts[len]!;
      if (code - first < count) return h.symbols[index + code - first]!;
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    return damaged('no such Huffman code');
  }
}

function dynamicCodes(r: Reader): { lengths: Huffman; distances: Huffman } {
  const nlen = r.bits(5) + 257;
  const ndist = r.bits(5) + 1;
  const ncode = r.bits(4) + 4;
  if (nlen > 286 || ndist > 30) damaged('too many codes');
  const codeLengths = new Uint8Array(19);
  for (let i = 0; i < ncode; i++) codeLengths[CODE_LENGTH_ORDER[i]!] = r.bits(3);
  const code = huffman(codeLengths);
  const lengths = new Uint8Array(nlen + ndist);
  for (let i = 0; i < lengths.length; ) {
    const symbol = r.decode(code);
    if (symbol < 16) {
      lengths[i++] = symbol;
      continue;
    }
    const [value, repeat] = symbol === 16 ? [i > 0 ? lengths[i - 1]! : damaged('a repeat with nothing before it'), 3 + r.bits(2)] : symbol === 17 ? [0, 3 + r.bits(3)] : [0, 11 + r.bits(7)];
    if (i + repeat > lengths.length) damaged('code lengths past the end');
    lengths.fill(value, i, i + repeat);
    i += repeat;
  }
  if (!lengths[256]) damaged('no end-of-block code');
  return { lengths: huffman(lengths.subarray(0, nlen)), distances: huffman(lengths.subarray(nlen)) };
}

/**
 * The data of a zlib stream, inflated into `dest`; shorter if the stream holds less. Decoding
 * stops once `dest` is full (the rest of the stream is not needed, nor read).
 */
export function unzlib(zlib: Uint8Array, dest: Uint8Array): Uint8Array {
  const cmf = zlib[0]!;
  const flags = zlib[1]!;
  if (zlib.length < 2 || (cmf & 0x0f) !== 8 || ((cmf << 8) | flags) % 31 !== 0 || flags & 0x20) damaged('not a zlib stream');
  const r = new Reader(zlib.subarray(2));
  let out = 0;
  for (let last = 0; !last && out < dest.length; ) {
    last = r.bits(1);
    const type = r.bits(2);
    if (type === 0) {
      r.align();
      const at = r.at;
      const data = r.data;
      if (at + 4 > data.length) damaged('the data ends inside a block');
      const length = data[at]! | (data[at + 1]! << 8);
      if ((length ^ 0xffff) !== (data[at + 2]! | (data[at + 3]! << 8))) damaged('a stored block with a wrong length check');
      if (at + 4 + length > data.length) damaged('the data ends inside a block');
      const n = Math.min(length, dest.length - out);
      dest.set(data.subarray(at + 4, at + 4 + n), out);
      out += n;
      r.at = at + 4 + length;
      continue;
    }
    if (type === 3) damaged('block type 3');
    const codes = type === 1 ? fixedCodes() : dynamicCodes(r);
    for (;;) {
      const symbol = r.decode(codes.lengths);
      if (symbol < 256) {
        dest[out++] = symbol;
        if (out === dest.length) break;
        continue;
      }
      if (symbol === 256) break;
      const k = symbol - 257;
      if (k >= 29) damaged('bad length code');
      const length = LENGTH_BASE[k]! + r.bits(LENGTH_EXTRA[k]!);
      // Below 30: a distance code has at most 30 symbols (ndist ≤ 30 is checked; the fixed one has 30).
      const d = r.decode(codes.distances);
      const distance = DISTANCE_BASE[d]! + r.bits(DISTANCE_EXTRA[d]!);
      if (distance > out) damaged('a distance back past the start');
      const end = Math.min(dest.length, out + length);
      for (; out < end; out++) dest[out] = dest[out - distance]!;
      if (out === dest.length) break;
    }
  }
  return out === dest.length ? dest : dest.subarray(0, out);
}
