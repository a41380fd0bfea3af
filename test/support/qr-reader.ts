// jsQR, typed: its CommonJS default export needs unwrapping under NodeNext resolution.
import * as jsqrModule from 'jsqr';

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { binaryData: number[]; data: string } | null;
const mod = jsqrModule as unknown as { default: Decode | { default: Decode } };

/** Decodes the QR code in an RGBA image, or null when none is found. */
export const readQr: Decode = typeof mod.default === 'function' ? mod.default : mod.default.default;
