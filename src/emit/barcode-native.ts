// Native barcode command families, as a table: family → bytes for one symbol. Epson's GS h / GS w
// / GS H / GS k (function B, counted data), and Daruma's ESC b (its parameters inside, data ended
// by NUL). The type byte per symbology, and how CODE128 is sent, are the profile's (`barcode`).
import { CODE, SHIFT, START } from '../lower/barcode/code128.js';
import type { Op } from '../lower/ir.js';
import type { BarcodeProfile } from '../profiles/schema.js';
import type { ByteWriter } from './writer.js';

type BarcodeOp = Extract<Op, { op: 'barcode' }>;
type Family = (out: ByteWriter, op: BarcodeOp, barcode: BarcodeProfile) => void;

const GS_H_TEXT = { none: 0, above: 1, below: 2, both: 3 } as const;
const SET_OF_START: Readonly<Record<number, 'A' | 'B' | 'C'>> = { [START.A]: 'A', [START.B]: 'B', [START.C]: 'C' };
/** The code-set switches each set has (the same value is data, or FNC4, in another set). */
const SWITCHES: Readonly<Record<'A' | 'B' | 'C', Readonly<Record<number, 'A' | 'B' | 'C'>>>> = {
  A: { [CODE.B]: 'B', [CODE.C]: 'C' },
  B: { [CODE.A]: 'A', [CODE.C]: 'C' },
  C: { [CODE.A]: 'A', [CODE.B]: 'B' },
};
const BRACE = 0x7b;

/** What the command's data is: EAN and UPC without their check digit (the printer computes it). */
function payload(op: BarcodeOp, barcode: BarcodeProfile): number[] {
  const text = op.symbology === 'ean13' || op.symbology === 'ean8' || op.symbology === 'upca' ? op.data.slice(0, -1) : op.data;
  if (op.symbology === 'code128' && barcode.code128 === 'sets') return epsonCode128(op.values!);
  return Array.from(text, (ch) => ch.charCodeAt(0));
}

/**
 * CODE128 values as Epson's GS k 73 takes them: `{A` `{B` `{C` for the start and each code-set
 * switch, `{S` for a shift, set C values as bytes 0–99, A and B characters as ASCII, `{` as `{{`.
 */
export function epsonCode128(values: readonly number[]): number[] {
  let set = SET_OF_START[values[0]!]!;
  const out = [BRACE, set.charCodeAt(0)];
  let shifted = false;
  for (let i = 1; i < values.length; i++) {
    const v = values[i]!;
    if (set !== 'C' && v === SHIFT) {
      out.push(BRACE, 0x53);
      shifted = true;
      continue;
    }
    const to = SWITCHES[set][v];
    if (to) {
      out.push(BRACE, to.charCodeAt(0));
      set = to;
      continue;
    }
    const reading = shifted ? (set === 'A' ? 'B' : 'A') : set;
    shifted = false;
    const byte = reading === 'C' ? v : reading === 'B' || v < 64 ? v + 32 : v - 64;
    out.push(byte);
    if (byte === BRACE) out.push(BRACE); // set C bytes are 0–99, never `{`
  }
  return out;
}

export const BARCODE_FAMILIES: Readonly<Record<BarcodeProfile['command'], Family>> = {
  'epson-gs-k': (out, op, barcode) => {
    const { start, end } = op;
    const data = payload(op, barcode);
    out.mark('barcodeHeight', 'barcode height', start, end);
    out.bytes(Uint8Array.of(0x1d, 0x68, op.height));
    out.mark('barcodeModule', 'barcode module width', start, end);
    out.bytes(Uint8Array.of(0x1d, 0x77, op.module));
    out.mark('barcodeText', 'barcode text position', start, end);
    out.bytes(Uint8Array.of(0x1d, 0x48, GS_H_TEXT[op.text]));
    out.mark('barcode', 'barcode', start, end);
    out.bytes(Uint8Array.of(0x1d, 0x6b, barcode.types[op.symbology]!, data.length, ...data));
  },
  'daruma-esc-b': (out, op, barcode) => {
    out.mark('barcode', 'barcode', op.start, op.end);
    out.bytes(Uint8Array.of(0x1b, 0x62, barcode.types[op.symbology]!, op.module, op.height, op.text === 'none' ? 0 : 1, ...payload(op, barcode), 0x00));
  },
};
