// The AST: a flat list of nodes, each with the [start, end) offsets of the source it came from.
// Attribute values are checked and defaulted by parse, so lowering reads plain fields.
import type { CommandName } from './tags.js';

export interface TextNode {
  type: 'text';
  /**
   * The text it prints, with `&lt;` and `&amp;` resolved (newlines and all; sanitising is
   * lowering's job). A node holds either text exactly as written (`value` is the source between
   * `start` and `end`) or one escape (`value` is `<` or `&`, the span is the escape), never both,
   * so an offset inside `value` is an offset in the source.
   */
  value: string;
  start: number;
  end: number;
}

export interface CommandNode {
  type: 'command';
  command: CommandName;
  /** The tag name as written. */
  tag: string;
  start: number;
  end: number;
}

/** QR error correction levels. */
export type QrEcc = 'L' | 'M' | 'Q' | 'H';

export interface QrCodeNode {
  type: 'qrcode';
  /** The payload between `<qrcode>` and `</qrcode>`, exactly as written. */
  data: string;
  /** Offset where `data` starts in the source. */
  dataStart: number;
  /** `size="N"`: module size in dots; absent = the profile's. */
  size?: number;
  /** `ecc="L|M|Q|H"`: error correction; absent = the profile's. */
  ecc?: QrEcc;
  start: number;
  end: number;
}

/** `<textSize width="W" height="H">`: W and H are integers 1–8 (default 1: normal size). */
export interface TextSizeNode {
  type: 'textSize';
  width: number;
  height: number;
  start: number;
  end: number;
}

export type BarcodeSymbology = 'ean13' | 'ean8' | 'upca' | 'code39' | 'code128' | 'itf' | 'codabar';
export type BarcodeTextPosition = 'none' | 'above' | 'below' | 'both';

/** `<barcode type="T" height="H" module="M" text="…">DATA</barcode>`, attributes defaulted. */
export interface BarcodeNode {
  type: 'barcode';
  symbology: BarcodeSymbology;
  /** Bar height in dots (default 80). */
  height: number;
  /** Narrow bar width in dots (default 2). */
  module: number;
  /** Where the human-readable line goes (default 'below'). */
  text: BarcodeTextPosition;
  /** Exactly as written between the tags (checked per symbology by lowering). */
  data: string;
  /** Offset where `data` starts in the source. */
  dataStart: number;
  start: number;
  end: number;
}

export type Dither = 'floyd-steinberg' | 'atkinson' | 'threshold';

/** `<image src="…" width="W" dither="…"/>`: `src` is a data: URI or the name of an image in `options.images`. */
export interface ImageNode {
  type: 'image';
  src: string;
  /** Dots; absent = the image's own width, at most the printable width. */
  width?: number;
  /** Default 'floyd-steinberg'. */
  dither: Dither;
  start: number;
  end: number;
}

export type CellAlign = 'left' | 'center' | 'right';

/** `<cell width="N|N*" align="…">text</cell>`, inside a row. */
export interface CellNode {
  type: 'cell';
  /** `width="N"`: N columns; `width="N*"`: N shares of what the fixed cells leave; absent = `{ share: 1 }`. */
  width: { columns: number } | { share: number };
  /** Default 'left'. */
  align: CellAlign;
  /** The cell's text, escapes resolved. */
  text: string;
  /**
   * Where the text came from, piece by piece, as text nodes hold it: text as written (the source at
   * `start`) or one escape (`<` or `&`, from `&lt;` or `&amp;` at `start`); joined, they are `text`.
   * Diagnostics about a character point into its piece. An AST built without them (or whose pieces
   * no longer make `text`) has its text taken as written from `textStart`.
   */
  pieces?: ReadonlyArray<{ text: string; start: number }>;
  /** Where the cell's content starts and ends in the source (between `<cell …>` and `</cell>`). */
  textStart: number;
  textEnd: number;
  start: number;
  end: number;
}

/** `<row>…</row>`: cells laid out by lowering from the profile's columns for the font in force. */
export interface RowNode {
  type: 'row';
  cells: CellNode[];
  start: number;
  end: number;
}

/** `<rule/>` or `<rule char="="/>`: a line across the columns. */
export interface RuleNode {
  type: 'rule';
  /** One character (default '-'). */
  char: string;
  /** Where `char="…"`'s value starts in the source, when it was written (diagnostics about it point there). */
  charStart?: number;
  start: number;
  end: number;
}

export type Node = TextNode | CommandNode | QrCodeNode | TextSizeNode | BarcodeNode | ImageNode | RowNode | RuleNode;

export type NodeType = Node['type'];

export interface Document {
  type: 'document';
  /** The parsed source, kept so later stages can report lines and columns. */
  source: string;
  children: Node[];
}
