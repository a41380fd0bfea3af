// One output buffer, grown geometrically, plus (only when a listing is asked for) a record per
// command: label and source offsets, so the same emit gives bytes, listing and byte → source map.
//
// The working buffer is a scratch area kept between emits (an emit is synchronous, so one at a
// time uses it; a nested emit gets its own). The result is one exact-size copy, so a compile
// allocates one output array, not a guess plus a copy.

/** One emitted command: bytes [offset, next record's offset) came from source [start, end). */
export interface EmitRecord {
  offset: number;
  length: number;
  /** What the bytes do: "align center", "text", "cut partial", "qr store"… */
  label: string;
  start: number;
  end: number;
}

let spare: Buffer | undefined = Buffer.allocUnsafeSlow(16 * 1024);

export class ByteWriter {
  /** The working buffer; a Buffer so text can be written by `latin1Write` (native, one pass). */
  private buf: Buffer;
  length = 0;
  readonly records: EmitRecord[] | undefined;

  constructor(withRecords = false) {
    this.buf = spare ?? Buffer.allocUnsafeSlow(16 * 1024);
    spare = undefined;
    this.records = withRecords ? [] : undefined;
  }

  /** Starts a new record at the current position (a no-op unless records are kept). */
  mark(label: string, start: number, end: number): void {
    const records = this.records;
    if (!records) return;
    const last = records[records.length - 1];
    if (last) last.length = this.length - last.offset;
    records.push({ offset: this.length, length: 0, label, start, end });
  }

  /** Room for `n` more bytes. */
  reserve(n: number): void {
    const need = this.length + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.reserve(n);
    const buf = this.buf;
    let at = this.length;
    // Commands are a few bytes: a loop beats the call into TypedArray#set.
    if (n < 32) for (let i = 0; i < n; i++) buf[at++] = b[i]!;
    else {
      buf.set(b, at);
      at += n;
    }
    this.length = at;
  }

  /** Writes the low byte of each UTF-16 code unit of `text` (native); returns where it started. */
  latin1(text: string): number {
    this.reserve(text.length);
    const from = this.length;
    this.length += this.buf.write(text, from, 'latin1');
    return from;
  }

  /** Direct access for tight loops: call `reserve(n)` first, then write `raw()[length++]`. */
  raw(): Uint8Array {
    return this.buf;
  }

  /** The bytes written, as an exact-size copy; closes the last record and frees the scratch. */
  finish(): Uint8Array {
    const last = this.records?.[this.records.length - 1];
    if (last) last.length = this.length - last.offset;
    const out = new Uint8Array(this.length);
    this.buf.copy(out, 0, 0, this.length);
    this.release();
    return out;
  }

  /** Hands the working buffer back for the next emit (also on a failed emit). */
  release(): void {
    if (this.buf.length <= 1024 * 1024) spare = this.buf;
  }
}
