// Grey levels → 1-bit dots: a fixed threshold, or error diffusion (Floyd–Steinberg, Atkinson),
// as a table of each method's neighbours and weights. Black is a dot.
import type { Bitmap } from '../ir.js';
import type { Levels } from './scale.js';

export type Dither = 'floyd-steinberg' | 'atkinson' | 'threshold';

/** Where each method sends a dot's error: [dx, dy, weight]. */
const DIFFUSION: Readonly<Record<Dither, ReadonlyArray<readonly [number, number, number]>>> = {
  'floyd-steinberg': [[1, 0, 7 / 16], [-1, 1, 3 / 16], [0, 1, 5 / 16], [1, 1, 1 / 16]],
  // Atkinson spreads only 6/8 of the error: light areas stay light, dark ones dark.
  atkinson: [[1, 0, 1 / 8], [2, 0, 1 / 8], [-1, 1, 1 / 8], [0, 1, 1 / 8], [1, 1, 1 / 8], [0, 2, 1 / 8]],
  threshold: [],
};

export function dither(image: Levels, method: Dither): Bitmap {
  const { width, height } = image;
  const levels = Float32Array.from(image.levels);
  const bytesPerRow = (width + 7) >> 3;
  const bits = new Uint8Array(bytesPerRow * height);
  const spread = DIFFUSION[method];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = levels[y * width + x]!;
      const black = v < 128;
      if (black) bits[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
      const error = v - (black ? 0 : 255);
      for (const [dx, dy, w] of spread) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx >= 0 && nx < width && ny < height) levels[ny * width + nx]! += error * w;
      }
    }
  }
  return { width, height, bytesPerRow, bits };
}
