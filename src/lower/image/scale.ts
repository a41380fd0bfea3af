// Scaling a grey image to a width in dots (the height keeps the aspect ratio): each output dot
// is the area-weighted mean of the source pixels it covers, so thin lines of a logo shrink into
// grey rather than vanish, and an enlarged image keeps hard edges.
import type { Grey } from './png.js';

export interface Levels {
  width: number;
  height: number;
  /** Grey levels 0 (black) … 255 (white), row-major, as floats for error diffusion. */
  levels: Float32Array;
}

/** For each output position along one axis: the source range it covers, as weights per source index. */
function spans(from: number, to: number): Array<{ start: number; weights: number[] }> {
  const ratio = from / to;
  const out: Array<{ start: number; weights: number[] }> = [];
  for (let i = 0; i < to; i++) {
    const a = i * ratio;
    const b = Math.min(from, (i + 1) * ratio);
    const start = Math.floor(a);
    const weights: number[] = [];
    for (let s = start; s < b; s++) weights.push((Math.min(b, s + 1) - Math.max(a, s)) / (b - a));
    out.push({ start, weights });
  }
  return out;
}

/** The image at `width` dots wide and the height that keeps its proportions (at least one row). */
export function scaleGrey(image: Grey, width: number): Levels {
  const height = Math.max(1, Math.round((image.height * width) / image.width));
  // At its own width (and so its own height) every weight is 1: the levels are the grey values as
  // they are (the same floats).
  if (width === image.width) return { width, height, levels: new Float32Array(image.grey) };
  const xs = spans(image.width, width);
  const ys = spans(image.height, height);
  // Rows first (each source row to `width` values), then columns.
  const rows = new Float32Array(image.height * width);
  for (let y = 0; y < image.height; y++) {
    const src = y * image.width;
    for (let x = 0; x < width; x++) {
      const { start, weights } = xs[x]!;
      let v = 0;
      for (let k = 0; k < weights.length; k++) v += weights[k]! * image.grey[src + start + k]!;
      rows[y * width + x] = v;
    }
  }
  const levels = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const { start, weights } = ys[y]!;
    for (let x = 0; x < width; x++) {
      let v = 0;
      for (let k = 0; k < weights.length; k++) v += weights[k]! * rows[(start + k) * width + x]!;
      levels[y * width + x] = v;
    }
  }
  return { width, height, levels };
}
