// A symbol's bars as a 1-bit image: each element a whole number of dots (`module` for a module or
// a narrow element, `wide` dots for a wide one), a quiet zone each side, `height` rows.
import type { Bitmap } from '../ir.js';
import type { BarSymbol } from './symbol.js';

/**
 * Wide elements of two-width symbologies, in narrow elements (2–3 is the standards' range): 2.5,
 * as Epson's GS w table draws them, so a raster symbol is as wide as the printer's own.
 */
export const WIDE_RATIO = 2.5;

/** The dots of a wide element at `module` dots per narrow one. */
export const wideDots = (module: number) => Math.round(WIDE_RATIO * module);

/** The dots of one element `w` (modules, or 1 narrow / 2 wide) at `module` dots per module. */
const dotsOf = (symbol: BarSymbol, w: number, module: number, wide: number) => (symbol.wide ? (w === 2 ? wide : module) : w * module);

/** The bars' width in dots, quiet zones left out. */
export function barsWidth(symbol: BarSymbol, module: number, wide = wideDots(module)): number {
  let width = 0;
  for (const w of symbol.widths) width += dotsOf(symbol, w, module, wide);
  return width;
}

/** The whole symbol, `quiet` dots each side (by default the symbology's quiet zone), `height` dots tall. */
export function barsBitmap(symbol: BarSymbol, module: number, height: number, quiet = symbol.quiet * module): Bitmap {
  const wide = wideDots(module);
  const width = barsWidth(symbol, module, wide) + 2 * quiet;
  const bytesPerRow = (width + 7) >> 3;
  const row = new Uint8Array(bytesPerRow);
  let x = quiet;
  symbol.widths.forEach((w, i) => {
    const dots = dotsOf(symbol, w, module, wide);
    if (i % 2 === 0) for (let dot = x; dot < x + dots; dot++) row[dot >> 3]! |= 0x80 >> (dot & 7);
    x += dots;
  });
  const bits = new Uint8Array(bytesPerRow * height);
  for (let y = 0; y < height; y++) bits.set(row, y * bytesPerRow);
  return { width, height, bytesPerRow, bits };
}
