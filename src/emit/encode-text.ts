// Text into bytes through a code page. Text reaching here was sanitised by lowering, so every
// character is in the code page. Text within Latin-1 (most receipts) is written natively, one
// byte per character (with the commands around it, in one call: writer.ts), and only the bytes
// from 0x80 up are then mapped through the table; other text goes character by character through
// the table.
import type { CodepageTable } from '../text/codepage.js';
import type { ByteWriter } from './writer.js';

/** Any character above Latin-1. On a one-byte string V8 answers this without scanning. */
const BEYOND_LATIN1 = /[^\x00-\xff]/;

/** `latin1`: the caller knows every character is at most U+00FF (otherwise this checks). */
// Stryker disable next-line BooleanLiteral: the default is used only by generic.ts, which passes a null table: UTF-8, returned before `latin1` is read
export function writeText(out: ByteWriter, text: string, table: CodepageTable, latin1 = false): void {
  if (table === null) {
    out.utf8(text);
    return;
  }
  // Stryker disable next-line LogicalOperator,BlockStatement: they send Latin-1 text down the per-character path below, which writes the same bytes (ASCII as itself, the rest through the same table)
  if (latin1 || !BEYOND_LATIN1.test(text)) {
    out.latin1Text(text, table);
    return;
  }
  const n = text.length;
  out.reserve(n);
  const buf = out.raw();
  let at = out.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    buf[at++] = c < 0x80 ? c : table[c]!;
  }
  out.length = at;
}

/**
 * Maps bytes [from, end) of 0x80 and up through the table (Latin-1 → code page). Four bytes at a
 * time: a word with no high bit set — most of any receipt — is skipped with one test.
 */
export function mapHighBytes(buf: Uint8Array, words: Uint32Array, from: number, end: number, table: Int16Array): void {
  let i = from;
  for (; i < end && (i & 3) !== 0; i++) if (buf[i]! >= 0x80) buf[i] = table[buf[i]!]!;
  const lastWord = end >>> 2;
  for (let w = i >>> 2; w < lastWord; w++) {
    if ((words[w]! & 0x80808080) === 0) continue;
    for (let k = w << 2; k < (w << 2) + 4; k++) if (buf[k]! >= 0x80) buf[k] = table[buf[k]!]!;
  }
  for (i = Math.max(i, lastWord << 2); i < end; i++) if (buf[i]! >= 0x80) buf[i] = table[buf[i]!]!;
}
