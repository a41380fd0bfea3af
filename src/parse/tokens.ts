// Tokens of the conteudo language. Two lexer modes: normal text with tags, and the payload of a
// `<qrcode>` (where only `</qrcode>` ends the payload). Every input lexes: a `<` that starts no tag
// is the LAngle token, so the lexer has no error path.
import { createToken, Lexer } from 'chevrotain';

/** `<qrcode>` opens the payload mode. */
export const QrOpen = createToken({ name: 'QrOpen', pattern: /<qrcode[ \t]*>/, push_mode: 'qr' });
/** `<qrcode/>`: an empty QR code. */
export const QrEmpty = createToken({ name: 'QrEmpty', pattern: /<qrcode[ \t]*\/>/ });
/** `</qrcode>` in normal text: a stray closing tag. */
export const StrayQrClose = createToken({ name: 'StrayQrClose', pattern: /<\/qrcode[ \t]*>/ });
/** Any other tag-like `<name>`, `</name>` or `<name/>`: known or not, the visitor decides. */
export const Tag = createToken({ name: 'Tag', pattern: /<\/?[A-Za-z][A-Za-z0-9_-]*[ \t]*\/?>/ });
/** A `<` that starts no tag: printed as written. */
export const LAngle = createToken({ name: 'LAngle', pattern: /</ });
/** A run of text without `<`. */
export const Text = createToken({ name: 'Text', pattern: /[^<]+/, line_breaks: true });

/** The payload of a QR code: anything up to `</qrcode>`. */
export const QrData = createToken({
  name: 'QrData',
  pattern: /(?:[^<]|<(?!\/qrcode[ \t]*>))+/,
  line_breaks: true,
});
/** `</qrcode>` ends the payload mode. */
export const QrClose = createToken({ name: 'QrClose', pattern: /<\/qrcode[ \t]*>/, pop_mode: true });

export const allTokens = [QrOpen, QrEmpty, StrayQrClose, Tag, LAngle, Text, QrData, QrClose];

/** Built once at module load; `tokenize` is reentrant. */
export const lexer = new Lexer(
  {
    modes: {
      text: [QrOpen, QrEmpty, StrayQrClose, Tag, LAngle, Text],
      qr: [QrClose, QrData],
    },
    defaultMode: 'text',
  },
  { positionTracking: 'onlyOffset', ensureOptimizations: false, safeMode: true },
);
