// Rebuilds the raster images a job prints from its emitted bytes (GS v 0 bands or ESC * 24-dot
// bands), so tests check the bytes a printer gets, not the compiler's intermediate bitmap.
import type { EmitRecord } from '../../src/index.js';

export interface Image {
  width: number;
  height: number;
  /** 1 = black, row-major. */
  dots: Uint8Array;
}

export function rasterImages(bytes: Uint8Array, records: readonly EmitRecord[]): Image[] {
  const images: Image[] = [];
  let rows: Uint8Array[] = [];
  let width = 0;
  const flush = () => {
    if (!rows.length) return;
    const dots = new Uint8Array(width * rows.length);
    rows.forEach((row, y) => dots.set(row, y * width));
    images.push({ width, height: rows.length, dots });
    rows = [];
  };
  for (const r of records) {
    const chunk = bytes.subarray(r.offset, r.offset + r.length);
    if (r.op === 'raster') {
      const bytesPerRow = chunk[4]! + 256 * chunk[5]!;
      const height = chunk[6]! + 256 * chunk[7]!;
      width = bytesPerRow * 8;
      for (let y = 0; y < height; y++) {
        const row = new Uint8Array(width);
        for (let x = 0; x < width; x++) row[x] = (chunk[8 + y * bytesPerRow + (x >> 3)]! >> (7 - (x & 7))) & 1;
        rows.push(row);
      }
    } else if (r.op === 'band') {
      width = chunk[3]! + 256 * chunk[4]!;
      const band = Array.from({ length: 24 }, () => new Uint8Array(width));
      for (let x = 0; x < width; x++) {
        for (let slice = 0; slice < 3; slice++) {
          const v = chunk[5 + x * 3 + slice]!;
          for (let bit = 0; bit < 8; bit++) band[slice * 8 + bit]![x] = (v >> (7 - bit)) & 1;
        }
      }
      rows.push(...band);
    } else if (r.op !== 'bandSpacing' && r.op !== 'spacingReset') {
      flush();
    }
  }
  flush();
  return images;
}

/** RGBA pixels (black on white) with a white margin, as QR readers want them. */
export function toRgba(image: Image, margin = 16): { data: Uint8ClampedArray; width: number; height: number } {
  const width = image.width + 2 * margin;
  const height = image.height + 2 * margin;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (!image.dots[y * image.width + x]) continue;
      const i = ((y + margin) * width + x + margin) * 4;
      data[i] = data[i + 1] = data[i + 2] = 0;
    }
  }
  return { data, width, height };
}

/** A bitmap's dots row by row (1 = black), up to its width: what prints. */
export function bitmapDots(b: { width: number; height: number; bytesPerRow: number; bits: Uint8Array }): number[][] {
  return Array.from({ length: b.height }, (_, y) => Array.from({ length: b.width }, (_, x) => (b.bits[y * b.bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7)) ? 1 : 0)));
}
