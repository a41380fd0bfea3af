// PNG → grey levels on white: every colour type and bit depth, palettes and tRNS, Adam7
// interlacing; transparent pixels come out white. Inflating is tiny-inflate's (inflate.ts); the
// chunks, filters and pixel formats are read here: fast-png, the smallest PNG library found, is
// 7.9 KB gzip in a browser bundle, this and tiny-inflate about 3 KB, and fast-png's fflate builds
// its tables at import (see inflate.ts).
import { DamagedData, unzlib } from './inflate.js';

/** An image as grey levels: 0 black … 255 white, row-major, alpha already laid on white. */
export interface Grey {
  width: number;
  height: number;
  grey: Uint8Array;
}

interface Header {
  width: number;
  height: number;
  depth: number;
  colour: number;
  interlace: number;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Channels per colour type (0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA) and the bit depths each allows. */
const COLOUR: Readonly<Record<number, { channels: number; depths: readonly number[] }>> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};
/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2],
] as const;

class Unreadable extends Error {}
const fail = (why: string): never => {
  throw new Unreadable(why);
};

const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

function header(bytes: Uint8Array): Header {
  if (bytes.length < 33 || SIGNATURE.some((b, i) => bytes[i] !== b)) fail('not a PNG file (no PNG signature)');
  if (u32(bytes, 12) !== 0x49484452) fail('no IHDR chunk first');
  const h = { width: u32(bytes, 16), height: u32(bytes, 20), depth: bytes[24]!, colour: bytes[25]!, interlace: bytes[28]! };
  if (h.width === 0 || h.height === 0 || h.width > 0x7fffffff || h.height > 0x7fffffff) fail(`bad size ${h.width}×${h.height}`);
  if (!COLOUR[h.colour]?.depths.includes(h.depth)) fail(`colour type ${h.colour} with bit depth ${h.depth} is not a PNG format`);
  if (bytes[26] !== 0 || bytes[27] !== 0 || h.interlace > 1) fail('unknown compression, filter or interlace method');
  return h;
}

/** The image's size from its header, without decoding it (for the limits), or why it is no PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | { error: string } {
  try {
    const { width, height } = header(bytes);
    return { width, height };
  } catch (error) {
    if (error instanceof Unreadable) return { error: error.message };
    throw error;
  }
}

/**
 * Decodes a PNG of at most `maxPixels` pixels, or says why it cannot (a damaged or unsupported
 * file, or one past the size: never a throw). The size is checked from the header, before any
 * memory is taken for the pixels.
 */
export function decodePng(bytes: Uint8Array, maxPixels: number): Grey | { error: string } {
  try {
    return decode(bytes, maxPixels);
  } catch (error) {
    if (error instanceof Unreadable) return { error: error.message };
    // A damaged zlib stream is the file's fault too.
    if (error instanceof DamagedData) return { error: `damaged image data (${error.message})` };
    // A size within maxPixels (Infinity allows any) whose buffers this process cannot allocate.
    if (error instanceof RangeError) return { error: `too large to decode here (${error.message})` };
    throw error;
  }
}

function decode(bytes: Uint8Array, maxPixels: number): Grey {
  const h = header(bytes);
  if (h.width * h.height > maxPixels) fail(`${h.width}×${h.height} pixels is more than ${maxPixels}`);
  let palette: Uint8Array | undefined;
  let trns: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  let idatLength = 0;
  for (let at = 8; ; ) {
    if (at + 12 > bytes.length) fail('the file ends before its IEND chunk');
    const length = u32(bytes, at);
    const type = u32(bytes, at + 4);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (at + 12 + length > bytes.length) fail('the file ends inside a chunk');
    if (type === 0x504c5445) palette = data; // PLTE
    else if (type === 0x74524e53) trns = data; // tRNS
    else if (type === 0x49444154) {
      idat.push(data); // IDAT
      idatLength += length;
    } else if (type === 0x49454e44) break; // IEND
    at += 12 + length;
  }
  if (h.colour === 3 && !palette) fail('a palette image without its PLTE chunk');
  const { channels } = COLOUR[h.colour]!;
  const bitsPerPixel = channels * h.depth;
  const passes = h.interlace ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const sizes = passes.map(([x0, y0, dx, dy]) => [Math.ceil((h.width - x0) / dx), Math.ceil((h.height - y0) / dy)] as const);
  let expected = 0;
  // An empty pass has no scanlines, not even filter bytes. (rows is never below 0: y0 < dy.)
  for (const [w, rows] of sizes) if (w > 0) expected += rows * (1 + Math.ceil((w * bitsPerPixel) / 8));
  const zipped = new Uint8Array(idatLength);
  let k = 0;
  for (const chunk of idat) {
    zipped.set(chunk, k);
    k += chunk.length;
  }
  // Inflated into a buffer of exactly the size the header promises: more data is dropped, not kept.
  const raw = unzlib(zipped, new Uint8Array(expected));
  if (raw.length < expected) fail('image data shorter than its size says');
  const grey = new Uint8Array(h.width * h.height);
  const pixel = pixelReader(h, palette, trns);
  const bpp = Math.max(1, bitsPerPixel >> 3);
  let offset = 0;
  passes.forEach(([x0, y0, dx, dy], p) => {
    const [w, rows] = sizes[p]!;
    if (w <= 0) return;
    const rowBytes = Math.ceil((w * bitsPerPixel) / 8);
    let prev: Uint8Array = new Uint8Array(rowBytes);
    for (let r = 0; r < rows; r++) {
      const line = unfilter(raw[offset]!, raw.subarray(offset + 1, offset + 1 + rowBytes), prev, bpp);
      offset += 1 + rowBytes;
      const y = y0 + r * dy;
      for (let i = 0; i < w; i++) grey[y * h.width + x0 + i * dx] = pixel(line, i);
      prev = line;
    }
  });
  return { width: h.width, height: h.height, grey };
}

