// The readable listing of an emitted job: one command per line with hex, mnemonic and the source
// span (line:col-line:col). Text shows as a quoted string with non-ASCII bytes escaped, so the
// listing pins every byte; long raster data shows as its size and a hash.
import { LineIndex } from '../diagnostics.js';
import type { EmitRecord } from './writer.js';

const NAMES: Record<number, string> = { 0x1b: 'ESC', 0x1d: 'GS', 0x10: 'DLE', 0x1c: 'FS', 0x0a: 'LF', 0x12: 'DC2', 0x0f: 'SI' };
const HEAD_BYTES = 12;

export function formatListing(bytes: Uint8Array, records: readonly EmitRecord[], source: string): string {
  const index = new LineIndex(source);
  const lines: string[] = [];
  for (const r of records) {
    const chunk = bytes.subarray(r.offset, r.offset + r.length);
    const at = `${pos(index, r.start)}-${pos(index, r.end)}`;
    const body = r.label === 'text' || r.label === 'line' ? quote(chunk) : `${hex(chunk)}  ${mnemonic(chunk)}`;
    lines.push(`${r.offset.toString(16).padStart(6, '0')}  ${r.label.padEnd(26)} ${body}  @${at}`);
  }
  return lines.join('\n') + '\n';
}

function pos(index: LineIndex, offset: number): string {
  const p = index.position(offset);
  return `${p.line}:${p.column}`;
}

function hex(chunk: Uint8Array): string {
  const show = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ');
  if (chunk.length <= HEAD_BYTES * 2) return show(chunk);
  // node:crypto is loaded here, on the first long command of a listing, not when bobina is imported.
  const digest = process.getBuiltinModule('node:crypto').createHash('sha256').update(chunk).digest('hex').slice(0, 16);
  return `${show(chunk.subarray(0, HEAD_BYTES))} … (${chunk.length} bytes, sha256 ${digest})`;
}

/** `1D 56 42 00` → `GS V 66 0`, `1D 28 6B …` → `GS ( k …`: the command's letters as letters, arguments in decimal. */
export function mnemonic(chunk: Uint8Array): string {
  const words: string[] = [];
  const n = Math.min(chunk.length, HEAD_BYTES);
  for (let i = 0; i < n; i++) {
    const b = chunk[i]!;
    const name = NAMES[b];
    if (i === 0 && name) words.push(name);
    else if ((i === 1 || (i === 2 && chunk[1] === 0x28)) && b >= 0x21 && b < 0x7f) words.push(String.fromCharCode(b)); // GS ( k: function families
    else if (i === 0) words.push(`0x${b.toString(16).toUpperCase().padStart(2, '0')}`);
    else words.push(String(b));
  }
  if (chunk.length > n) words.push('…');
  return words.join(' ');
}

function quote(chunk: Uint8Array): string {
  let s = '"';
  for (const b of chunk) {
    if (b === 0x0a) s += '\\n';
    else if (b === 0x09) s += '\\t';
    else if (b === 0x22 || b === 0x5c) s += '\\' + String.fromCharCode(b);
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b);
    else s += '\\x' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return s + '"';
}
