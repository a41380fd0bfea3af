// A native QR command's payload redrawn as the symbol the printer would print, from the qrcode
// package's module matrix (the same core module lowering uses for raster QR codes).
import QRCode from '../lower/qrcode-core.js';
import type { Bitmap } from '../lower/ir.js';
import type { Ecc } from './types.js';

/** The symbol for `data` at `moduleSize` dots per module, or undefined when it cannot be a QR code. */
export function qrBitmap(data: Uint8Array, ecc: Ecc, moduleSize: number): Bitmap | undefined {
  let modules;
  try {
    modules = QRCode.create([{ data, mode: 'byte' }], { errorCorrectionLevel: ecc }).modules;
  } catch {
    return undefined;
  }
  const scale = Math.max(1, Math.min(16, Math.round(moduleSize)));
  const width = modules.size * scale;
  const bytesPerRow = Math.ceil(width / 8);
  const bits = new Uint8Array(bytesPerRow * width);
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      if (modules.get(Math.floor(y / scale), Math.floor(x / scale))) bits[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { width, height: width, bytesPerRow, bits };
}
