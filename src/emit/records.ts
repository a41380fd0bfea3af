// Emit records: what each run of emitted bytes is (a machine key and a label) and where in the
// source it came from — the byte → source map that listings and tests read.
import type { CommandKey } from '../profiles/commands.js';

/**
 * What a record's bytes are, as a key for code to match on: a profile command key (`alignCenter`,
 * `cutPartial`…, see profiles/commands.ts) or one of the emitter's own.
 */
export type RecordOp =
  | CommandKey
  | 'codepage'
  | 'text'
  | 'line'
  | 'lineFeed'
  | 'qr'
  | 'qrModel'
  | 'qrSize'
  | 'qrEcc'
  | 'qrStore'
  | 'qrPrint'
  | 'qrEnter'
  | 'qrLeave'
  | 'barcodeHeight'
  | 'barcodeModule'
  | 'barcodeText'
  | 'barcode'
  | 'raster'
  | 'bandSpacing'
  | 'band'
  | 'spacingReset';

/** One emitted command: bytes [offset, next record's offset) came from source [start, end). */
export interface EmitRecord {
  offset: number;
  length: number;
  /** What the bytes are, for code: match on this, never on the label. */
  op: RecordOp;
  /** What the bytes do, for people: "align center", "text", "cut partial", "qr store"… */
  label: string;
  start: number;
  end: number;
}
