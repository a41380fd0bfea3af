// Tokens of the conteudo language and the lexer that finds them. Two modes: normal text with tags,
// and the payload of a `<qrcode>` (only `</qrcode>` ends it). Every input lexes: a `<` that starts
// no tag is the LoneAngle token, so the lexer has no error path.
//
// Hand-written, where chevrotain's Lexer was: the language is eight tokens, and the generic lexer
// cost ~10 M instructions at every start, ~8% of a small receipt's compile and ~6 KB gzip of a
// browser bundle (bench/NOTES.md). Text and QR payload are native `indexOf` scans. At a
// `<`, `<name>` and `</name>` are found by a character loop (which reads a command tag's name along
// a trie of them, so the builder needs no second look); the other tag forms are sticky (`y`)
// RegExps tried in order at that offset, the first that matches wins, as in chevrotain —
// test/parse/lexer-oracle.test.ts checks that both give the same tokens.
import { TAGS, type CommandName } from './tags.js';

/** The token kinds: small integers, one per rule of grammar/conteudo.ebnf. */
export const Token = {
  /** A run of text without `<`. */
  Text: 0,
  /** Any tag-like `<name …>`, `</name>` or `<name …/>` but the qrcode forms: known or not, the AST builder decides. */
  Tag: 1,
  /** `<qrcode …>`: opens the payload mode. */
  QrOpen: 2,
  /** `<qrcode …/>`: an empty QR code. */
  QrEmpty: 3,
  /** `</qrcode>` in normal text: a stray closing tag. */
  StrayQrClose: 4,
  /** A `<` that starts no tag: printed as written. */
  LoneAngle: 5,
  /** The payload of a QR code: anything up to `</qrcode>` (or the end). */
  QrData: 6,
  /** `</qrcode>` ends the payload mode. */
  QrClose: 7,
} as const;
export type TokenKind = (typeof Token)[keyof typeof Token];
export type TokenName = keyof typeof Token;

/** Each kind's name, by kind. */
export const TOKEN_NAMES = Object.keys(Token) as TokenName[];

/** The two modes, each with its tokens in the order they are tried. */
export const LEXER_MODES: Readonly<Record<'text' | 'qr', readonly TokenName[]>> = {
  text: ['Text', 'Tag', 'QrOpen', 'QrEmpty', 'StrayQrClose', 'LoneAngle'],
  qr: ['QrClose', 'QrData'],
};

/** A tag or attribute name. */
const NAME = '[A-Za-z][A-Za-z0-9_-]*';
/**
 * The attributes a tag may carry, each after blanks: `name="value"` (no `"`, `<` or line break in
 * the value), and, so that a mistake in one is reported rather than silently printed, `name` alone
 * and `name=value` unquoted (both errors, found by the AST builder). A tag never spans lines.
 */
const ATTRIBUTES = `(?:[ \\t]+${NAME}(?:[ \\t]*=[ \\t]*(?:"[^"<\\r\\n]*"|[^\\s"<>=]+))?)*`;
const QR_CLOSE = /<\/qrcode[ \t]*>/y;

/**
 * The tokens that start with `<`, in the order they are tried at one: Tag first (most of them are
 * tags; it steps aside for the qrcode forms), LoneAngle when none matches.
 */
const ANGLE: readonly { kind: TokenKind; pattern: RegExp }[] = [
  { kind: Token.Tag, pattern: new RegExp(`<(?!qrcode(?![A-Za-z0-9_-])|\\/qrcode[ \\t]*>)\\/?${NAME}${ATTRIBUTES}[ \\t]*\\/?>`, 'y') },
  { kind: Token.QrOpen, pattern: new RegExp(`<qrcode${ATTRIBUTES}[ \\t]*>`, 'y') },
  { kind: Token.QrEmpty, pattern: new RegExp(`<qrcode${ATTRIBUTES}[ \\t]*\\/>`, 'y') },
  { kind: Token.StrayQrClose, pattern: QR_CLOSE },
];

const LT = 0x3c; // '<'
const GT = 0x3e; // '>'
const SLASH = 0x2f; // '/'

/** 1 for the characters of a name after its first ([A-Za-z0-9_-]), 2 for those that may start one ([A-Za-z]). */
const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  NAME_CHAR[c] = /[A-Za-z]/.test(ch) ? 2 : /[0-9_-]/.test(ch) ? 1 : 0;
}

/** A known command tag written `<name>`: the name and the command it gives. */
export interface PlainCommand {
  tag: string;
  command: CommandName;
}

/** A trie of the command tags' names, by UTF-16 code unit: the `<name>` loop walks it as it reads. */
interface TrieNode {
  next: (TrieNode | undefined)[];
  plain: PlainCommand | undefined;
}
const COMMAND_TRIE: TrieNode = { next: [], plain: undefined };
for (const [tag, command] of Object.entries(TAGS)) {
  let node = COMMAND_TRIE;
  for (let i = 0; i < tag.length; i++) node = node.next[tag.charCodeAt(i)] ??= { next: [], plain: undefined };
  node.plain = { tag, command };
}

/**
 * The end of the tag at `at` when it is written `<name>` or `</name>` (almost every tag is), its
 * name not `qrcode`; -1 otherwise. What the Tag pattern would match there, without a RegExp call.
 * Sets `found.plain` to the command when the tag is `<name>` of a command tag: the name is read
 * once, along the trie while it follows one.
 */
