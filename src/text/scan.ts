// The suspect characters of a whole source in one pass: the source written natively into a
// scratch buffer and read a word (four Latin-1 bytes, or two UTF-16 units) at a time, so each text
// node of a parsed receipt needs no regex scan of its own (the regex costs ~13 instructions a
// character; a word here costs about as much as three of those characters).
import type { Codepage } from './codepage.js';

/** Node's own string writers (see emit/writer.ts); undefined outside Node, where text nodes keep the regex. */
type StringWrite = (this: Uint8Array, text: string, offset: number, length: number) => number;
type NodeBufferClass = { allocUnsafeSlow(size: number): Uint8Array; prototype: Record<string, StringWrite | undefined> };
const NodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;
const latin1Write = NodeBuffer?.prototype.latin1Write;
const ucs2Write = NodeBuffer?.prototype.ucs2Write;

/** Any character above Latin-1. On a one-byte string V8 answers this without scanning. */
const BEYOND_LATIN1 = /[^\x00-\xff]/;

/** The word tests below read bytes and ucs2Write's (little-endian) units in little-endian order. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Sources longer than this are tested node by node (the scratch would be kept too large). */
const MAX_SCAN = 1 << 20;

interface Scratch {
  buf: Uint8Array;
  units: Uint16Array;
  words: Int32Array;
}
let scratch: Scratch | undefined;

function scratchFor(bytes: number): Scratch {
  if (scratch === undefined || scratch.buf.length < bytes) {
    let size = scratch ? scratch.buf.length : 16 * 1024;
    while (size < bytes) size *= 2;
    const buf = NodeBuffer!.allocUnsafeSlow(size);
    scratch = { buf, units: new Uint16Array(buf.buffer, 0, size >>> 1), words: new Int32Array(buf.buffer, 0, size >>> 2) };
  }
  return scratch;
}

/** What the scan finds in a source: offsets, each list ascending. */
export interface SourceScan {
  /** Every character the page's suspect class matches (CR among them). */
  readonly suspects: number[];
  /** Every line feed. */
  readonly lineFeeds: number[];
  /** Every tab. */
  readonly tabs: number[];
  /** Whether the source has a CR (then its lines are not simply the line feeds). */
  readonly cr: boolean;
}

/** The first index of `list` (ascending) whose value is `offset` or more; `list.length` if none. */
export function firstAtOrAfter(list: readonly number[], offset: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `list` (ascending) holds an offset in [start, end). */
export function anyWithin(list: readonly number[], start: number, end: number): boolean {
  if (list.length === 0) return false;
  const k = firstAtOrAfter(list, start);
  return k < list.length && list[k]! < end;
}

/**
 * The suspect characters (those `page.suspect` matches), line feeds and tabs of `source`, or
 * undefined where the page has no byte table (UTF-8), outside Node, or for a source past MAX_SCAN:
 * then each text is tested on its own.
 */
export function scanSource(source: string, page: Codepage): SourceScan | undefined {
  const plain = page.plainBytes;
  const n = source.length;
  if (plain === undefined || latin1Write === undefined || ucs2Write === undefined || !LITTLE_ENDIAN || n > MAX_SCAN) return undefined;
  return BEYOND_LATIN1.test(source) ? scanUtf16(source, plain, ucs2Write) : scanLatin1(source, plain, latin1Write);
}

/**
 * A word of four bytes all within 0x20–0x7E (printable ASCII) is skipped with one test: a byte
 * below 0x20 sets its top bit when 0x20 is taken away, one at 0x7F or above has it or gets it when 1
 * is added (borrows and carries only start at such a byte, so they can only flag more bytes).
 * Only the bytes flagged are looked at, lowest first.
 */
function scanLatin1(source: string, plain: Uint8Array, write: StringWrite): SourceScan {
  const n = source.length;
  const { buf, words } = scratchFor(n);
  write.call(buf, source, 0, n);
  const scan: SourceScan = { suspects: [], lineFeeds: [], tabs: [], cr: false };
  const whole = n >>> 2;
  for (let w = 0; w < whole; w++) {
    const x = words[w]!;
    let flags = ((x - 0x20202020) | x | (x + 0x01010101)) & 0x80808080;
    while (flags !== 0) {
      const i = (w << 2) + ((31 - Math.clz32(flags & -flags)) >>> 3);
      note(scan, buf[i]!, i, plain);
      flags &= flags - 1;
    }
  }
  for (let i = whole << 2; i < n; i++) note(scan, buf[i]!, i, plain);
  return scan;
}

/** As scanLatin1, two UTF-16 units a word; every unit above 0xFF is suspect. */
function scanUtf16(source: string, plain: Uint8Array, write: StringWrite): SourceScan {
  const n = source.length;
  const { buf, units, words } = scratchFor(2 * n);
  write.call(buf, source, 0, 2 * n);
  const scan: SourceScan = { suspects: [], lineFeeds: [], tabs: [], cr: false };
  const whole = n >>> 1;
  for (let w = 0; w < whole; w++) {
    const x = words[w]!;
    const flags = ((x - 0x00200020) | x | (x + 0x00010001)) & 0xff80ff80;
    if (flags === 0) continue;
    const i = w << 1;
    if ((flags & 0xff80) !== 0) note(scan, units[i]!, i, plain);
    if ((flags & 0xff800000) !== 0) note(scan, units[i + 1]!, i + 1, plain);
  }
  if (n & 1) note(scan, units[n - 1]!, n - 1, plain);
  return scan;
}

/** Files the character `c` at offset `i` where it belongs, if anywhere. */
function note(scan: SourceScan, c: number, i: number, plain: Uint8Array): void {
  if (c > 0xff || plain[c] === 0) {
    scan.suspects.push(i);
    if (c === 13) (scan as { cr: boolean }).cr = true;
  } else if (c === 10) scan.lineFeeds.push(i);
  else if (c === 9) scan.tabs.push(i);
}
