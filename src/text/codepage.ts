// Code pages, built once each from iconv-lite's own mapping: a lookup table (UTF-16 code unit →
// byte, or -1 where the code page lacks the character) and, derived from it, one regular
// expression that finds the first character needing the sanitiser. Clean text — the common case —
// is then checked by one native regex scan instead of a loop in JavaScript.
//
// The pages printers select with ESC t come from a file generated from iconv-lite (and tested
// against it), stored packed and unpacked when first used. iconv-lite itself is loaded only for any other page a profile names, and only in
// Node (found by a feature check, not imported): elsewhere such a page is a clear error.
import { cacheMap, lazy } from '../caches.js';
import { nodeRequire } from '../node-require.js';
import { PACKED_CODEPAGES } from './codepages.generated.js';
import { unpackPage } from './packed-page.js';

type Iconv = typeof import('iconv-lite');
const iconv = lazy((): Iconv | undefined => {
  try {
    return nodeRequire()?.('iconv-lite') as Iconv | undefined;
  } catch {
    // Not installed (a bundle without it): as outside Node.
  }
  return undefined;
});

const unpacked = cacheMap<string, string>();

/** The 256 characters of a built-in page (by lower-case name), unpacked on first use; undefined for any other page. */
export function builtinChars(key: string): string | undefined {
  if (!Object.hasOwn(PACKED_CODEPAGES, key)) return undefined;
  let chars = unpacked.get(key);
  if (chars === undefined) {
    chars = unpackPage(PACKED_CODEPAGES[key]!);
    unpacked.set(key, chars);
  }
  return chars;
}

/** The character of each of the 256 bytes of a single-byte code page (U+FFFD where none). */
export function codepageChars(encoding: string): string {
  const key = encoding.toLowerCase();
  const builtin = builtinChars(key);
  if (builtin !== undefined) return builtin;
  const lib = iconv();
  if (!lib) throw new Error(`code page "${encoding}" is not built in (${Object.keys(PACKED_CODEPAGES).join(', ')}); others need iconv-lite, in Node`);
  if (!lib.encodingExists(key)) throw new Error(`unknown code page "${encoding}"`);
  const all = Uint8Array.from({ length: 256 }, (_, b) => b);
  const decoded = lib.decode(all as Parameters<Iconv['decode']>[0], key);
  if (decoded.length !== 256) throw new Error(`code page "${encoding}" is not a single-byte code page`);
  return decoded;
}

/**
 * Bytes → text (the disassembler's text runs): through a built-in page, as UTF-8, or through
 * iconv-lite in Node (the runtime's TextDecoder elsewhere); undefined for an encoding none knows.
 */
export function decodeBytes(bytes: Uint8Array, encoding: string): string | undefined {
  const key = encoding.toLowerCase();
  const chars = builtinChars(key);
  if (chars !== undefined) {
    let text = '';
    for (let i = 0; i < bytes.length; i++) text += chars[bytes[i]!];
    return text;
  }
  if (key === 'utf8' || key === 'utf-8') return new TextDecoder().decode(bytes);
  const lib = iconv();
  if (lib) return lib.encodingExists(encoding) ? lib.decode(bytes as Parameters<Iconv['decode']>[0], encoding) : undefined;
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    // A RangeError: an encoding this runtime does not know either.
  }
  return undefined;
}

/** Char code → byte, -1 where absent. `null` for UTF-8 output, where every character encodes. */
export type CodepageTable = Int16Array | null;

export interface Codepage {
  /** Display name for messages ("CP850", "UTF-8"). */
  readonly name: string;
  readonly table: CodepageTable;
  /**
   * Matches every character that may need the sanitiser: C0/C1 controls other than TAB and LF,
   * surrogates, Latin-1 characters the page lacks, and any character above Latin-1 (whether the
   * page has one is a table lookup: a class listing them all makes the regex several times
   * slower). Text it does not match prints as is. Not global: `test` only.
   */
  readonly suspect: RegExp;
  /** The same class, global: the sanitiser's `exec` loop from one such character to the next. */
  readonly findSuspect: RegExp;
}

const pages = cacheMap<string, Codepage>();

/** The code page for an encoding name (`cp850`, `cp860`, `utf8`…), built on first use. */
export function codepage(encoding: string): Codepage {
  const key = encoding.toLowerCase();
  let page = pages.get(key);
  if (page === undefined) {
    page = key === 'utf8' || key === 'utf-8' ? utf8Page() : singleBytePage(encoding);
    pages.set(key, page);
  }
  return page;
}

/** The lookup table of a single-byte code page, or null for `utf8`. */
export function codepageTable(encoding: string): CodepageTable {
  return codepage(encoding).table;
}

/** The blocks of combining marks a letter can be followed by, as a regex class body. */
const COMBINING_MARKS = '\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f';

