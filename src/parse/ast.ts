// The AST: a flat list of nodes, each with the [start, end) offsets of the source it came from.
import type { CommandName } from './tags.js';

export interface TextNode {
  type: 'text';
  /** The text exactly as written (newlines and all; sanitising is lowering's job). */
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

export interface QrCodeNode {
  type: 'qrcode';
  /** The payload between `<qrcode>` and `</qrcode>`, exactly as written. */
  data: string;
  /** Offset where `data` starts in the source. */
  dataStart: number;
  start: number;
  end: number;
}

export type Node = TextNode | CommandNode | QrCodeNode;

export interface Document {
  type: 'document';
  /** The parsed source, kept so later stages can report lines and columns. */
  source: string;
  children: Node[];
}
