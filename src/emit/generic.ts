// Generic template (id 0): plain UTF-8 text. Tags are removed, alignment is done with spaces to
// the profile's columns, QR payloads arrive as text lines, feeds are blank lines.
import type { Align, Op } from '../lower/ir.js';
import { tabGap } from '../lower/layout-columns.js';
import type { Profile } from '../profiles/index.js';
import { writeText } from './encode-text.js';
import { SourceLines } from './lines.js';
import type { ByteWriter } from './writer.js';

/** Writes `ops` as lines of text padded for their alignment; with `epilogue`, the last line too if it has no line break. */
export function emitText(ops: readonly Op[], profile: Profile, out: ByteWriter, source: string | undefined, _prologue: boolean, epilogue: boolean): void {
  const columns = profile.columns.normal;
  const listing = out.records !== undefined && source !== undefined;
  let align: Align = 'left';
  let lineAlign: Align = 'left';
  let line = '';
  let lineStart = 0;
  let lineEnd = 0;
  /** The source lines of the last text op (the next one of the same span reuses them). */
  let last: SourceLines | undefined;

  const flush = () => {
    out.mark('line', 'line', lineStart, lineEnd);
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
      const lines = listing ? (last = SourceLines.of(last, source, op.start, op.end)) : undefined;
      for (let i = 0; i < parts.length; i++) {
        if (line === '') lineStart = lines ? lines.lineStart(i) : op.start;
        line += parts[i];
        lineEnd = lines ? lines.lineEnd(i) : op.end;
        if (i < parts.length - 1) flush();
      }
    } else if (op.op === 'feed') {
      if (line !== '') flush();
      out.mark('feed', `feed ${op.lines} lines`, op.start, op.end);
      writeText(out, '\n'.repeat(op.lines), null);
    }
    // Cut, condensed, drawer, style and size tags never get here: lowering removes them (the
    // profile's "missing"); such an op built by hand prints nothing, as there is no command for it.
  }
  if (epilogue && line !== '') flush();
}

/**
 * `line` after the spaces that align it in `columns`. Its width is as the line measure counts it: a
 * tab goes to the next stop from the line's start, as an ESC/POS printer lays out its line before
 * it aligns it (the preview's Head does the same). Plain text has its stops from where the padding
 * starts, so in an aligned line a tab is written as the spaces it takes.
 */
function pad(line: string, align: Align, columns: number): string {
  if (align === 'left') return line;
  let width = 0;
  let spaced = '';
  for (const ch of line) {
    const n = ch === '\t' ? tabGap(width) : 1;
    spaced += ch === '\t' ? ' '.repeat(n) : ch;
    width += n;
  }
  if (width >= columns) return line;
  return ' '.repeat(align === 'right' ? columns - width : (columns - width) >> 1) + spaced;
}
