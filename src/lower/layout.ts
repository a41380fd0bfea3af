// <row> and <rule/>: laid out here, at lowering time, from the profile's columns for the font in
// force (layout-columns.ts), so the same row fits a 48- and a 64-column printer. They lower to
// plain text ops, one per printed line and each exactly as wide as the paper, so every template
// prints them (the generic one included) whatever the alignment in force. A row or rule starts on
// a line of its own; like a line of text it ends without a line break (the source's own newline
// after </row> ends it). Cells sit side by side with no gap: a gap is a cell of its own.
//
// Before: <row><cell width="4">2x</cell><cell>Café</cell><cell width="8" align="right">9,90</cell></row> on 20 columns
// After:  text "2x  Café        9,90"
// Before: <rule char="="/> on 20 columns
// After:  text "===================="
import type { CellNode, RowNode, RuleNode } from '../parse/ast.js';
import { sanitizeText } from '../text/sanitize.js';
import type { LowerContext, Lowering } from './context.js';
import { cellWidths, fontInForce, fontName } from './layout-columns.js';
import { atLineStart, trackText } from './layout-lines.js';
import { alignIn, wrapWords } from './layout-wrap.js';

const EDGES = /^[ \n]+|[ \n]+$/g;

/**
 * A cell's text as it prints: sanitised piece by piece (so a diagnostic points at its character in
 * the source, past any escape before it), tabs as spaces, blank lines around it dropped.
 */
function printed(cell: CellNode, ctx: LowerContext): string {
  const pieces = cell.pieces !== undefined && cell.pieces.map((p) => p.text).join('') === cell.text ? cell.pieces : [{ text: cell.text, start: cell.textStart }];
  const text = pieces.map((p) => sanitizeText(p.text, p.start, ctx.text)).join('');
  return text.replace(/\t/g, ' ').replace(EDGES, '');
}

export const lowerRow: Lowering<RowNode> = (node, ctx) => {
  if (node.cells.length === 0) return;
  const font = fontInForce(ctx.profile, ctx.state);
  const texts = node.cells.map((cell) => printed(cell, ctx));
  const widths = cellWidths(node.cells, font.columns);
  // Each printed line is as wide as the paper: wrapping stops at the first line past the job's output budget.
  const most = ctx.budget?.lines(font.columns) ?? Infinity;
  if (widths && widths.every((w, i) => w > 0 || texts[i] === '')) {
    // Stryker disable next-line ArrayDeclaration: a cell without columns has no text here, and a cell with columns gives the row its height (a missing line prints as '')
    const columns = texts.map((text, i) => (widths[i]! > 0 ? wrapWords(text, widths[i]!, most) : ['']));
    const height = Math.max(...columns.map((lines) => lines.length));
    const lines: string[] = [];
    // Fixed cells may leave columns over: the line is padded to the paper all the same.
    for (let k = 0; k < height; k++) lines.push(alignIn(node.cells.map((cell, i) => alignIn(columns[i]![k] ?? '', widths[i]!, cell.align)).join(''), font.columns, 'left'));
    return printLines(ctx, lines, node.start, node.end);
  }
  // The cells cannot sit side by side: each prints across the whole line, one under the other.
  const asked = node.cells.map(({ width }) => ('columns' in width ? String(width.columns) : `${width.share}*`)).join(' + ');
  ctx.diagnostics.push({
    code: 'lower/row-too-wide',
    message: `the cells of this <row> (${asked}) do not fit the ${font.columns} columns ${ctx.profile.printer} prints in ${fontName(ctx.state)}: each cell is printed on lines of its own`,
    start: node.start,
    end: node.end,
  });
  const lines: string[] = [];
  for (let i = 0; i < texts.length && lines.length < most; i++) {
    for (const line of wrapWords(texts[i]!, font.columns, most - lines.length)) lines.push(alignIn(line, font.columns, node.cells[i]!.align));
  }
  printLines(ctx, lines, node.start, node.end);
};

export const lowerRule: Lowering<RuleNode> = (node, ctx) => {
  const font = fontInForce(ctx.profile, ctx.state);
  const char = sanitizeText(node.char, node.charStart ?? node.start, ctx.text);
  printLines(ctx, [([...char].length === 1 ? char : '-').repeat(font.columns)], node.start, node.end);
};

/**
 * Lines laid out for the paper: a text op each (the last without its line break), on a line of their
 * own. Each line's characters are spent from the job's output budget (a byte each, at least) once it
 * is made: past the limit, the line after the one that passed it is the last made.
 */
function printLines(ctx: LowerContext, lines: readonly string[], start: number, end: number): void {
  const at = { at: () => start };
  if (!atLineStart(ctx)) push(ctx, '\n', start, start, at);
  lines.forEach((line, k) => {
    const length = push(ctx, k < lines.length - 1 ? line + '\n' : line, start, end, at);
    ctx.budget?.spend(length, start, end);
  });
}

/** One line as a text op; its length. */
function push(ctx: LowerContext, text: string, start: number, end: number, at: { at: () => number }): number {
  const op = { op: 'text' as const, text, start, end };
  ctx.out.push(op);
  return (op.text = trackText(ctx, op, 0, at, false)).length;
}
