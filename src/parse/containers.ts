// The tags that hold content until their closing tag, as the AST builder meets them: `<barcode>`
// (its data exactly as written, whatever it holds), `<row>` (only cells, and blanks between them)
// and `<cell>` (text, escapes resolved; an unknown tag in it is text, as anywhere). What cannot
// go where it is found is an error and is left out; an unclosed one is an error at its opening tag.
//
// Before: <row> <cell width="3">1x</cell><cell align="right">9,90</cell> </row>
// After:  row [cell {columns 3} "1x", cell {share 1} right "9,90"]
import type { RawDiagnostic } from '../diagnostics.js';
import type { BarcodeNode, CellNode, Node } from './ast.js';
import { readTag, type TagParts } from './attributes.js';
import { cellOpen, noAttributes } from './elements.js';
import { textPieces } from './escapes.js';
import { ELEMENT_TAGS, TAGS, unknownTag } from './tags.js';
import { Token, type TokenKind } from './tokens.js';

/** What is open. */
const Mode = { None: 0, Barcode: 1, Row: 2, Cell: 3 } as const;
type Mode = (typeof Mode)[keyof typeof Mode];

const BLANK = /^[ \t\r\n]*$/;
const KNOWN: ReadonlySet<string> = new Set([...Object.keys(TAGS), ...ELEMENT_TAGS]);

type BarcodeSettings = Omit<BarcodeNode, 'type' | 'data' | 'dataStart' | 'end'>;

export class Containers {
  private source = '';
  private children: Node[] = [];
  private diagnostics: RawDiagnostic[] = [];
  private mode: Mode = Mode.None;
  /** The open barcode's settings (undefined when its tag was refused: its data is still skipped). */
  private barcode: BarcodeSettings | undefined;
  private openStart = 0;
  private openEnd = 0;
  private cells: CellNode[] = [];
  private rowStart = 0;
  private rowOpenEnd = 0;
  private cell: Pick<CellNode, 'type' | 'width' | 'align' | 'start'> | undefined;
  private cellText = '';
  /** Where the open cell's text came from (CellNode.pieces). */
  private cellPieces: Array<{ text: string; start: number }> = [];

  begin(source: string, children: Node[], diagnostics: RawDiagnostic[]): void {
    this.source = source;
    this.children = children;
    this.diagnostics = diagnostics;
    this.mode = Mode.None;
    this.barcode = undefined;
    this.cell = undefined;
  }

  /** A container is open: every token goes to it. */
  get open(): boolean {
    return this.mode !== Mode.None;
  }

  /** At the end of the source: whatever is still open is closed there, with an error. */
  end(): void {
    const end = this.source.length;
    if (this.mode === Mode.Barcode) {
      this.unclosed('barcode', 'its data', this.openStart, this.openEnd);
      this.closeBarcode(end, end);
    }
    if (this.mode === Mode.Cell) {
      this.unclosed('cell', 'its text', this.cell!.start, this.openEnd);
      this.closeCell(end, end);
    }
    if (this.mode === Mode.Row) {
      this.unclosed('row', 'its cells', this.rowStart, this.rowOpenEnd);
      this.closeRow(end);
    }
  }

  openBarcode(settings: BarcodeSettings | undefined, selfClosing: boolean, start: number, end: number): void {
    this.barcode = settings;
    this.openStart = start;
    this.openEnd = end;
    if (selfClosing) this.closeBarcode(end, end);
    else this.mode = Mode.Barcode;
  }

  openRow(selfClosing: boolean, start: number, end: number): void {
    this.cells = [];
    this.rowStart = start;
    this.rowOpenEnd = end;
    if (selfClosing) this.closeRow(end);
    else this.mode = Mode.Row;
  }

  /** A token, `source[start, end)`, while a container is open. */
  token(kind: TokenKind, start: number, end: number): void {
    if (this.mode === Mode.Barcode) {
      // Its data is everything up to </barcode>, tags and all.
      if (kind === Token.Tag && this.source.startsWith('</barcode', start) && this.closes(readTag(this.source, start), 'barcode', start, end)) this.closeBarcode(start, end);
      return;
    }
    if (this.mode === Mode.Cell) return this.inCell(kind, start, end);
    // In a row, between cells.
    const image = this.source.slice(start, end);
    if (kind === Token.Text && BLANK.test(image)) return;
    if (kind === Token.Text || kind === Token.LoneAngle) return this.misplaced('text outside a <cell> is left out of the <row>', start, end);
    if (kind === Token.Tag) {
      const parts = readTag(this.source, start);
      if (parts.name === 'cell' && !parts.closing) return this.openCell(parts, start, end);
      if (this.closes(parts, 'row', start, end)) return this.closeRow(end);
    }
    this.misplaced(`${image} cannot go in a <row> outside its cells: it is left out`, start, end);
  }

