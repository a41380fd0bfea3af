// Tokens → AST: the meaning of what the parser recognises. Known tags become commands, everything
// else is text exactly as written; unknown tag-like names, stray and unclosed qrcode tags are
// diagnosed. The parser (parser.ts) calls one method per grammar element, in source order.
import type { IToken } from 'chevrotain';
import type { RawDiagnostic } from '../diagnostics.js';
import type { Document, Node } from './ast.js';
import { QRCODE_TAG, suggestTag, TAGS, type CommandName } from './tags.js';
import { QrEmpty, StrayQrClose, Tag } from './tokens.js';

const TAG_NAME = /^<(\/?)([A-Za-z][A-Za-z0-9_-]*)[ \t]*(\/?)>$/;

interface PlainTag {
  image: string;
  tag: string;
  command: CommandName;
}

/**
 * Known tags as they are written almost always (`<name>`), by length: finding one compares the
 * source with the one to three of that length, character by character — no regex, and no string
 * comparison of a fresh substring (which costs more than the scan).
 */
const PLAIN_TAGS: PlainTag[][] = [];
for (const [tag, command] of Object.entries(TAGS)) (PLAIN_TAGS[tag.length + 2] ??= []).push({ image: `<${tag}>`, tag, command });

/** The known tag written as `<name>` at `source[at, at + length)` (a Tag token), if it is one. */
function plainTag(source: string, at: number, length: number): PlainTag | undefined {
  const candidates = PLAIN_TAGS[length];
  if (candidates === undefined) return undefined;
  next: for (const known of candidates) {
    // The token starts with "<" and ends with ">": compare what lies between.
    for (let i = 1; i < length - 1; i++) if (source.charCodeAt(at + i) !== known.image.charCodeAt(i)) continue next;
    return known;
  }
  return undefined;
}

export class AstBuilder {
  private source = '';
  private children: Node[] = [];
  private diagnostics: RawDiagnostic[] = [];

  /** Starts a document; diagnostics are appended to `diagnostics`. */
  begin(source: string, diagnostics: RawDiagnostic[]): void {
    this.source = source;
    this.children = [];
    this.diagnostics = diagnostics;
  }

  end(): Document {
    const doc: Document = { type: 'document', source: this.source, children: this.children };
    this.source = '';
    this.children = [];
    this.diagnostics = [];
    return doc;
  }

  /** One element token, by kind (the parser's alternatives all end here: one call site). */
  token(token: IToken): void {
    switch (token.tokenType) {
      case Tag:
        return this.tag(token);
      case QrEmpty:
        return this.qrEmpty(token);
      case StrayQrClose:
        return this.strayClose(token);
      default:
        return this.text(token); // Text, or a lone `<` (LoneAngle)
    }
  }

  /** A text run or a lone `<`: printed as written. */
  text(token: IToken): void {
    const start = token.startOffset;
    this.appendText(token.image, start, start + token.image.length);
  }

  /** A tag-like `<name>`: a command if known, otherwise text with a warning. */
  tag(token: IToken): void {
    const { image } = token;
    const start = token.startOffset;
    const end = start + image.length;
    const plain = plainTag(this.source, start, image.length);
    if (plain) {
      this.children.push({ type: 'command', command: plain.command, tag: plain.tag, start, end });
      return;
    }
    const [, closing, name, selfClosing] = TAG_NAME.exec(image)!;
    const command = closing ? undefined : TAGS[name!];
    if (command) {
      this.children.push({ type: 'command', command, tag: name!, start, end });
      return;
    }
    this.diagnostics.push(unknownTag(image, name!, closing === '/' && !selfClosing, start, end));
    this.appendText(image, start, end);
  }

  /** `<qrcode/>`: a QR code with no data (lowering reports it). */
  qrEmpty(token: IToken): void {
    const start = token.startOffset;
    const end = start + token.image.length;
    this.children.push({ type: 'qrcode', data: '', dataStart: end, start, end });
  }

  /** `</qrcode>` with no opening tag: dropped, with an error. */
  strayClose(token: IToken): void {
    const start = token.startOffset;
    this.diagnostics.push({
      code: 'parse/stray-closing-tag',
      message: `</${QRCODE_TAG}> without an opening <${QRCODE_TAG}>`,
      start,
      end: start + token.image.length,
    });
  }

  /** `<qrcode>data</qrcode>`; data and the closing tag may be missing (an unclosed qrcode). */
  qrcode(open: IToken, data: IToken | undefined, close: IToken | undefined): void {
    const start = open.startOffset;
    const dataStart = start + open.image.length;
    const last = close ?? data ?? open;
    const end = last.startOffset + last.image.length;
    if (!close) {
      this.diagnostics.push({
        code: 'parse/unclosed-qrcode',
        message: `<${QRCODE_TAG}> is never closed: add </${QRCODE_TAG}> after the data to encode`,
        start,
        end: dataStart,
      });
    }
    this.children.push({ type: 'qrcode', data: data?.image ?? '', dataStart, start, end });
  }

  /** Adjacent text (e.g. `a`, `<`, `3`) merges into one node. */
  private appendText(value: string, start: number, end: number): void {
    const last = this.children[this.children.length - 1];
    if (last?.type === 'text' && last.end === start) {
      last.value += value;
      last.end = end;
    } else {
      this.children.push({ type: 'text', value, start, end });
    }
  }
}

function unknownTag(image: string, name: string, closing: boolean, start: number, end: number): RawDiagnostic {
  const known = suggestTag(name);
  let hint = '';
  if (known && closing && known !== QRCODE_TAG) hint = `; <${known}> takes no closing tag`;
  else if (known && known !== name) hint = `; did you mean <${known}>?`;
  return { code: 'parse/unknown-tag', message: `unknown tag ${image} is printed as text${hint}`, start, end };
}
