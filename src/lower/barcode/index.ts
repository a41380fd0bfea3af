// The symbologies of <barcode>, as a table: symbology → encoder (data check, check digit, bars).
import { encodeCodabar } from './codabar.js';
import { encodeCode128 } from './code128.js';
import { encodeCode39 } from './code39.js';
import { encodeEan13, encodeEan8, encodeUpcA } from './ean-upc.js';
import { encodeItf } from './itf.js';
import type { Encoded, Symbology } from './symbol.js';

export const ENCODERS: Readonly<Record<Symbology, (data: string) => Encoded>> = {
  ean13: encodeEan13,
  ean8: encodeEan8,
  upca: encodeUpcA,
  code39: encodeCode39,
  code128: encodeCode128,
  itf: encodeItf,
  codabar: encodeCodabar,
};

export { SYMBOLOGIES, SYMBOLOGY_NAMES, type BarSymbol, type Encoded, type Invalid, type Symbology } from './symbol.js';
export { barsBitmap, barsWidth, wideDots, WIDE_RATIO } from './bars.js';
