// Tokens of the conteudo language. Two lexer modes: normal text with tags, and the payload of a
// `<qrcode>` (where only `</qrcode>` ends the payload). Every input lexes: a `<` that starts no tag
// is the LAngle token, so the lexer has no error path.
//
// Text and QR payload are "everything up to the next `<` / `</qrcode>`": complement sets that
// chevrotain cannot analyse as regexes, so they are custom matchers (a native `indexOf` scan) with
// explicit start characters. That keeps the lexer's first-character optimisation on: a text run
// tries one pattern, a `<` tries only the patterns that start with `<`.
import { createToken, Lexer, type CustomPatternMatcherReturn } from 'chevrotain';

const LT = 0x3c;
const QR_CLOSE = /<\/qrcode[ \t]*>/y;

/**
 * Start characters for "any character": each one below 256, and above that one per group of 255
 * (chevrotain files characters above 255 in buckets of 255 for this optimisation). A test lexes
 * every UTF-16 code unit, so a change of that bucketing cannot go unnoticed.
 */
const ANY: number[] = [];
for (let c = 0, bucket = -1; c < 0x10000; c++) {
  const b = c < 0x100 ? c : 0xff + Math.floor(c / 0xff);
  if (b !== bucket) ANY.push(c);
  bucket = b;
}
const ANY_BUT_LT = ANY.filter((c) => c !== LT);

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

/** `<qrcode>` opens the payload mode. */
export const QrOpen = createToken({ name: 'QrOpen', pattern: /<qrcode[ \t]*>/, push_mode: 'qr' });
/** `<qrcode/>`: an empty QR code. */
export const QrEmpty = createToken({ name: 'QrEmpty', pattern: /<qrcode[ \t]*\/>/ });
/** `</qrcode>` in normal text: a stray closing tag. */
export const StrayQrClose = createToken({ name: 'StrayQrClose', pattern: /<\/qrcode[ \t]*>/ });
/**
 * Any other tag-like `<name>`, `</name>` or `<name/>`: known or not, the AST builder decides.
 * Tried first among the tokens starting with `<` (most of them are tags), so it steps aside for
 * the three qrcode forms; the lookahead hides its first character from chevrotain, hence the hint.
 */
export const Tag = createToken({
  name: 'Tag',
  pattern: /<(?!qrcode[ \t]*\/?>|\/qrcode[ \t]*>)\/?[A-Za-z][A-Za-z0-9_-]*[ \t]*\/?>/,
  start_chars_hint: ['<'],
});
/** A `<` that starts no tag: printed as written. */
export const LAngle = createToken({ name: 'LAngle', pattern: '<' });
/** A run of text without `<`. */
export const Text = createToken({
  name: 'Text',
  pattern: { exec: matchText },
  start_chars_hint: ANY_BUT_LT,
  line_breaks: true,
});

/** The payload of a QR code: anything up to `</qrcode>`. */
export const QrData = createToken({
  name: 'QrData',
  pattern: { exec: matchQrData },
  start_chars_hint: ANY,
  line_breaks: true,
});
/** `</qrcode>` ends the payload mode. */
export const QrClose = createToken({ name: 'QrClose', pattern: /<\/qrcode[ \t]*>/, pop_mode: true });

export const allTokens = [QrOpen, QrEmpty, StrayQrClose, Tag, LAngle, Text, QrData, QrClose];

/** The two lexer modes; each mode's patterns are tried in this order. */
export const lexerDefinition = {
  modes: {
    text: [Tag, QrOpen, QrEmpty, StrayQrClose, LAngle, Text],
    qr: [QrClose, QrData],
  },
  defaultMode: 'text',
};

/**
 * Built once at module load; `tokenize` is reentrant. chevrotain's definition checks are skipped
 * here (they cost milliseconds at every start) and run in the tests, on a lexer built with them.
 */
export const lexer = new Lexer(lexerDefinition, { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations: true });
