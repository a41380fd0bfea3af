// Generic template (id 0): plain UTF-8 text. Tags are removed, alignment is done with spaces to
// the profile's columns, QR payloads arrive as text lines, feeds are blank lines.
import type { Align, Op } from '../lower/ir.js';
import type { Profile } from '../profiles/index.js';
import { writeText } from './encode-text.js';
import type { ByteWriter } from './writer.js';

/** Writes `ops` as lines of text padded for their alignment. */
export function emitText(ops: readonly Op[], profile: Profile, out: ByteWriter): void {
  const columns = profile.columns.normal;
  let align: Align = 'left';
  let lineAlign: Align = 'left';
  let line = '';
  let lineStart = 0;
  let lineEnd = 0;

  const flush = () => {
    out.mark('line', lineStart, lineEnd);
    writeText(out, pad(line, lineAlign, columns) + '\n', null);
    line = '';
    lineAlign = align;
  };

  for (const op of ops) {
    if (op.op === 'align') {
      align = op.align;
      if (line === '') lineAlign = align;
    } else if (op.op === 'text') {
      const parts = op.text.split('\n');
      for (let i = 0; i < parts.length; i++) {
        if (line === '') lineStart = op.start;
        line += parts[i];
        lineEnd = op.end;
        if (i < parts.length - 1) flush();
      }
    } else if (op.op === 'feed') {
      if (line !== '') flush();
      out.mark(`feed ${op.lines} lines`, op.start, op.end);
      writeText(out, '\n'.repeat(op.lines), null);
    }
    // condensed, cut and drawer have no meaning in plain text: removed, as the spec says.
  }
  if (line !== '') flush();
}

function pad(line: string, align: Align, columns: number): string {
  if (align === 'left') return line;
  const width = [...line].length;
  if (width >= columns) return line;
  const space = align === 'right' ? columns - width : (columns - width) >> 1;
  return ' '.repeat(space) + line;
}