  /** A whole `<qrcode>…</qrcode>` while a container is open: part of a barcode's data, or misplaced. */
  qrcode(start: number, end: number): void {
    if (this.mode === Mode.Barcode) return;
    this.misplaced(`<qrcode> cannot go in a <${this.mode === Mode.Cell ? 'cell' : 'row'}>: it is left out`, start, end);
  }

  /** A closing tag with nothing open to close. */
  stray(name: string, start: number, end: number): void {
    this.diagnostics.push({ code: 'parse/stray-closing-tag', message: `</${name}> without an opening <${name}>`, start, end });
  }

  misplaced(message: string, start: number, end: number): void {
    this.diagnostics.push({ code: 'parse/misplaced-content', message, start, end });
  }

  private inCell(kind: TokenKind, start: number, end: number): void {
    const image = this.source.slice(start, end);
    if (kind === Token.Text) {
      for (const p of textPieces(image, start)) this.addToCell(p.text, p.start);
      return;
    }
    if (kind === Token.LoneAngle) {
      this.addToCell('<', start);
      return;
    }
    if (kind !== Token.Tag) return this.misplaced(`${image} cannot go in a <cell> (only text can): it is left out`, start, end);
    const parts = readTag(this.source, start);
    if (this.closes(parts, 'cell', start, end)) return this.closeCell(start, end);
    if (parts.name === 'cell' && !parts.closing) {
      this.unclosed('cell', 'its text', this.cell!.start, this.openEnd);
      this.closeCell(start, start);
      return this.openCell(parts, start, end);
    }
    if (this.closes(parts, 'row', start, end)) {
      this.unclosed('cell', 'its text', this.cell!.start, this.openEnd);
      this.closeCell(start, start);
      return this.closeRow(end);
    }
    if (KNOWN.has(parts.name)) return this.misplaced(`${image} cannot go in a <cell> (only text can): it is left out; put it before the <row>`, start, end);
    this.diagnostics.push(unknownTag(image, parts.name, parts.closing && !parts.selfClosing, start, end));
    this.addToCell(image, start);
  }

  private addToCell(text: string, start: number): void {
    this.cellText += text;
    this.cellPieces.push({ text, start });
  }

  /** The tag is `</name>` (attributes on it are ignored, with a warning each). */
  private closes(parts: TagParts, name: string, start: number, end: number): boolean {
    if (!parts.closing || parts.selfClosing || parts.name !== name) return false;
    noAttributes(`/${name}`, parts, start, end, this.diagnostics);
    return true;
  }

  private openCell(parts: TagParts, start: number, end: number): void {
    this.cell = cellOpen(parts, start, end, this.diagnostics);
    this.cellText = '';
    this.cellPieces = [];
    this.openEnd = end;
    if (parts.selfClosing) this.closeCell(end, end);
    else this.mode = Mode.Cell;
  }

  /** Ends the open cell: its text ends at `textEnd`, the cell (with its closing tag) at `end`. */
  private closeCell(textEnd: number, end: number): void {
    const { type, width, align, start } = this.cell!;
    this.cells.push({ type, width, align, text: this.cellText, pieces: this.cellPieces, textStart: this.openEnd, textEnd, start, end });
    this.cell = undefined;
    this.mode = Mode.Row;
  }

  private closeRow(end: number): void {
    this.children.push({ type: 'row', cells: this.cells, start: this.rowStart, end });
    this.mode = Mode.None; // (openRow gives the next row its own cells)
  }

  private closeBarcode(dataEnd: number, end: number): void {
    const b = this.barcode;
    if (b) {
      const { symbology, height, module, text, start } = b;
      this.children.push({ type: 'barcode', symbology, height, module, text, data: this.source.slice(this.openEnd, dataEnd), dataStart: this.openEnd, start, end });
    }
    this.barcode = undefined;
    this.mode = Mode.None;
  }

  private unclosed(name: string, what: string, start: number, end: number): void {
    this.diagnostics.push({ code: 'parse/unclosed-tag', message: `<${name}> is never closed: add </${name}> after ${what}`, start, end });
  }
}
