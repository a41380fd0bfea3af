// What each native QR command family takes of a <qrcode>'s options, as data: lowering says what
// it changes (lower/qr-option-changed), and the emitter (emit/qr-native.ts) sends what is said
// here, so the two never disagree. Sources: docs/printers.md.
import type { ProfileData } from './schema.js';

type Qr = ProfileData['qr'];
export type Ecc = Qr['ecc'];
export type NativeQrFamily = Exclude<Qr['command'], 'raster' | 'text'>;

interface Takes {
  /** Whether the command carries a module size (Bematech's GS k Q: fixed by the profile's qr.params). */
  size: boolean;
  /** Levels the command has no byte for, and the level sent instead (Daruma's ESC 0x81 has no L: M, as pyescpos sends). */
  ecc: Partial<Record<Ecc, Ecc>>;
}

export const NATIVE_QR: Readonly<Record<NativeQrFamily, Takes>> = {
  'epson-gs-k': { size: true, ecc: {} },
  'bematech-gs-k-q': { size: false, ecc: {} },
  'daruma-esc-81': { size: true, ecc: { L: 'M' } },
};

/** The error correction a family sends for `ecc`. */
export const eccSent = (family: NativeQrFamily, ecc: Ecc): Ecc => NATIVE_QR[family].ecc[ecc] ?? ecc;

/** The module size sent for `size`: clamped into the sizes the printer's command takes (qr.moduleRange). */
export function moduleSent(qr: Qr, size: number): number {
  const range = qr.moduleRange;
  return range ? Math.min(range.max, Math.max(range.min, size)) : size;
}
