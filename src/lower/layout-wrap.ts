// A cell's text as lines of its width: wrapped at spaces, a word longer than the width broken
// across lines, a line break in the text kept; each line padded to the width as the cell aligns.
// Widths count code points (the text is already sanitised for the code page: one per column).
//
// Before: "Café com leite", width 7, right; "Parafusos", width 4
// After:  ["   Café", "    com", "  leite"] (wrapWords, then alignIn); ["Para", "fuso", "s"]
import type { CellAlign } from '../parse/ast.js';

/**
 * The lines `text` takes at `width` columns (at least one line, possibly empty); width ≥ 1. At most
 * `most` of them: the first `most` lines, when it would take more (a row past the output budget).
 */
export function wrapWords(text: string, width: number, most = Infinity): string[] {
  if (!(width >= 1)) throw new RangeError(`wrapWords: width ${width} is not at least 1`);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line: string[] = [];
    let used = 0;
    for (const word of paragraph.split(' ')) {
      if (word === '') continue;
      const chars = [...word];
      /** Where the part of the word not yet placed starts (a long word is placed a line at a time). */
      let at = 0;
      if (used > 0 && used + 1 + chars.length > width) {
        if (lines.push(line.join('')) >= most) return lines;
        line = [];
        used = 0;
      }
      if (used > 0) {
        line.push(' ');
        used++;
      }
      // A word longer than the line: as much as fits, then the rest on lines of its own.
      // (By index, not by cutting the rest off each time: a 90,000-character word at width 1 took 30 s.)
      while (used + chars.length - at > width) {
        // Stryker disable next-line ArithmeticOperator: used is 0 here (a word that does not fit after others starts a line of its own first)
        const fit = width - used;
        line.push(chars.slice(at, at + fit).join(''));
        // Stryker disable next-line StringLiteral: the line holds just this piece (used is 0 above), so no separator is ever written
        if (lines.push(line.join('')) >= most) return lines;
        at += fit;
        line = [];
        used = 0;
      }
      line.push(chars.slice(at).join(''));
      used += chars.length - at;
    }
    if (lines.push(line.join('')) >= most) return lines;
  }
  return lines;
}

/** `line` (at most `width` code points) padded to exactly `width` as `align` says. */
export function alignIn(line: string, width: number, align: CellAlign): string {
  // (A line as wide as `width`, or wider, is returned as it is: no padding.)
  const space = Math.max(0, width - [...line].length);
  if (align === 'left') return line + ' '.repeat(space);
  if (align === 'right') return ' '.repeat(space) + line;
  const before = space >> 1;
  return ' '.repeat(before) + line + ' '.repeat(space - before);
}
