// Text lowering: text sanitised for the profile's code page (controls out, characters it lacks
// transliterated), as one text op; text that follows text directly (an escape and the text around
// it) joins the text op before it, so a printed line stays one op and one record. Each printed
// line is measured against the paper width (layout-lines.ts).
//
// Before: text "a " [0,2), text "<" [2,6) (from `&lt;`), text " b" [6,8)
// After:  { op: 'text', text: 'a < b', start: 0, end: 8 }
import type { TextNode } from '../parse/ast.js';
import { sanitizeSuspect } from '../text/sanitize.js';
import type { LowerContext } from './context.js';
import type { Op } from './ir.js';
import { nodeOffsets, trackText } from './layout-lines.js';

export function lowerText(node: TextNode, ctx: LowerContext): void {
  const { value, start, end } = node;
  const { codepage } = ctx.text;
  let text = value;
  // Text the code page's suspect class does not match prints as is; on a single-byte page that
  // class takes in everything above Latin-1, so such text is also within Latin-1.
  let latin1 = codepage.table !== null;
  if (codepage.suspect.test(value)) {
    text = sanitizeSuspect(value, start, ctx.text);
    latin1 = false;
    if (!text) return;
  }
  const { out, lastText } = ctx;
  if (lastText !== undefined && lastText.end === start && out[out.length - 1] === lastText) {
    // Measured before it joins, and alone: a line of many escapes is scanned once, not once per escape.
    lastText.text += trackText(ctx, lastText, lastText.text.length, nodeOffsets(start, end, value, text), true, text);
    lastText.end = end;
    if (!latin1) delete lastText.latin1;
    return;
  }
  const op: Extract<Op, { op: 'text' }> = latin1 ? { op: 'text', text, start, end, latin1: true } : { op: 'text', text, start, end };
  out.push(op);
  ctx.lastText = op;
  op.text = trackText(ctx, op, 0, nodeOffsets(start, end, value, text));
}
