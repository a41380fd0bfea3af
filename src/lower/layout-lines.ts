// The printed line as lowering writes it: how much of the paper width it takes in the font in
// force (a line may mix normal, condensed and wide text), an info `text/line-too-long` for each
// printed line wider than the paper, and with `wrap: 'word'` a line break at the last space that
// fits instead (a word longer than a whole line is broken where the line ends).
//
// Before: text "Pagamento em dinheiro com troco para cem reais e cinquenta centavos\n" on 48 columns
// After:  the same op, and text/line-too-long over the line's span
//         (wrap: 'word': "Pagamento em dinheiro com troco para cem reais e\ncinquenta centavos\n")
import type { Op, OpName } from './ir.js';
import type { LowerContext } from './context.js';
import { fontInForce, fontName, tabGap, type Font } from './layout-columns.js';

type TextOp = Extract<Op, { op: 'text' }>;

/**
 * Where the lines of a piece of text start and end in the source: an object, or (the common case:
 * text exactly as written) a number, the source offset of the text's first character, so that
 * index `i` is at that offset + i and nothing is allocated per text node.
 */
export type LineOffsets = number | {
  /** Source offset of the character at `index` of the text, which is on its line `line` (0-based). */
  at(line: number, index: number): number;
};

/** The source offset of the character at `index` of a text, which is on its line `line` (0-based). */
function offsetAt(offsets: LineOffsets, line: number, index: number): number {
  return typeof offsets === 'number' ? offsets + index : offsets.at(line, index);
}

export interface LineState {
  /** Paper width taken on the current printed line, in Font `cost` units. */
  used: number;
  /** Source offset where the current printed line starts; -1 while nothing is printed on it. */
  start: number;
  /** Source offset just past the last text on it. */
  end: number;
  /** The line is wider than the paper (reported when it ends). */
  over: boolean;
  /** How many ops of ctx.out the tracker has seen. */
  seen: number;
  /** With wrap: the last space on the line that fits, where a break can go. */
  candidate: { op: TextOp; index: number; usedAfter: number } | undefined;
  /** The font last measured with, and the state it was made for (fontInForce, once per change of font). */
  font: Font | undefined;
  fontCondensed: boolean;
  fontWidth: number;
  /** With wrap: spaces of `pendingOp`'s text (before the text measured now) that become line breaks (settlePending). */
  pendingOp: TextOp | undefined;
  pending: number[];
}

/** The edits of an op measured without wrap: always empty (measure adds edits only with wrap). */
const NO_EDITS: never[] = [];

/** Ops that end the printed line before them (a text op the tracker did not see: the text line of a raster barcode). */
function endsLine(op: OpName): boolean {
  switch (op) {
    case 'text':
    case 'qr':
    case 'barcode':
    case 'image':
    case 'cut':
    case 'feed':
      return true;
    // Stryker disable next-line ConditionalExpression: without its return the function returns undefined, as falsy as false
    default:
      return false;
  }
}

/** A fresh line state; every field present from the start, so its shape never changes while lowering. */
export function newLineState(): LineState {
  return {
    used: 0,
    start: -1,
    end: 0,
    over: false,
    seen: 0,
    candidate: undefined,
    font: undefined,
    // Stryker disable next-line BooleanLiteral: read only beside `font`, which is undefined until currentFont sets all three
    fontCondensed: false,
    fontWidth: 1,
    pendingOp: undefined,
    pending: [],
  };
}

/** fontInForce, made again only when the font state changed since the last text measured. */
function currentFont(ctx: LowerContext, L: LineState): Font {
  const { condensed, width } = ctx.state;
  if (L.font === undefined || L.fontCondensed !== condensed || L.fontWidth !== width) {
    L.font = fontInForce(ctx.profile, ctx.state);
    L.fontCondensed = condensed;
    L.fontWidth = width;
  }
  return L.font;
}

function lineState(ctx: LowerContext): LineState {
  return (ctx.line ??= newLineState());
}

