// Tokens of the conteudo language. Two lexer modes: normal text with tags, and the payload of a
// `<qrcode>` (where only `</qrcode>` ends the payload). Every input lexes: a `<` that starts no tag
// is the LoneAngle token, so the lexer has no error path.
//
// Text and QR payload are "everything up to the next `<` / `</qrcode>`": custom matchers (a native
// `indexOf` scan). The lexer runs without chevrotain's first-character optimisation: building its
// tables cost more at every start than they save on a receipt, and the order of each mode does the
// same job — a text run matches its first pattern, and Text gives way at once on a `<`.
// Every RegExp pattern carries the sticky flag `y`, which chevrotain gives them anyway: a flagged
// pattern is one chevrotain does not parse (its ASCII-class fast path takes only unflagged ones),
// so with the options below the lexer never parses a RegExp, and the build leaves chevrotain's
// RegExp parser out (scripts/chevrotain-trim.mjs).
import { createToken, Lexer, type CustomPatternMatcherReturn } from 'chevrotain';

const QR_CLOSE = /<\/qrcode[ \t]*>/y;

/** One result array for every custom match: chevrotain reads it at once and keeps only the image. */
const matched: [string] = [''];
function match(text: string, start: number, end: number): CustomPatternMatcherReturn | null {
  if (end <= start) return null;
  matched[0] = text.substring(start, end);
  return matched;
}

/** Text: up to the next `<` (or the end). */
function matchText(text: string, offset: number): CustomPatternMatcherReturn | null {
  const lt = text.indexOf('<', offset);
  return match(text, offset, lt < 0 ? text.length : lt);
}

/** QR payload: up to the next `</qrcode>` (spaces and tabs allowed before `>`), or the end. */
function matchQrData(text: string, offset: number): CustomPatternMatcherReturn | null {
  let at = offset;
  for (;;) {
    const lt = text.indexOf('</qrcode', at);
    if (lt < 0) return match(text, offset, text.length);
    QR_CLOSE.lastIndex = lt;
    if (QR_CLOSE.test(text)) return match(text, offset, lt);
    at = lt + 1;
  }
}

/** A tag or attribute name. */
const NAME = '[A-Za-z][A-Za-z0-9_-]*';
/**
 * The attributes a tag may carry, each after blanks: `name="value"` (no `"`, `<` or line break in
 * the value), and, so that a mistake in one is reported rather than silently printed, `name` alone
 * and `name=value` unquoted (both errors, found by the AST builder). A tag never spans lines.
 */
const ATTRIBUTES = `(?:[ \\t]+${NAME}(?:[ \\t]*=[ \\t]*(?:"[^"<\\r\\n]*"|[^\\s"<>=]+))?)*`;

/** `<qrcode …>` opens the payload mode. */
export const QrOpen = createToken({ name: 'QrOpen', pattern: new RegExp(`<qrcode${ATTRIBUTES}[ \\t]*>`, 'y'), push_mode: 'qr' });
/** `<qrcode …/>`: an empty QR code. */
export const QrEmpty = createToken({ name: 'QrEmpty', pattern: new RegExp(`<qrcode${ATTRIBUTES}[ \\t]*\\/>`, 'y') });
/** `</qrcode>` in normal text: a stray closing tag. */
export const StrayQrClose = createToken({ name: 'StrayQrClose', pattern: /<\/qrcode[ \t]*>/y });
/**
 * Any other tag-like `<name …>`, `</name>` or `<name …/>`: known or not, the AST builder decides.
 * Tried first among the tokens starting with `<` (most of them are tags), so it steps aside for
 * the qrcode forms.
 */
export const Tag = createToken({
  name: 'Tag',
  pattern: new RegExp(`<(?!qrcode(?![A-Za-z0-9_-])|\\/qrcode[ \\t]*>)\\/?${NAME}${ATTRIBUTES}[ \\t]*\\/?>`, 'y'),
});
/** A `<` that starts no tag: printed as written. */
export const LoneAngle = createToken({ name: 'LoneAngle', pattern: '<' });
/** A run of text without `<`. */
export const Text = createToken({
  name: 'Text',
  pattern: { exec: matchText },
  line_breaks: true,
});

/** The payload of a QR code: anything up to `</qrcode>`. */
export const QrData = createToken({
  name: 'QrData',
  pattern: { exec: matchQrData },
  line_breaks: true,
});
/** `</qrcode>` ends the payload mode. */
export const QrClose = createToken({ name: 'QrClose', pattern: /<\/qrcode[ \t]*>/y, pop_mode: true });

/**
 * The two lexer modes; each mode's patterns are tried in this order, so the most frequent comes
 * first: Text (which matches nothing at a `<`), then Tag, then the rarer forms; LoneAngle last.
 */
export const lexerDefinition = {
  modes: {
    text: [Text, Tag, QrOpen, QrEmpty, StrayQrClose, LoneAngle],
    qr: [QrClose, QrData],
  },
  defaultMode: 'text',
};

/**
 * Built once at module load; `tokenize` is reentrant. chevrotain's definition checks are skipped
 * here (they cost milliseconds at every start) and run in the tests, on a lexer built with them.
 * `safeMode`: no first-character tables (see the header).
 */
export const lexer = new Lexer(lexerDefinition, { positionTracking: 'onlyOffset', safeMode: true, skipValidations: true });
