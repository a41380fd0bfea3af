// fast-check generators for conteudo: real tags, near-miss tags, tags with attributes (valid and
// not), escapes, control bytes, CR/LF, unicode.
import fc from 'fast-check';
import { TAGS } from '../../src/index.js';
import { ATTRIBUTE_SPECS } from '../../src/parse/elements.js';

const knownTag = fc.constantFrom(...Object.keys(TAGS).map((t) => `<${t}>`), '<paperCutFull/>', '<qrcode/>');
const nearMiss = fc.constantFrom('<', '<<', '<3', '<b>', '</b>', '<foo>', '</qrcode>', '<qrcode>', '<textalignleft>', '< textAlignLeft>', '<paperCut', '>', '</barcode>', '</row>', '</cell>', '<cell>', '<row>');
const control = fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f).map((c) => String.fromCharCode(c));
const newline = fc.constantFrom('\n', '\r\n', '\r');
const word = fc.string({ unit: 'grapheme', maxLength: 12 });
const latin = fc.constantFrom('ç', 'ã', 'õ', 'á', 'é', 'í', 'ó', 'ú', 'â', 'ê', 'ô', 'à', 'ü', 'Ç', 'Ã', '€', '“', '—', '😀', '\u00a0');
const qrcode = fc.string({ minLength: 1, maxLength: 60 }).map((s) => `<qrcode>${s.replace(/<\/qrcode/g, '')}</qrcode>`);

/** Escapes, and `&` sequences that are not escapes. */
export const escapeLike = fc.constantFrom('&lt;', '&amp;', '&gt;', '&', '&amp', '&lt', '&amp;lt;', '&#60;');

/** Tag names that take attributes, and some that do not. */
const elementName = fc.constantFrom(...Object.keys(ATTRIBUTE_SPECS), 'textBoldOn', 'paperCutFull', 'b');
/** Attribute names each tag takes, mis-cased ones and unknown ones. */
const attributeName = fc.constantFrom(...new Set(Object.values(ATTRIBUTE_SPECS).flatMap((s) => Object.keys(s))), 'Width', 'foo', 'x-y');
/** Attribute values: valid ones of every tag, and any string (quotes, "<", line breaks included). */
export const attributeValue = fc.oneof(
  fc.constantFrom('1', '2', '8', '9', '0', '80', '255', '256', '3*', '*', 'ean13', 'code128', 'itf', 'below', 'none', 'L', 'H', 'right', 'atkinson', '=', '&lt;', 'logo', ''),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const attribute = fc
  .tuple(fc.constantFrom(' ', '  ', '\t'), attributeName, fc.constantFrom('quoted', 'quoted', 'quoted', 'bare', 'none'), attributeValue)
  .map(([blank, name, form, value]) => (form === 'quoted' ? `${blank}${name}="${value}"` : form === 'bare' ? `${blank}${name}=${value}` : `${blank}${name}`));
/** A tag with attributes, closed or self-closed, followed (sometimes) by content and a closing tag. */
export const extensionTag = fc
  .tuple(elementName, fc.array(attribute, { maxLength: 3 }), fc.boolean(), fc.option(word), fc.boolean())
  .map(([name, attrs, selfClosing, content, close]) => `<${name}${attrs.join('')}${selfClosing ? '/' : ''}>${content ?? ''}${close ? `</${name}>` : ''}`);
/** A row of cells, some with attributes, with text (and hostile pieces) in them. */
export const row = fc
  .array(fc.tuple(fc.array(attribute, { maxLength: 2 }), fc.oneof(word, escapeLike, knownTag, nearMiss)), { maxLength: 4 })
  .map((cells) => `<row>${cells.map(([attrs, text]) => `<cell${attrs.join('')}>${text}</cell>`).join('\n')}</row>`);

/** Any conteudo-like string: mostly plausible receipts, with hostile pieces mixed in. */
export const conteudo = fc
  .array(fc.oneof({ weight: 4, arbitrary: word }, knownTag, nearMiss, control, newline, latin, qrcode, extensionTag, row, escapeLike, fc.string({ unit: 'binary', maxLength: 8 })), { maxLength: 40 })
  .map((parts) => parts.join(''));

/** QR payloads of printable text (ASCII and accented), as POS systems send them. */
export const qrPayload = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), latin), minLength: 1, maxLength: 200 }).filter((s) => !s.includes('</qrcode'));