/** Ends lines for the ops written since the tracker last looked, up to (not including) `upto`. */
function catchUp(ctx: LowerContext, L: LineState, upto: number): void {
  for (let i = L.seen; i < upto; i++) {
    const op = ctx.out[i]!;
    if (endsLine(op.op)) endLine(ctx, L, op.start);
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: trackText sets seen right after its catchUp, and ops caught up twice end a line nothing was measured on in between twice
  if (upto > L.seen) L.seen = upto;
}

function endLine(ctx: LowerContext, L: LineState, at: number): void {
  // Only text sets `over`, so a line that is over has a start.
  if (L.over) {
    // In the font its last text was measured in (text is measured on the line, so there is one),
    // not the font in force now: a command after the line's end may have changed it.
    const font = L.font!;
    const wide = Math.ceil(L.used / font.cost);
    ctx.diagnostics.push({
      code: 'text/line-too-long',
      message: `this printed line is ${wide} columns wide and ${ctx.profile.printer} prints ${font.columns} columns of ${fontName({ condensed: L.fontCondensed, width: L.fontWidth })}: the printer breaks it where the paper ends (compile with wrap: 'word' to wrap it at spaces)`,
      start: L.start,
      end: Math.max(at, L.start),
    });
  }
  L.used = 0;
  L.start = -1;
  L.over = false;
  L.candidate = undefined;
}

/** Nothing is printed yet on the current line (after the ops written so far). */
export function atLineStart(ctx: LowerContext): boolean {
  const L = lineState(ctx);
  catchUp(ctx, L, ctx.out.length);
  return L.start < 0;
}

/**
 * Text that prints as a line of its own, ending in a line break (the plain-text template's QR
 * payload and barcode data): after a line break when something is printed on the line already,
 * then measured, and with wrap broken, as any other text. Its lines span the whole tag.
 */
export function pushLine(ctx: LowerContext, text: string, start: number, end: number, latin1: boolean): void {
  if (!atLineStart(ctx)) {
    const br: TextOp = { op: 'text', text: '\n', start, end: start };
    ctx.out.push(br);
    trackText(ctx, br, 0, { at: () => start });
  }
  const op: TextOp = latin1 ? { op: 'text', text, start, end, latin1 } : { op: 'text', text, start, end };
  ctx.out.push(op);
  op.text = trackText(ctx, op, 0, { at: (_line, index) => (index >= text.length ? end : start) });
}

/** At the end of the document: the last line ends. */
export function finishLines(ctx: LowerContext): void {
  const L = lineState(ctx);
  catchUp(ctx, L, ctx.out.length);
  endLine(ctx, L, L.end);
  settlePending(L);
}

/**
 * Measures `text`, the text of `op` (the last op of ctx.out) from index `from` on, with `offsets`
 * mapping it to the source; with wrap, breaks its lines. Returns `text` with those breaks: the
 * caller puts it in the op (text joined to an op is measured before it joins, and only it is
 * scanned, so a line of many escapes is measured in linear time). `breakable: false` for text
 * already laid out (a row): no break goes inside it.
 */
export function trackText(ctx: LowerContext, op: TextOp, from: number, offsets: LineOffsets, breakable = true, text = op.text): string {
  const L = lineState(ctx);
  if (L.pendingOp !== op) settlePending(L);
  catchUp(ctx, L, ctx.out.length - 1);
  L.seen = ctx.out.length;
  const font = currentFont(ctx, L);
  const wrap = breakable && ctx.wrap === 'word';
  /** With wrap, where a line break goes in `text`: a space replaced (replace) or a break inserted (only wrap adds any). */
  const edits: { at: number; replace: boolean }[] = wrap ? [] : NO_EDITS;
  // The next tab, or on UTF-8 (astral characters kept) the next surrogate pair: a segment with
  // one is measured character by character (a pair is one character, two code units).
  const astral = ctx.text.codepage.table === null;
  let nextTab = -1;
  for (let i = 0, line = 0; ; line++) {
    const lf = text.indexOf('\n', i);
    const segEnd = lf < 0 ? text.length : lf;
    if (segEnd > i) {
      if (L.start < 0) L.start = offsetAt(offsets, line, i);
      // These two only choose between the fast path below and measure(), which counts a segment
      // that has no tab or pair and fits exactly as the fast path does.
      // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,UnaryOperator: a stale or recomputed index only sends a segment to measure(), which counts a tab- and pair-free segment that fits as the fast path does (a stale index reset to +1 is below i, so below segEnd: measure() too)
      if (nextTab >= 0 && nextTab < i) nextTab = -1;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: searching again finds the same index, and never searching sends every segment to measure(), which counts as the fast path does
      if (nextTab < 0) nextTab = nextTabOrPair(text, i, astral);
      const n = segEnd - i;
      if (nextTab >= segEnd && L.used + n * font.cost <= font.line) {
        if (wrap) {
          const space = lastSpace(text, i, segEnd);
          if (space >= 0) L.candidate = { op, index: from + space, usedAfter: L.used + (space - i + 1) * font.cost };
        }
        L.used += n * font.cost;
      } else measure(L, font, op, text, from, i, segEnd, wrap, edits);
      L.end = offsetAt(offsets, line, segEnd);
    }
    if (lf < 0) break;
    // The line ends just past its line break: the first character of the next line.
    endLine(ctx, L, offsetAt(offsets, line + 1, lf + 1));
    i = lf + 1;
  }
  if (edits.length === 0) return text;
  // A break point left in this text moves with the breaks inserted in it, all of them before it: a
  // break is inserted only when the line has no break point (the one it had is taken first), so a
  // break point left in this text is at a space after the last one.
  const candidate = L.candidate;
  if (candidate?.op === op) for (const e of edits) if (!e.replace) candidate.index++;
  return applyEdits(text, edits);
}

/** Index of the last space in `text` from `from` to `to` (excluded), or -1: only that segment is searched. */
function lastSpace(text: string, from: number, to: number): number {
  // Stryker disable next-line ArithmeticOperator: from `to + 1` it reads past the segment, which ends at the text's end (no character there) or at a line break: a space found on the next line is a break point the line's end drops at once
  for (let k = to - 1; k >= from; k--) if (text.charCodeAt(k) === 32) return k;
  return -1;
}

/**
 * Puts the breaks wrap chose at spaces of text already in an op (before the text being measured)
 * into it: once per op, when the tracker moves on to another op or at the end, so that text joined
 * piece by piece is not copied for each break.
 */
function settlePending(L: LineState): void {
  const op = L.pendingOp;
  if (op === undefined) return;
  op.text = applyEdits(op.text, L.pending.map((at) => ({ at, replace: true })));
  L.pendingOp = undefined;
  L.pending = [];
}

const TAB_OR_PAIR = /[\t\ud800-\udbff]/g;

/** Index of the first tab (or with `astral`, high surrogate) in `text` from `from`; none: 2^32 - 1. */
// Stryker disable next-line BlockStatement: an undefined index compares false to everything, so every segment goes to measure(), which counts as the fast path does
function nextTabOrPair(text: string, from: number, astral: boolean): number {
  // Stryker disable next-line StringLiteral: searching '' finds `from` itself, which only sends the segment to measure()
  if (!astral) return text.indexOf('\t', from) >>> 0;
  TAB_OR_PAIR.lastIndex = from;
  // Stryker disable next-line ArithmeticOperator: any index past every segment's end means none
  return TAB_OR_PAIR.exec(text)?.index ?? 2 ** 32 - 1;
}

/** Character by character: tabs, surrogate pairs, and a line that runs past the paper. */
function measure(L: LineState, font: Font, op: TextOp, text: string, base: number, from: number, to: number, wrap: boolean, edits: { at: number; replace: boolean }[]): void {
  for (let k = from; k < to; ) {
    const c = text.charCodeAt(k);
    const units = c >= 0xd800 && c <= 0xdbff && k + 1 < to ? 2 : 1;
    const space = c === 32 || c === 9;
    // (A tab is a space: at the end of a line it is the break, so a tab's cost never changes below.)
    const cost = c === 9 ? tabGap(L.used, font.tabStop) : font.cost;
    if (L.used > 0 && L.used + cost > font.line) {
      if (!wrap) L.over = true;
      else if (space) {
        edits.push({ at: k, replace: true });
        L.used = 0;
        L.candidate = undefined;
        k++;
        continue;
      } else {
        const candidate = L.candidate;
        if (candidate) {
          // In the text measured now, in this op's text before it (put in later), or in an op before.
          if (candidate.op !== op) candidate.op.text = applyEdits(candidate.op.text, [{ at: candidate.index, replace: true }]);
          else if (candidate.index >= base) edits.push({ at: candidate.index - base, replace: true });
          else {
            L.pendingOp = op;
            L.pending.push(candidate.index);
          }
          L.used -= candidate.usedAfter;
          L.candidate = undefined;
        }
        if (L.used + cost > font.line) {
          edits.push({ at: k, replace: false });
          L.used = 0;
        }
      }
    }
    if (wrap && space) L.candidate = { op, index: base + k, usedAfter: L.used + cost };
    L.used += cost;
    k += units;
  }
}

function applyEdits(text: string, edits: readonly { at: number; replace: boolean }[]): string {
  let out = '';
  let from = 0;
  for (const { at, replace } of edits) {
    out += text.slice(from, at) + '\n';
    from = replace ? at + 1 : at;
  }
  return out + text.slice(from);
}

/**
 * Offsets of text lowered from a text node: exact when the text is the source as written;
 * otherwise (sanitised, or an escape) per line, since sanitising keeps line breaks one for one.
 */
export function nodeOffsets(start: number, end: number, value: string, text: string): LineOffsets {
  if (text === value && end - start === value.length) return start;
  let starts: number[] | undefined;
  return {
    at(line, index) {
      if (index >= text.length) return end;
      if (line === 0) return start;
      starts ??= lineStarts(value, start);
      return starts[line] ?? end;
    },
  };
}

/** Source offsets where each line of `value` (at `start`) begins: after LF, CRLF or a lone CR. */
function lineStarts(value: string, start: number): number[] {
  const starts = [start];
  // Without CR (nearly always), by native scans for LF rather than a loop over every character.
  if (value.indexOf('\r') < 0) {
    for (let i = value.indexOf('\n'); i >= 0; i = value.indexOf('\n', i + 1)) starts.push(start + i + 1);
    return starts;
  }
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 10 || (c === 13 && value.charCodeAt(i + 1) !== 10)) starts.push(start + i + 1);
  }
  return starts;
}
