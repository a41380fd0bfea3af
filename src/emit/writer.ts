// One output buffer, grown geometrically, plus (only when a listing is asked for) a record per
// command: label and source offsets, so the same emit gives bytes, listing and byte → source map.
//
// The working buffer is a scratch area kept between emits (an emit is synchronous, so one at a
// time uses it; a nested emit gets its own). The result is one exact-size copy, so a compile
// allocates one output array, not a guess plus a copy.
import type { EmitRecord, RecordOp } from './records.js';

import { OutputLimitReached } from '../limits.js';
import { mapHighBytes } from './encode-text.js';

export type { EmitRecord, RecordOp } from './records.js';

/** One working buffer seen three ways: the writable view (a Node Buffer where there is one), plain bytes, 32-bit words. */
interface Store {
  buf: Uint8Array;
  bytes: Uint8Array;
  words: Uint32Array;
}

/**
 * Node's Buffer, when the runtime has one: the fast path for writing strings. Found by a feature
 * check, never imported, so the emitter runs the same in a browser, a worker or any JS engine.
 */
type NodeBufferClass = { allocUnsafeSlow(size: number): Uint8Array; prototype: object };
const NodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;

/** Memory of its own, from offset 0, so word-aligned (Buffer.allocUnsafeSlow skips the zeroing). */
function store(size: number): Store {
  const buf = NodeBuffer ? NodeBuffer.allocUnsafeSlow(size) : new Uint8Array(size);
  return { buf, bytes: new Uint8Array(buf.buffer, 0, size), words: new Uint32Array(buf.buffer, 0, size >>> 2) };
}

let spare: Store | undefined = store(16 * 1024);

/** Writes `text` at `offset` (at most `length` bytes) into `this`; returns the bytes written. */
type StringWrite = (this: Uint8Array, text: string, offset: number, length: number) => number;

/**
 * Node's own string writers, without `Buffer#write`'s argument juggling (which costs more than
 * the copy for a short line). They are not in Node's documented API, though every release from
 * 20 to 24 has them; should one drop them, `write(…, encoding)` does the same job.
 */
function nodeWrite(encoding: 'latin1' | 'utf8'): StringWrite | undefined {
  if (!NodeBuffer) return undefined;
  const direct = (NodeBuffer.prototype as Record<string, StringWrite | undefined>)[`${encoding}Write`];
  return (
    direct ??
    // Stryker disable next-line BlockStatement: not reachable in Node: 20 to 24 all have latin1Write and utf8Write (elsewhere nodeWrite returned above)
    function (this: Uint8Array, text, offset, length) {
      return (this as unknown as { write(t: string, o: number, l: number, e: string): number }).write(text, offset, length, encoding);
    }
  );
}

/** Elsewhere: the low byte of each UTF-16 code unit, exactly what `latin1Write` writes. */
function webLatin1(this: Uint8Array, text: string, offset: number): number {
  const n = text.length;
  for (let i = 0; i < n; i++) this[offset + i] = text.charCodeAt(i);
  return n;
}

let encoder: InstanceType<typeof TextEncoder> | undefined;
/** Elsewhere: the standard encoder, straight into the buffer (lone surrogates → U+FFFD, as Node). */
function webUtf8(this: Uint8Array, text: string, offset: number, length: number): number {
  return (encoder ??= new TextEncoder()).encodeInto(text, this.subarray(offset, offset + length)).written;
}

const latin1Write: StringWrite = nodeWrite('latin1') ?? webLatin1;
const utf8Write: StringWrite = nodeWrite('utf8') ?? webUtf8;

/** The writers used where there is no Buffer (exported for the test that holds them to Node's). */
export const WEB_WRITERS = { latin1: webLatin1, utf8: webUtf8 } as const;

export class ByteWriter {
  private store: Store;
  /** The working bytes (`store.bytes`). */
  private buf: Uint8Array;
  /** Bytes written so far, the pending ones included. */
  length = 0;
  /**
   * Latin-1 text and command bytes (a character a byte) not yet in the buffer: a receipt's text and
   * the commands between it go in with one native write (`flush`) instead of one per text.
   */
  private pending = '';
  /** Output ranges [from, to) of the pending text to map through `table` once written. */
  private readonly mapped: number[] = [];
  private table: Int16Array | null = null;
  readonly records: EmitRecord[] | undefined;
  /** Past this many bytes the next command throws OutputLimitReached (checked per command, not per byte). */
  private readonly maxBytes: number;

