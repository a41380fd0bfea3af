// Tokens → AST: the meaning of what the parser recognises. Known tags become commands or nodes;
// everything else is text exactly as written, with `&lt;` and `&amp;` resolved; unknown tag-like
// names, bad attributes, stray and unclosed tags are diagnosed. The parser (parser.ts) calls one
// method per grammar element, in source order. `<barcode>`, `<row>` and `<cell>` put the builder in
// a mode of its own until they close (containers.ts); this file is the document around them.
import type { RawDiagnostic } from '../diagnostics.js';
import type { Document, Node } from './ast.js';
import { readTag, type TagParts } from './attributes.js';
import { Containers } from './containers.js';
import { barcodeOpen, image, noAttributes, qrAttributes, rule, textSize } from './elements.js';
import { textPieces } from './escapes.js';
import { CONTAINER_TAGS, ELEMENT_TAGS, PARTNER_TAGS, QRCODE_TAG, TAGS, unknownTag, type TagSet } from './tags.js';
import { Token, type PlainCommand, type TokenKind } from './tokens.js';

const ELEMENTS: ReadonlySet<string> = new Set(ELEMENT_TAGS);

const isCommand = (name: string) => Object.hasOwn(TAGS, name);
const isKnown = (name: string) => isCommand(name) || ELEMENTS.has(name);

/** What the builder holds between documents (nothing is ever added to it). */
const NONE: never[] = [];

export class AstBuilder {
  private source = '';
  private children: Node[] = NONE;
  private diagnostics: RawDiagnostic[] = NONE;
  /**
   * Where the next `&` of the source is, at or after the token being read (-1: none left). Most
   * receipts have none, and a text token holds one exactly when it lies inside it: no token is
   * scanned for `&` itself.
   */
  private nextAmp = -1;
  /** `tags: 'partner'`: only the partner's eight tags are commands. */
  private partner = false;
  /** The open `<barcode>`, `<row>` or `<cell>`, when there is one. */
  private readonly containers = new Containers();
  /** The containers have this document (given on first use, `box`: most receipts never need them). */
  private attached = false;

  /** Starts a document; diagnostics are appended to `diagnostics`. */
  begin(source: string, diagnostics: RawDiagnostic[], tags: TagSet): void {
    this.source = source;
    this.children = [];
    this.diagnostics = diagnostics;
    // Stryker disable next-line StringLiteral: `''` gives 0, a position at or before the first token: text() looks again from a later token, and a token with no escape goes through textWithEscapes to the same text node
    this.nextAmp = source.indexOf('&');
    this.partner = tags === 'partner';
    this.attached = false;
  }

  /** The containers, given this document first if they do not have it yet. */
  private get box(): Containers {
    if (!this.attached) {
      this.containers.begin(this.source, this.children, this.diagnostics);
      this.attached = true;
    }
    return this.containers;
  }

  end(): Document {
    if (this.attached) {
      this.containers.end();
      // Stryker disable next-line StringLiteral: only drops the finished source; box gives the containers the next document before they read it
      this.containers.begin('', NONE, NONE);
    }
    const doc: Document = { type: 'document', source: this.source, children: this.children };
    // Stryker disable next-line StringLiteral: only drops the finished source; begin() sets it before the next document
    this.source = '';
    this.children = NONE;
    this.diagnostics = NONE;
    return doc;
  }

  /**
   * One element token, `source[start, end)`, by kind (the parser's alternatives all end here: one
   * call site); `plain`: the command a Tag written `<name>` names, when the lexer found one.
   */
  token(kind: TokenKind, start: number, end: number, plain: PlainCommand | undefined): void {
    if (this.containers.open) return this.containers.token(kind, start, end);
    switch (kind) {
      case Token.Tag:
        return this.tag(start, end, plain);
      case Token.QrEmpty:
        return this.qrEmpty(start, end);
      case Token.StrayQrClose:
        return this.box.stray(QRCODE_TAG, start, end); // `</qrcode>` with no opening tag: dropped, with an error
      default:
        return this.text(start, end); // Text, or a lone `<` (LoneAngle)
    }
  }

  /** A text run (escapes resolved) or a lone `<`: printed as written. */
  private text(start: number, end: number): void {
    const image = this.source.slice(start, end);
    let amp = this.nextAmp;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: `nextAmp` is only a hint: a stale or early one sends the token to textWithEscapes, which finds no escape in it and appends the same text node, and looking again from `start` finds the same `&`
    if (amp >= 0 && amp < start) amp = this.nextAmp = this.source.indexOf('&', start);
    // Stryker disable next-line LogicalOperator: with `&&` every text goes through textWithEscapes, which appends the same node to a text with no escape
    if (amp < 0 || amp >= end) this.appendText(image, start, end);
    else this.textWithEscapes(image, start);
  }

  /**
   * A tag-like `<name …>`: a command or element if known, otherwise text with a warning. `plain`:
   * the command of a tag written `<name>`, as the lexer read it (the common case reads nothing more).
   */
  private tag(start: number, end: number, plain: PlainCommand | undefined): void {
    // Stryker disable next-line BlockStatement: without the fast path tagWithParts reads the same tag and pushes the same command node
    if (plain && (!this.partner || PARTNER_TAGS.has(plain.tag))) {
      this.children.push({ type: 'command', command: plain.command, tag: plain.tag, start, end });
      return;
    }
    this.tagWithParts(this.source.slice(start, end), start, end);
  }

