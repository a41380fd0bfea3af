// The disassembler: any byte stream → one Instruction per command or text run. Text runs are
// decoded in the code page the stream selected (ESC t) or the profile's. Bytes no table entry
// matches come out as `unknown` and the walk goes on; it never throws on any input.
import { checkBytes } from '../shown.js';
import type { PrinterRef } from '../profiles/index.js';
import { decodeBytes } from '../text/codepage.js';
import { CODEPAGES, dialectFor, match, type Dialect } from './dialect.js';
import type { Instruction } from './types.js';

const NAMES: Readonly<Record<number, string>> = {
  0x09: 'HT', 0x0a: 'LF', 0x0c: 'FF', 0x0d: 'CR', 0x0f: 'SI', 0x10: 'DLE', 0x12: 'DC2', 0x14: 'DC4', 0x18: 'CAN', 0x1b: 'ESC', 0x1c: 'FS', 0x1d: 'GS',
};

/** `[1D 28 6B]` → `GS ( k`: control bytes by name, printable bytes as letters, the rest as hex. */
export function prefixMnemonic(prefix: ArrayLike<number>): string {
  const words: string[] = [];
  for (let i = 0; i < prefix.length; i++) {
    const b = prefix[i]!;
    if (i === 0 && NAMES[b]) words.push(NAMES[b]);
    else if (i > 0 && b > 0x20 && b < 0x7f) words.push(String.fromCharCode(b));
    else words.push(`0x${b.toString(16).toUpperCase().padStart(2, '0')}`);
  }
  return words.join(' ');
}

/** A byte that starts a text run: printable ASCII or any byte of the upper half of the code page. */
const isText = (b: number) => (b >= 0x20 && b !== 0x7f) || b === 0x09;

/** A text run in its code page (iconv-lite, loaded on the first run), or byte for byte if unknown. */
function decodeText(bytes: Uint8Array, encoding: string): string {
  return decodeBytes(bytes, encoding) ?? String.fromCharCode(...bytes);
}

export interface DisassembleOptions {
  /** The printer whose dialect and code page apply (default: the Epson TM-T20, template 5). */
  printer?: PrinterRef;
}

/**
 * Disassembles an ESC/POS stream (bobina's or any other program's).
 *
 * @example
 * disassemble(Uint8Array.of(0x1b, 0x61, 0x01, 0x4f, 0x69, 0x0a)).map((i) => i.mnemonic)
 * // → ['ESC a', 'text']
 */
export function disassemble(bytes: Uint8Array, options: DisassembleOptions = {}): Instruction[] {
  checkBytes('disassemble()', bytes);
  return walk(bytes, dialectFor(options?.printer ?? 5));
}

export function walk(b: Uint8Array, dialect: Dialect): Instruction[] {
  const out: Instruction[] = [];
  let encoding = dialect.encoding;
  let i = 0;
  while (i < b.length) {
    const spec = match(dialect, b, i);
    if (spec) {
      const at = i + spec.prefix.length;
      const r = spec.decode(b, at);
      const mnemonic = prefixMnemonic(spec.prefix);
      if (!r) {
        out.push({ offset: i, length: b.length - i, kind: 'truncated', mnemonic, name: `${spec.name}: stream ends inside the command`, args: {} });
        break;
      }
      if (r.effect?.type === 'codepage') encoding = CODEPAGES[r.effect.page] ?? encoding;
      out.push({ offset: i, length: r.end - i, kind: 'command', mnemonic, name: r.name ?? spec.name, args: r.args ?? {}, ...(r.effect && { effect: r.effect }) });
      i = r.end;
      continue;
    }
    // A bare LF that no command table names (plain-text output) is still a line of text.
    if (isText(b[i]!) || b[i] === 0x0a) {
      let j = i;
      while (j < b.length && isText(b[j]!)) j++;
      // A line's text and its LF are one entry: that is how receipts read.
      if (b[j] === 0x0a) j++;
      const text = decodeText(b.subarray(i, j), encoding);
      out.push({ offset: i, length: j - i, kind: 'text', mnemonic: 'text', name: 'text', args: {}, effect: { type: 'text', text } });
      i = j;
      continue;
    }
    // An unknown ESC/GS/FS/DLE sequence: show the pair, since its arguments cannot be known.
    const prefixed = NAMES[b[i]!] && [0x1b, 0x1c, 0x1d, 0x10].includes(b[i]!) && i + 1 < b.length;
    const length = prefixed ? 2 : 1;
    out.push({ offset: i, length, kind: 'unknown', mnemonic: prefixMnemonic(b.subarray(i, i + length)), name: 'unknown command', args: {} });
    i += length;
  }
  return out;
}
