// One output buffer, grown geometrically, plus (only when a listing is asked for) a record per
// command: label and source offsets, so the same emit gives bytes, listing and byte → source map.

/** One emitted command: bytes [offset, next record's offset) came from source [start, end). */
export interface EmitRecord {
  offset: number;
  length: number;
  /** What the bytes do: "align center", "text", "cut partial", "qr store"… */
  label: string;
  start: number;
  end: number;
}

export class ByteWriter {
  private buf: Uint8Array;
  length = 0;
  readonly records: EmitRecord[] | undefined;

  constructor(initialSize = 1024, withRecords = false) {
    this.buf = new Uint8Array(initialSize);
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
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Direct access for tight loops: call `reserve(n)` first, then write `raw()[length++]`. */
  raw(): Uint8Array {
    return this.buf;
  }

  /** The bytes written, as an exact-size copy; closes the last record. */
  finish(): Uint8Array {
    const last = this.records?.[this.records.length - 1];
    if (last) last.length = this.length - last.offset;
    return this.buf.slice(0, this.length);
  }
}