  /** Any tag but a known command written `<name>` (kept apart so that the common case stays small enough to inline). */
  private tagWithParts(image: string, start: number, end: number): void {
    const parts = readTag(this.source, start);
    const { name } = parts;
    if (this.partner && isKnown(name) && !PARTNER_TAGS.has(name)) return this.disabled(image, name, start, end);
    if (parts.closing) return this.closingTag(parts, image, start, end);
    if (isCommand(name)) {
      noAttributes(name, parts, start, end, this.diagnostics);
      this.children.push({ type: 'command', command: TAGS[name]!, tag: name, start, end });
      return;
    }
    if (!ELEMENTS.has(name)) return this.unknown(image, parts, start, end);
    this.element(parts, start, end);
  }

  /** `<qrcode …/>`: a QR code with no data (lowering reports it). */
  private qrEmpty(start: number, end: number): void {
    this.children.push({ type: 'qrcode', data: '', dataStart: end, ...this.qrSettings(start, end), start, end });
  }

  /**
   * `<qrcode …>data</qrcode>`: the opening tag at [start, dataStart), the data up to `dataEnd`
   * (empty when missing), the closing tag ending at `closeEnd` (-1: missing, an unclosed qrcode).
   */
  qrcode(start: number, dataStart: number, dataEnd: number, closeEnd: number): void {
    const end = closeEnd < 0 ? dataEnd : closeEnd;
    if (this.containers.open) return this.containers.qrcode(start, end);
    if (closeEnd < 0) {
      this.diagnostics.push({
        code: 'parse/unclosed-qrcode',
        message: `<${QRCODE_TAG}> is never closed: add </${QRCODE_TAG}> after the data to encode`,
        start,
        end: dataStart,
      });
    }
    this.children.push({ type: 'qrcode', data: this.source.slice(dataStart, dataEnd), dataStart, ...this.qrSettings(start, dataStart), start, end });
  }

  /** `size` and `ecc` of a `<qrcode …>` at [start, end) that has attributes. */
  private qrSettings(start: number, end: number) {
    // `<qrcode>` and `<qrcode/>` (8 and 9 characters) have none: the common case reads nothing.
    // Stryker disable next-line ArithmeticOperator: `end + start` is `end - start` at start 0 and over 9 elsewhere (a qrcode tag is 8 or more long), so more tags are read, and one of 9 or fewer characters has no attribute
    if (end - start <= 9) return undefined;
    return qrAttributes(readTag(this.source, start), start, end, this.diagnostics);
  }

  /** An opening tag with attributes or content of its own. */
  private element(parts: TagParts, start: number, end: number): void {
    const d = this.diagnostics;
    switch (parts.name) {
      case 'textSize':
        this.children.push(textSize(parts, start, end, d));
        return;
      case 'rule':
        this.children.push(rule(parts, start, end, d));
        return;
      case 'image': {
        const node = image(parts, start, end, d);
        if (node) this.children.push(node);
        return;
      }
      case 'barcode':
        return this.box.openBarcode(barcodeOpen(parts, start, end, d), parts.selfClosing, start, end);
      case 'row':
        noAttributes('row', parts, start, end, d);
        return this.box.openRow(parts.selfClosing, start, end);
      default: // cell, outside a row
        this.box.misplaced(`<${parts.name}> must be inside a <row>: it is left out`, start, end);
    }
  }

  /** `</name>`: closes nothing here (a container's closing tag is stray), or is text. */
  private closingTag(parts: TagParts, image: string, start: number, end: number): void {
    if (CONTAINER_TAGS.has(parts.name) && !parts.selfClosing) return this.box.stray(parts.name, start, end);
    this.unknown(image, parts, start, end);
  }

  private unknown(image: string, parts: TagParts, start: number, end: number): void {
    this.diagnostics.push(unknownTag(image, parts.name, parts.closing && !parts.selfClosing, start, end));
    this.appendText(image, start, end);
  }

  /** A known tag that `tags: 'partner'` does not make a command: printed as written. */
  private disabled(image: string, name: string, start: number, end: number): void {
    this.diagnostics.push({
      code: 'parse/tag-disabled',
      message: `${image} is printed as text: with tags: 'partner' only the partner's eight tags are commands, and <${name}> is not one of them`,
      start,
      end,
    });
    this.appendText(image, start, end);
  }

  /** Text holding at least one `&`: runs as written, and each escape a node of its own. */
  private textWithEscapes(image: string, start: number): void {
    for (const p of textPieces(image, start)) {
      if (p.text.length === p.length) this.appendText(p.text, p.start, p.start + p.length);
      else this.children.push({ type: 'text', value: p.text, start: p.start, end: p.start + p.length });
    }
  }

  /** Adjacent text as written (e.g. `a`, `<`, `3`) merges into one node; an escape's node stays apart. */
  private appendText(value: string, start: number, end: number): void {
    const last = this.children[this.children.length - 1];
    if (last?.type === 'text' && last.end === start && last.value.length === last.end - last.start) {
      last.value += value;
      last.end = end;
    } else {
      this.children.push({ type: 'text', value, start, end });
    }
  }
}
