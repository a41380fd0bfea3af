// The disassembler's output: one Instruction per command or text run, each with the effect it has
// on the paper, so the listing and the preview renderer read the same decoded stream.
import type { Symbology } from '../lower/barcode/symbol.js';
import type { Align, Bitmap, HriPosition } from '../lower/ir.js';

export type Ecc = 'L' | 'M' | 'Q' | 'H';

/** What a command does to the printed page (commands with no visible effect have none). */
export type Effect =
  | { type: 'reset' }
  | { type: 'codepage'; page: number }
  | { type: 'align'; align: Align }
  /**
   * The font. ESC ! sets more than the font: `mode` is what else it sets (bold, underline, double
   * width and height), which the preview applies too.
   */
  | { type: 'condensed'; on: boolean; mode?: { bold: boolean; underline: boolean; width: number; height: number } }
  | { type: 'bold'; on: boolean }
  | { type: 'underline'; on: boolean }
  | { type: 'invert'; on: boolean }
  /**
   * The character size; a command that sets only one direction leaves the other out. `oneLine`:
   * a width for the rest of the line only (ESC SO; DC4 ends it, as width 1), over the lasting one.
   */
  | { type: 'size'; width?: number; height?: number; oneLine?: true }
  | { type: 'cut'; partial: boolean }
  | { type: 'feed'; lines?: number; dots?: number; reverse?: boolean }
  /** `pin` is absent for a drawer command with no pin argument whose profile names none. */
  | { type: 'drawer'; pin?: number; onMs?: number; offMs?: number }
  | { type: 'lf' }
  | { type: 'spacing'; dots: number | null }
  | { type: 'qr-size'; size: number }
  | { type: 'qr-ecc'; ecc: Ecc }
  | { type: 'qr-store'; data: Uint8Array }
  | { type: 'qr-print' }
  /** A QR symbol printed in one command (Bematech GS k Q, Daruma ESC 0x81). */
  | { type: 'qr'; data: Uint8Array; size: number; ecc: Ecc }
  /** GS v 0: printed at once, at the start of a line. */
  | { type: 'raster'; bitmap: Bitmap; scaleX: number; scaleY: number }
  /** ESC *: one band placed in the line buffer, printed by the next LF. */
  | { type: 'band'; bitmap: Bitmap; scaleX: number; scaleY: number }
  | { type: 'text'; text: string }
  /** GS h, GS w, GS H: the height, module width and text position of the barcodes that follow. */
  | { type: 'barcode-height'; dots: number }
  | { type: 'barcode-module'; dots: number }
  | { type: 'barcode-text'; position: HriPosition }
  /**
   * A barcode (GS k, or Daruma's ESC b, which carries its own height, module and text position).
   * `symbology` is absent for a type bobina does not draw (UPC-E, CODE93…); `data` as sent.
   */
  | { type: 'barcode'; symbology?: Symbology; data: Uint8Array; height?: number; module?: number; text?: HriPosition };

export type EffectType = Effect['type'];

export type ArgValue = number | string;

/** One decoded command or text run. */
export interface Instruction {
  offset: number;
  length: number;
  /** 'text' for printable runs; 'unknown' for bytes no table entry matches; 'truncated' when the stream ends inside a command. */
  kind: 'command' | 'text' | 'unknown' | 'truncated';
  /** The command's name in bytes, as manuals write it: `ESC a`, `GS ( k`, `LF`. */
  mnemonic: string;
  /** What it is: `select justification`, `QR: store data`. */
  name: string;
  /** Decoded arguments, in order. */
  args: Record<string, ArgValue>;
  effect?: Effect;
}
