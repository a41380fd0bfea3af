// bobina's lexer as it was written with chevrotain 13 (src/parse/tokens.ts up to the hand-written
// lexer), kept as the oracle of test/parse/lexer-oracle.test.ts: the same token definitions, the
// same two modes, built with chevrotain's definition checks on and full position tracking.
import { createToken, Lexer, type CustomPatternMatcherReturn } from 'chevrotain';

const QR_CLOSE = /<\/qrcode[ \t]*>/y;

function match(text: string, start: number, end: number): CustomPatternMatcherReturn | null {
  return end <= start ? null : [text.substring(start, end)];
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

const NAME = '[A-Za-z][A-Za-z0-9_-]*';
const ATTRIBUTES = `(?:[ \\t]+${NAME}(?:[ \\t]*=[ \\t]*(?:"[^"<\\r\\n]*"|[^\\s"<>=]+))?)*`;

const QrOpen = createToken({ name: 'QrOpen', pattern: new RegExp(`<qrcode${ATTRIBUTES}[ \\t]*>`, 'y'), push_mode: 'qr' });
const QrEmpty = createToken({ name: 'QrEmpty', pattern: new RegExp(`<qrcode${ATTRIBUTES}[ \\t]*\\/>`, 'y') });
const StrayQrClose = createToken({ name: 'StrayQrClose', pattern: /<\/qrcode[ \t]*>/y });
const Tag = createToken({
  name: 'Tag',
  pattern: new RegExp(`<(?!qrcode(?![A-Za-z0-9_-])|\\/qrcode[ \\t]*>)\\/?${NAME}${ATTRIBUTES}[ \\t]*\\/?>`, 'y'),
});
const LoneAngle = createToken({ name: 'LoneAngle', pattern: '<' });
const Text = createToken({ name: 'Text', pattern: { exec: matchText }, line_breaks: true });
const QrData = createToken({ name: 'QrData', pattern: { exec: matchQrData }, line_breaks: true });
const QrClose = createToken({ name: 'QrClose', pattern: /<\/qrcode[ \t]*>/y, pop_mode: true });

export const chevrotainDefinition = {
  modes: {
    text: [Text, Tag, QrOpen, QrEmpty, StrayQrClose, LoneAngle],
    qr: [QrClose, QrData],
  },
  defaultMode: 'text',
};

/** Built with chevrotain's definition checks (lexerDefinitionErrors) and line/column tracking. */
export const chevrotainLexer = new Lexer(chevrotainDefinition, { positionTracking: 'full', safeMode: true });
