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

/** A method's neighbours as flat arrays (read per dot without unpacking a tuple), made once. */
const FLAT = Object.fromEntries(
  Object.entries(DIFFUSION).map(([method, spread]) => [
    method,
    { dx: Int32Array.from(spread, (s) => s[0]), dy: Int32Array.from(spread, (s) => s[1]), w: Float64Array.from(spread, (s) => s[2]) },
  ]),
) as Readonly<Record<Dither, { dx: Int32Array; dy: Int32Array; w: Float64Array }>>;

export function dither(image: Levels, method: Dither): Bitmap {
  const { width, height } = image;
  const levels = image.levels.slice();
  const bytesPerRow = (width + 7) >> 3;
  const bits = new Uint8Array(bytesPerRow * height);
  const { dx, dy, w } = FLAT[method];
  const n = w.length;
  // Where each neighbour is from the dot (an index step), and how far the method reaches left,
  // right and down: a dot that far from the edges has every neighbour on the image.
  const step = new Int32Array(n);
  let left = 0;
  let right = 0;
  let down = 0;
  for (let k = 0; k < n; k++) {
    step[k] = dy[k]! * width + dx[k]!;
    // Stryker disable next-line UnaryOperator: `dx` for `-dx` makes `left` the reach to the right, which in both tables is at least the reach to the left: only more dots take the checked path, which gives the same levels
    left = Math.max(left, -dx[k]!);
    right = Math.max(right, dx[k]!);
    // Stryker disable next-line MethodExpression: `down` only gates the unchecked path, and any index it then takes past the last row is past the image's levels, where a typed array drops the write (or into entries never read), as the checked path drops it
    down = Math.max(down, dy[k]!);
  }
  for (let y = 0; y < height; y++) {
    const row = y * bytesPerRow;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: a neighbour below the last row has an index past the image's levels, where a typed array drops the write (or into entries never read), as the checked path drops it: whichever rows take the unchecked path, the levels read are the same
    const inner = y + down < height;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const v = levels[i]!;
      const black = v < 128;
      if (black) bits[row + (x >> 3)]! |= 0x80 >> (x & 7);
      if (n === 0) continue;
      const error = v - (black ? 0 : 255);
      // Each neighbour in the table's order, so every level sums its errors as before (same floats).
      if (inner && x >= left && x < width - right) {
        for (let k = 0; k < n; k++) levels[i + step[k]!]! += error * w[k]!;
      } else {
        for (let k = 0; k < n; k++) {
          const nx = x + dx[k]!;
          const ny = y + dy[k]!;
          if (nx >= 0 && nx < width && ny < height) levels[ny * width + nx]! += error * w[k]!;
        }
      }
    }
  }
  return { width, height, bytesPerRow, bits };
}
