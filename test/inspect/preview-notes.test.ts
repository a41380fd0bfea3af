// The notes beside the paper (cuts, feeds, drawer pulses, native QR) fit inside the preview: the
// gutter grows with the longest note, so the PNG's right margin is only background.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { compile, renderPng } from '../../src/index.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', name), 'utf8');

/** Pixels in the rightmost `columns` columns darker than the #eee background. */
function inkAtRightEdge(png: Uint8Array, columns: number): number {
  const image = PNG.sync.read(Buffer.from(png));
  let ink = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = image.width - columns; x < image.width; x++) {
      if (image.data[(y * image.width + x) * 4]! < 200) ink++;
    }
  }
  return ink;
}

describe('preview notes', () => {
  it.each([
    ['edge-cases.txt', 'MAKER1MP4200', 'a drawer pulse with its timing and a native QR note'],
    ['nfce.txt', 'MAKER4I9', 'the native QR note of a 53×53 symbol'],
    ['kitchen.txt', 'MAKER4I9', 'a drawer pulse note'],
  ])('fit inside the PNG for %s on %s (%s)', (file, printer, _what) => {
    const png = renderPng(compile(fixture(file), { printer }).bytes, { printer });
    expect(inkAtRightEdge(png, 12)).toBe(0);
  });
});
