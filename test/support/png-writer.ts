// A small PNG writer for the decoder's tests: any colour type and bit depth, a palette and tRNS,
// Adam7 interlacing, and every scanline filter (cycled row by row), so each path of the decoder
// meets real files. pngjs reads the same files back as the reference.
import { deflateSync } from 'node:zlib';

export interface PngSpec {
  width: number;
  height: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colour: 0 | 2 | 3 | 4 | 6;
  depth: 1 | 2 | 4 | 8 | 16;
  interlace?: boolean;
  palette?: number[][];
  trns?: number[];
  /** Samples of pixel (x, y), one per channel, at the file's depth (a palette index for colour 3). */
  samples: (x: number, y: number) => number[];
}

const CHANNELS = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as const;
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data and CRC. */
export function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)));
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const pa = Math.abs(b - c);
  const pb = Math.abs(a - c);
  const pc = Math.abs(a + b - 2 * c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function writePng(spec: PngSpec): Uint8Array {
  const channels = CHANNELS[spec.colour];
  const bits = channels * spec.depth;
  const bpp = Math.max(1, bits >> 3);
  const passes = spec.interlace ? ADAM7 : [[0, 0, 1, 1]];
  const raw: number[] = [];
  let rowIndex = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((spec.width - x0!) / dx!);
    const h = Math.ceil((spec.height - y0!) / dy!);
    if (w <= 0 || h <= 0) continue;
    const rowBytes = Math.ceil((w * bits) / 8);
    let prev = new Uint8Array(rowBytes);
    for (let r = 0; r < h; r++) {
      const line = new Uint8Array(rowBytes);
      for (let i = 0; i < w; i++) {
        spec.samples(x0! + i * dx!, y0! + r * dy!).forEach((v, c) => {
          const n = i * channels + c;
          if (spec.depth === 16) {
            line[2 * n] = v >> 8;
            line[2 * n + 1] = v & 0xff;
          } else if (spec.depth === 8) line[n] = v;
          else line[(n * spec.depth) >> 3]! |= v << (8 - spec.depth - ((n * spec.depth) & 7));
        });
      }
      const filter = rowIndex++ % 5;
      raw.push(filter);
      for (let i = 0; i < rowBytes; i++) {
        const a = i >= bpp ? line[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]!;
        raw.push((line[i]! - predicted) & 0xff);
      }
      prev = line;
    }
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, spec.width);
  view.setUint32(4, spec.height);
  ihdr.set([spec.depth, spec.colour, 0, 0, spec.interlace ? 1 : 0], 8);
  const parts = [Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), chunk('IHDR', ihdr)];
  if (spec.palette) parts.push(chunk('PLTE', Uint8Array.from(spec.palette.flat())));
  if (spec.trns) parts.push(chunk('tRNS', Uint8Array.from(spec.trns)));
  const zipped = deflateSync(Uint8Array.from(raw));
  // Split across two IDAT chunks: the decoder must join them.
  const half = zipped.length >> 1;
  parts.push(chunk('IDAT', zipped.subarray(0, half)), chunk('IDAT', zipped.subarray(half)), chunk('IEND', new Uint8Array(0)));
  return Buffer.concat(parts);
}