/** Undoes one scanline's filter (None, Sub, Up, Average, Paeth) into a new row. */
function unfilter(filter: number, line: Uint8Array, prev: Uint8Array, bpp: number): Uint8Array {
  const out = new Uint8Array(line.length);
  for (let i = 0; i < line.length; i++) {
    const a = i >= bpp ? out[i - bpp]! : 0;
    const b = prev[i]!;
    let predicted: number;
    if (filter === 0) predicted = 0;
    else if (filter === 1) predicted = a;
    else if (filter === 2) predicted = b;
    else if (filter === 3) predicted = (a + b) >> 1;
    else if (filter === 4) {
      const c = i >= bpp ? prev[i - bpp]! : 0;
      const pa = Math.abs(b - c);
      const pb = Math.abs(a - c);
      const pc = Math.abs(a + b - 2 * c);
      predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    } else return fail(`unknown scanline filter ${filter}`);
    out[i] = (line[i]! + predicted) & 0xff;
  }
  return out;
}

/** Pixel i of an unfiltered row → grey on white (luma 0.299 R + 0.587 G + 0.114 B, then alpha). */
function pixelReader(h: Header, palette: Uint8Array | undefined, trns: Uint8Array | undefined): (line: Uint8Array, i: number) => number {
  const { channels } = COLOUR[h.colour]!;
  const depth = h.depth;
  const max = (1 << depth) - 1;
  /** Sample c of pixel i, at its own depth. */
  const sample = (line: Uint8Array, i: number, c: number): number => {
    const n = i * channels + c;
    if (depth === 8) return line[n]!;
    if (depth === 16) return (line[2 * n]! << 8) | line[2 * n + 1]!;
    const bit = n * depth;
    return (line[bit >> 3]! >> (8 - depth - (bit & 7))) & max;
  };
  const to8 = (v: number) => (depth === 8 ? v : Math.round((v * 255) / max));
  const onWhite = (luma: number, alpha: number) => Math.round(255 - (alpha * (255 - luma)) / 255);
  const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;
  const key = (at: number) => (trns && trns.length >= at + 2 ? (trns[at]! << 8) | trns[at + 1]! : -1);
  switch (h.colour) {
    case 0: {
      const transparent = key(0);
      return (line, i) => {
        const v = sample(line, i, 0);
        return v === transparent ? 255 : to8(v);
      };
    }
    case 2: {
      const [tr, tg, tb] = [key(0), key(2), key(4)];
      return (line, i) => {
        const r = sample(line, i, 0);
        const g = sample(line, i, 1);
        const b = sample(line, i, 2);
        return r === tr && g === tg && b === tb ? 255 : Math.round(luma(to8(r), to8(g), to8(b)));
      };
    }
    case 3: {
      const entries = palette!.length / 3;
      return (line, i) => {
        const index = sample(line, i, 0);
        if (index >= entries) return fail(`palette index ${index} past the ${entries} colours of PLTE`);
        const alpha = trns && index < trns.length ? trns[index]! : 255;
        return onWhite(luma(palette![3 * index]!, palette![3 * index + 1]!, palette![3 * index + 2]!), alpha);
      };
    }
    case 4:
      return (line, i) => onWhite(to8(sample(line, i, 0)), to8(sample(line, i, 1)));
    default:
      return (line, i) => onWhite(luma(to8(sample(line, i, 0)), to8(sample(line, i, 1)), to8(sample(line, i, 2))), to8(sample(line, i, 3)));
  }
}
