// The IR: a flat list of printer operations, each keeping the source offsets of the node it came
// from, so every emitted byte traces back to the input.

export type Align = 'left' | 'center' | 'right';

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
  /** A QR code in the profile's native command family; `data` is UTF-8 encoded by the emitter. */
  | (At & { op: 'qr'; data: string })
  | (At & { op: 'image'; bitmap: Bitmap });

export type OpName = Op['op'];