  constructor(withRecords: boolean, maxBytes = Infinity) {
    this.maxBytes = maxBytes;
    this.store = spare ?? store(16 * 1024);
    this.buf = this.store.bytes;
    spare = undefined;
    this.records = withRecords ? [] : undefined;
  }

  /** Starts a new record at the current position (a no-op unless records are kept). */
  mark(op: RecordOp, label: string, start: number, end: number): void {
    if (this.length > this.maxBytes) throw new OutputLimitReached(start, end);
    const records = this.records;
    if (!records) return;
    const last = records[records.length - 1];
    if (last) last.length = this.length - last.offset;
    records.push({ offset: this.length, length: 0, op, label, start, end });
  }

  /** Latin-1 bytes, a character each (commands): written with the pending text. */
  chars(bytes: string): void {
    this.pending += bytes;
    this.length += bytes.length;
  }

  /** Text within Latin-1, a byte a character, then mapped through `table` (Latin-1 → code page). */
  latin1Text(text: string, table: Int16Array): void {
    // The pending ranges share one table: text under another (emit() makes a writer per code
    // page, so only a direct caller does this) first writes out what is pending under the one it had.
    // Stryker disable next-line LogicalOperator: `||` only flushes more often (also under the same table), which writes the same bytes
    if (this.table !== table && this.mapped.length > 0) this.flush();
    const mapped = this.mapped;
    const from = this.length;
    const to = from + text.length;
    if (mapped.length > 0 && mapped[mapped.length - 1] === from) mapped[mapped.length - 1] = to;
    else mapped.push(from, to);
    this.table = table;
    this.pending += text;
    this.length = to;
  }

  /** Writes the pending bytes into the buffer (one native call) and maps their text ranges. */
  private flush(): void {
    const pending = this.pending;
    // Stryker disable next-line StringLiteral: with nothing pending, flushing writes nothing and maps no byte (mapped ranges come with pending text)
    if (pending === '') return;
    const from = this.length - pending.length;
    this.grow(this.length);
    latin1Write.call(this.store.buf, pending, from, pending.length);
    this.pending = '';
    const mapped = this.mapped;
    for (let i = 0; i < mapped.length; i += 2) mapHighBytes(this.buf, this.store.words, mapped[i]!, mapped[i + 1]!, this.table!);
    mapped.length = 0;
  }

  /** Room for `n` more bytes (the pending ones written first). */
  reserve(n: number): void {
    this.flush();
    this.grow(this.length + n);
  }

  /** A buffer of at least `need` bytes, what is written kept. */
  private grow(need: number): void {
    if (need <= this.buf.length) return;
    // Stryker disable next-line ArithmeticOperator: from half the size the loop doubles on to a size ≥ need all the same
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = store(size);
    // Stryker disable next-line ArithmeticOperator: copying more only copies bytes past the written ones, each written over before it is read
    next.bytes.set(this.store.bytes.subarray(0, this.length - this.pending.length));
    this.store = next;
    this.buf = next.bytes;
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

  /** Writes `text` as UTF-8 (natively, no intermediate array); returns the byte count. */
  utf8(text: string): number {
    this.reserve(text.length * 3);
    const written = utf8Write.call(this.store.buf, text, this.length, text.length * 3);
    this.length += written;
    return written;
  }

  /** Direct access for tight loops: call `reserve(n)` first, then write `raw()[length++]`. */
  raw(): Uint8Array {
    this.flush();
    return this.buf;
  }

  /** The bytes written, as an exact-size copy; closes the last record and frees the scratch. */
  finish(): Uint8Array {
    this.flush();
    const last = this.records?.[this.records.length - 1];
    if (last) last.length = this.length - last.offset;
    const out = this.store.bytes.slice(0, this.length);
    this.release();
    return out;
  }

  /** Hands the working buffer back for the next emit (also on a failed emit). */
  // Stryker disable next-line BlockStatement: only decides whether the next emit reuses this buffer, and an emit reads no byte it has not written (finish() copies [0, length))
  release(): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: only decides whether the next emit reuses this buffer, as above
    if (this.buf.length <= 1024 * 1024) spare = this.store;
  }
}
