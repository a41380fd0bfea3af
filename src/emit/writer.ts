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

/** One working buffer seen three ways: Buffer (for `write`), plain bytes, 32-bit words. */
interface Store {
  buf: Buffer;
  bytes: Uint8Array;
  words: Uint32Array;
}

/** allocUnsafeSlow: memory of its own, from offset 0, so word-aligned. */
function store(size: number): Store {
  const buf = Buffer.allocUnsafeSlow(size);
  return { buf, bytes: new Uint8Array(buf.buffer, 0, size), words: new Uint32Array(buf.buffer, 0, size >>> 2) };
}

let spare: Store | undefined = store(16 * 1024);

/**
 * Node's own string writers, without `Buffer#write`'s argument juggling (which costs more than
 * the copy for a short line). They are not in Node's documented API, though every release from
 * 20 to 24 has them; should one drop them, `write(…, encoding)` does the same job.
 */
type StringWrite = (this: Buffer, text: string, offset: number, length: number) => number;
function nativeWrite(encoding: 'latin1' | 'utf8'): StringWrite {
  const direct = (Buffer.prototype as unknown as Record<string, StringWrite | undefined>)[`${encoding}Write`];
  return (
    direct ??
    function (this: Buffer, text, offset, length) {
      return this.write(text, offset, length, encoding);
    }
  );
}
const latin1Write = nativeWrite('latin1');
const utf8Write = nativeWrite('utf8');

export class ByteWriter {
  private store: Store;
  /** The working bytes (`store.bytes`). */
  private buf: Uint8Array;
  length = 0;
  readonly records: EmitRecord[] | undefined;

  constructor(withRecords = false) {
    this.store = spare ?? store(16 * 1024);
    this.buf = this.store.bytes;
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
    const next = store(size);
    next.bytes.set(this.store.bytes.subarray(0, this.length));
    this.store = next;
    this.buf = next.bytes;
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
    this.length += latin1Write.call(this.store.buf, text, from, text.length);
    return from;
  }

  /** Writes `text` as UTF-8 (natively, no intermediate array); returns the byte count. */
  utf8(text: string): number {
    this.reserve(text.length * 3);
    const written = utf8Write.call(this.store.buf, text, this.length, text.length * 3);
    this.length += written;
    return written;
  }

  /** Direct access for tight loops: call `reserve(n)` first, then write `raw()[length++]`. */
  raw(): Uint8Array {
    return this.buf;
  }

  /** `raw()` as 32-bit words (word `w` holds bytes 4w…4w+3). */
  rawWords(): Uint32Array {
    return this.store.words;
  }

  /** The bytes written, as an exact-size copy; closes the last record and frees the scratch. */
  finish(): Uint8Array {
    const last = this.records?.[this.records.length - 1];
    if (last) last.length = this.length - last.offset;
    const out = this.store.bytes.slice(0, this.length);
    this.release();
    return out;
  }

  /** Hands the working buffer back for the next emit (also on a failed emit). */
  release(): void {
    if (this.buf.length <= 1024 * 1024) spare = this.store;
  }
}