/**
 * Characters that print nothing, as a regex class body: zero-width spaces and joiners, the bidi
 * marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A–202E, U+2066–2069), word
 * joiner and invisible operators, the BOM. The sanitiser removes them, silently (sanitize.ts); on
 * UTF-8 output this class is how it gets to see them (every single-byte page's class takes in
 * everything above Latin-1).
 */
export const INVISIBLE = '\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';

/**
 * Plain text encodes every character, so the sanitiser only needs to see controls, surrogates,
 * combining marks (to compose them with their letter) and invisible characters (to remove them).
 */
function utf8Page(): Codepage {
  return makePage('UTF-8', null, '\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\ud800-\\udfff' + COMBINING_MARKS + INVISIBLE);
}

function singleBytePage(encoding: string): Codepage {
  const decoded = codepageChars(encoding);
  const table = new Int16Array(65536).fill(-1);
  // From the last byte down, so that a character a page has at two bytes maps to the first.
  for (let b = 255; b >= 0; b--) {
    const c = decoded.charCodeAt(b);
    if (c !== 0xfffd && !isCommandByte(b, c) && !isMovedAscii(b, c)) table[c] = b;
  }
  // A character the page has whose NFC is another one it lacks (Mac Roman's ohm sign U+2126, whose
  // NFC is Greek Ω U+03A9): the page writes that one with it too, the same text (canonically equivalent).
  // The guards below hold for every such character of iconv-lite's 351 pages (seven, test/text/codepages.test.ts),
  // so their mutants live (bench/MUTATION.md): a character at a command byte or at a second byte is
  // not written with that byte, an NFC of two characters stands in for none, and one the page has keeps its own byte.
  // Stryker disable next-line EqualityOperator: no page's last byte (0xFF) holds such a character
  for (let b = 0x80; b < 0x100; b++) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: no such character is at a command byte or at a second byte
    const nfc = table[decoded.charCodeAt(b)] === b ? decoded[b]!.normalize('NFC') : '';
    // Stryker disable next-line ConditionalExpression,LogicalOperator: each one's NFC is one character, which the page lacks
    if (nfc.length === 1 && table[nfc.charCodeAt(0)] === -1) table[nfc.charCodeAt(0)] = b;
  }
  // NBSP (U+00A0) is left to the sanitiser, which prints every kind of space as a plain one.
  // Printable ASCII only where the page keeps it (isMovedAscii): ISO646-CN reads 0x24 as ¥.
  const printable = (c: number) => c === 9 || c === 10 || (((c >= 0x20 && c < 0x7f) || c > 0xa0) && table[c] !== -1);
  // Display name for messages: "CP850" (UTF-8 never gets here).
  return makePage(encoding.toUpperCase(), table, `^${ranges(printable, 0xff)}`);
}

/**
 * A C0 byte or DEL that a page gives to a letter (TCVN and VISCII put Vietnamese capitals there:
 * Ự is 0x12, DC2): a printer takes the byte as a command, so the letter counts as absent from the
 * page (transliterated or replaced, with a warning). Only TAB and LF reach the table as themselves.
 */
function isCommandByte(b: number, c: number): boolean {
  return (b < 0x20 || b === 0x7f) && c !== b;
}

/**
 * An ASCII character at a byte other than its own. Text within ASCII is written as itself, byte for
 * byte (emit/encode-text.ts), so a page that reads its own byte as another character (ISO646-CN and
 * ISO646-JP read 0x24 or 0x5C as ¥ and 0x7E as ‾, CP864 0x25 as ٪) lacks the ASCII one: it is
 * transliterated or replaced, with a warning, never sent as the byte the printer reads otherwise.
 */
// Stryker disable next-line BlockStatement: no page of iconv-lite's has an ASCII character only at another byte (ARMSCII-8's second ( ) , - . are overwritten by their own bytes, the loop going down), and the table's check in `printable` refuses one the page lacks: kept for a page a later iconv-lite adds
function isMovedAscii(b: number, c: number): boolean {
  return c < 0x80 && c !== b;
}

function makePage(name: string, table: CodepageTable, suspectClass: string): Codepage {
  return { name, table, suspect: new RegExp(`[${suspectClass}]`), findSuspect: new RegExp(`[${suspectClass}]`, 'g') };
}

/** The code units up to `max` where `keep` holds, as regex class ranges (`\u0009-\u000a\u0020-\u007e…`, a lone one as `\u00ff-\u00ff`). */
function ranges(keep: (c: number) => boolean, max: number): string {
  const hex = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;
  // Stryker disable next-line StringLiteral: text in front adds printable ASCII, which the (negated) class keeps anyway
  let out = '';
  for (let c = 0; c <= max; c++) {
    if (!keep(c)) continue;
    let last = c;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: merging only shortens the class (no merge lists the same code units); going past max needs a page with both U+00FF and U+0100, and none of iconv-lite's 351 single-byte encodings has both
    while (last < max && keep(last + 1)) last++;
    out += `${hex(c)}-${hex(last)}`; // a lone code unit too, as a range of one
    c = last;
  }
  return out;
}
