// Text into bytes through a code page lookup table: one table read per character, no per-call
// encoder setup. Text reaching here was sanitised by lowering, so every character is in the table.
import type { CodepageTable } from '../text/codepage.js';
import type { ByteWriter } from './writer.js';

const utf8 = new TextEncoder();

export function writeText(out: ByteWriter, text: string, table: CodepageTable): void {
  if (table === null) {
    out.reserve(text.length * 3);
    const { written } = utf8.encodeInto(text, out.raw().subarray(out.length));
    out.length += written;
    return;
  }
  const n = text.length;
  out.reserve(n);
  const buf = out.raw();
  let at = out.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    buf[at++] = c < 0x80 ? c : table[c]! & 0xff;
  }
  out.length = at;
}