function plainTagEnd(source: string, at: number, found: { plain: PlainCommand | undefined }): number {
  let i = at + 1;
  let node: TrieNode | undefined = COMMAND_TRIE;
  // Stryker disable next-line BlockStatement: `</name>` then fails the name check at its "/" and the Tag pattern matches it instead: the same token, no command
  if (source.charCodeAt(i) === SLASH) {
    // Stryker disable next-line UpdateOperator: `i--` reads the "<" as the name's first character, which fails the name check: the Tag pattern matches instead
    i++;
    node = undefined; // a closing tag is never a command
  }
  const first = i;
  let c = source.charCodeAt(i);
  if (NAME_CHAR[c] !== 2) return -1;
  // Along a command's name (letters only) while the source follows one ...
  while (node !== undefined) {
    const next: TrieNode | undefined = c < 128 ? node.next[c] : undefined;
    if (next === undefined) break;
    node = next;
    c = source.charCodeAt(++i);
  }
  if (c === GT && node !== undefined) {
    found.plain = node.plain; // a prefix of a command's name is an unknown tag (plain undefined)
    return i + 1;
  }
  // ... then any name.
  // Stryker disable next-line UpdateOperator: `--i` walks back over the name to the "<" or "/" before it, never ">": -1, and the Tag pattern gives the same token
  while (c < 128 && NAME_CHAR[c] !== 0) c = source.charCodeAt(++i);
  // Stryker disable next-line StringLiteral: with "" every six-character name returns -1, and the Tag pattern gives the same token (it steps aside only for qrcode)
  if (c !== GT || (i - first === 6 && source.startsWith('qrcode', first))) return -1;
  found.plain = undefined;
  return i + 1;
}

/** Where the QR payload that starts at `at` ends: at the next `</qrcode>` (blanks allowed before `>`), or the end. */
function qrDataEnd(source: string, at: number): number {
  for (let lt = source.indexOf('</qrcode', at); lt >= 0; lt = source.indexOf('</qrcode', lt + 1)) {
    QR_CLOSE.lastIndex = lt;
    if (QR_CLOSE.test(source)) return lt;
  }
  return source.length;
}

/**
 * A cursor over the tokens of one source: `begin`, then `next()` until it returns false; after
 * each, `kind`, `start` and `end` ([start, end) in the source) describe the token found. Tokens
 * carry offsets only (line and column are found on demand, from the offsets: diagnostics.ts).
 *
 * @example
 * lexer.begin('a<b>');
 * while (lexer.next()) console.log(TOKEN_NAMES[lexer.kind], lexer.start, lexer.end); // Text 0 1, Tag 1 4
 */
export class Lexer {
  private source = '';
  // Stryker disable next-line BooleanLiteral: begin() sets it; before begin() the source is empty and next() returns false before reading it
  private inQr = false;
  kind: TokenKind = Token.Text;
  start = 0;
  end = 0;
  /** For a Tag written `<name>` with the name of a command tag: that command (the builder needs no second look). */
  plain: PlainCommand | undefined = undefined;

  begin(source: string): void {
    this.source = source;
    this.inQr = false;
    this.start = this.end = 0;
  }

  /** Reads the token after the last one; false at the end of the source. */
  next(): boolean {
    const source = this.source;
    const at = (this.start = this.end);
    if (at >= source.length) {
      this.source = ''; // not held after the end
      return false;
    }
    if (this.inQr) return this.qr(source, at);
    if (source.charCodeAt(at) !== LT) {
      const lt = source.indexOf('<', at);
      this.kind = Token.Text;
      this.end = lt < 0 ? source.length : lt;
      return true;
    }
    const tagEnd = plainTagEnd(source, at, this);
    if (tagEnd > 0) {
      this.kind = Token.Tag;
      this.end = tagEnd;
      return true;
    }
    this.plain = undefined;
    for (let i = 0; i < ANGLE.length; i++) {
      const { kind, pattern } = ANGLE[i]!;
      pattern.lastIndex = at;
      if (pattern.test(source)) {
        this.kind = kind;
        this.end = pattern.lastIndex;
        this.inQr = kind === Token.QrOpen;
        return true;
      }
    }
    this.kind = Token.LoneAngle;
    this.end = at + 1;
    return true;
  }

  /** In a QR payload: `</qrcode>` ends it, anything else is the payload up to one (never empty). */
  private qr(source: string, at: number): boolean {
    QR_CLOSE.lastIndex = at;
    if (QR_CLOSE.test(source)) {
      this.kind = Token.QrClose;
      this.end = QR_CLOSE.lastIndex;
      this.inQr = false;
    } else {
      this.kind = Token.QrData;
      this.end = qrDataEnd(source, at);
    }
    return true;
  }
}

/** The one lexer the parser uses (parsing is synchronous: one source at a time). */
export const lexer = new Lexer();

/** A token as a value (for tests and tools; the parser reads the cursor's fields instead). */
export interface TokenValue {
  kind: TokenName;
  image: string;
  startOffset: number;
}

/** Every token of `source`, in order. */
export function tokenize(source: string): TokenValue[] {
  const tokens: TokenValue[] = [];
  const cursor = new Lexer();
  cursor.begin(source);
  while (cursor.next()) tokens.push({ kind: TOKEN_NAMES[cursor.kind]!, image: source.slice(cursor.start, cursor.end), startOffset: cursor.start });
  return tokens;
}
