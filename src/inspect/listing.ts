// The compile listing: the emitted bytes read back by the disassembler (so a compile listing and
// `bobina disasm` split and name every command the same way), each line led by the source span
// the emit records give its bytes. No byte offsets: a one-word edit of a receipt changes one line.
import { LineIndex } from '../diagnostics.js';
import type { EmitRecord } from '../emit/records.js';
import type { PrinterRef } from '../profiles/index.js';
import { disassemble } from './disassemble.js';
import { formatInstruction } from './format.js';

export interface ListingOptions {
  /** The printer the bytes are for: its dialect names the commands (default: template 5). */
  printer?: PrinterRef;
}

/**
 * One line per command or printed line: source span, hex, mnemonic, name and arguments.
 *
 * @example
 * const { bytes, records } = compile(conteudo, { printer: 5, records: true });
 * formatListing(bytes, records!, conteudo, { printer: 5 });
 * // '@1:1-1:18   1B 61 01   ESC a   select justification (n=1, align="center")\n…'
 */
export function formatListing(bytes: Uint8Array, records: readonly EmitRecord[], source: string, options: ListingOptions = {}): string {
  const index = new LineIndex(source);
  const pos = (offset: number) => {
    const p = index.position(offset);
    return `${p.line}:${p.column}`;
  };
  let r = 0;
  const lines = disassemble(bytes, { printer: options.printer ?? 5 }).map((ins) => {
    // The records whose bytes this instruction covers give its span: from the first one's start to the last one's end.
    while (r < records.length - 1 && records[r]!.offset + records[r]!.length <= ins.offset) r++;
    let start = Infinity;
    let end = -Infinity;
    for (let k = r; k < records.length && records[k]!.offset < ins.offset + ins.length; k++) {
      if (records[k]!.length === 0) continue;
      start = Math.min(start, records[k]!.start);
      end = Math.max(end, records[k]!.end);
    }
    const span = start === Infinity ? '@?' : `@${pos(start)}-${pos(end)}`;
    return formatInstruction(bytes, ins, span.padEnd(13));
  });
  return lines.join('\n') + '\n';
}
