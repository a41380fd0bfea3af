// fast-check generators for conteudo: real tags, near-miss tags, control bytes, CR/LF, unicode.
import fc from 'fast-check';
import { TAGS } from '../../src/index.js';

const knownTag = fc.constantFrom(...Object.keys(TAGS).map((t) => `<${t}>`), '<paperCutFull/>', '<qrcode/>');
const nearMiss = fc.constantFrom('<', '<<', '<3', '<b>', '</b>', '<foo>', '</qrcode>', '<qrcode>', '<textalignleft>', '< textAlignLeft>', '<paperCut', '>');
const control = fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f).map((c) => String.fromCharCode(c));
const newline = fc.constantFrom('\n', '\r\n', '\r');
const word = fc.string({ unit: 'grapheme', maxLength: 12 });
const latin = fc.constantFrom('ç', 'ã', 'õ', 'á', 'é', 'í', 'ó', 'ú', 'â', 'ê', 'ô', 'à', 'ü', 'Ç', 'Ã', '€', '“', '—', '😀', '\u00a0');
const qrcode = fc.string({ minLength: 1, maxLength: 60 }).map((s) => `<qrcode>${s.replace(/<\/qrcode/g, '')}</qrcode>`);

/** Any conteudo-like string: mostly plausible receipts, with hostile pieces mixed in. */
export const conteudo = fc
  .array(fc.oneof({ weight: 4, arbitrary: word }, knownTag, nearMiss, control, newline, latin, qrcode, fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 40 })
  .map((parts) => parts.join(''));

/** QR payloads of printable text (ASCII and accented), as POS systems send them. */
export const qrPayload = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), latin), minLength: 1, maxLength: 200 }).filter((s) => !s.includes('</qrcode'));
