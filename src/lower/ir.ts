// The IR: a flat list of printer operations, each keeping the source offsets of the node it came
// from, so every emitted byte traces back to the input.

import type { Symbology } from './barcode/symbol.js';

export type Align = 'left' | 'center' | 'right';
/** A text style that is on or off until changed (`<textBoldOn>`…). */
export type TextStyle = 'bold' | 'underline' | 'invert';
export type Ecc = 'L' | 'M' | 'Q' | 'H';
/** Where a barcode's human-readable text goes. */
export type HriPosition = 'none' | 'above' | 'below' | 'both';

/** A 1-bit image: rows of `bytesPerRow` bytes, most significant bit = leftmost dot, 1 = black. */
export interface Bitmap {
  width: number;
  height: number;
  bytesPerRow: number;
  bits: Uint8Array;
}

interface At {
  start: number;
  end: number;
}

export type Op =
  | (At & { op: 'align'; align: Align })
  | (At & { op: 'condensed'; on: boolean })
  /** A text style on or off, in force until changed (across lines, like condensed). */
  | (At & { op: 'style'; style: TextStyle; on: boolean })
  /** The character size in force: width and height multipliers, each 1 to the profile's `sizeMax` (1 = normal). */
  | (At & { op: 'size'; width: number; height: number })
  /**
   * Text already safe for the profile's code page: only encodable characters, LF and TAB.
   * `latin1: true` is lowering's mark that every character is at most U+00FF (it learns that from
   * its own check), so the emitter writes the text natively without scanning it again. Ops built or
   * edited by hand should leave it out: absent means "not known", and the emitter then checks.
   */
  | (At & { op: 'text'; text: string; latin1?: true })
  | (At & { op: 'cut'; partial: boolean })
  | (At & { op: 'feed'; lines: number })
  | (At & { op: 'drawer' })
  /**
   * A QR code in the profile's native command family; `data` is UTF-8 encoded by the emitter.
   * `size` (dots per module) and `ecc`, when given, take the place of the profile's `qr.moduleSize` and `qr.ecc`.
   */
  | (At & { op: 'qr'; data: string; size?: number; ecc?: Ecc })
  /**
   * A barcode in the profile's native command family. `data` is valid for the symbology, with the
   * check digit for EAN and UPC (the emitter sends what the command takes); CODE128 also carries
   * the symbol values chosen by lowering (start code on, no check or stop).
   */
  | (At & { op: 'barcode'; symbology: Symbology; data: string; values?: number[]; height: number; module: number; text: HriPosition })
  | (At & { op: 'image'; bitmap: Bitmap });

export type OpName = Op['op'];
