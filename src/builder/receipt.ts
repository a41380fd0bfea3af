// receipt(): a typed, chainable builder for receipts made in code. Text given to it is always
// literal (escaped with escape()); it writes conteudo tag text and, beside it, the AST the parser
// makes of that text — offsets included, node for node — so both ways in have one meaning
// (test/builder/receipt.test.ts checks parse(b.toConteudo()).ast deep-equals b.toAst()).
// Attribute values are checked by the parser's own table (ATTRIBUTE_SPECS): a value the language
// cannot hold is a programmer error, a TypeError at the call, never a tag printed wrongly.
import { compile, type CompileOptions, type CompileResult } from '../compile.js';
import type { BarcodeNode, BarcodeSymbology, BarcodeTextPosition, CellAlign, CellNode, Dither, Document, Node, QrEcc } from '../parse/ast.js';
import { ATTRIBUTE_SPECS, DEFAULTS } from '../parse/elements.js';
import { escape, ESCAPES, textPieces } from '../parse/escapes.js';
import type { CommandName, ElementTag } from '../parse/tags.js';
import { shown } from '../shown.js';

/**
 * A cell of `.row()`: its text (literal; a number is written as `.text()` writes it), its width
 * (`N` columns or `'N*'` shares; default `'1*'`) and alignment.
 */
export interface CellSpec {
  text: string | number;
  width?: number | `${number}*`;
  align?: CellAlign;
}

export interface BarcodeOptions {
  /** Bar height in dots, 1–255 (default 80). */
  height?: number;
  /** Narrow bar width in dots, 1–6 (default 2). */
  module?: number;
  /** Where the human-readable line goes (default `'below'`). */
  text?: BarcodeTextPosition;
}

export interface QrCodeOptions {
  /** Module size in dots, 1–16 (default: the printer profile's). */
  size?: number;
  /** Error correction (default: the printer profile's). */
  ecc?: QrEcc;
}

export interface ImageOptions {
  /** Width in dots (default: the image's own, at most the printable width). */
  width?: number;
  /** Default `'floyd-steinberg'`. */
  dither?: Dither;
}

/** What a value may not hold in an attribute (the tag would end or break there; `<` and `&` are written escaped). */
const ATTRIBUTE_BREAK = /["\r\n]/;
const QR_CLOSE = /<\/qrcode[ \t]*>/;
const BARCODE_BREAK = /<\/barcode|<qrcode/;
const SPECIAL = /[&<]/g;

/**
 * A receipt built in code. Every method appends to it and returns it; text is printed exactly as
 * given (a `<cashDrawerOpen>` in a product name prints as those characters and opens nothing).
 *
 * @example
 * import { receipt } from 'bobina';
 * const { bytes, diagnostics } = receipt()
 *   .align('center').bold().line('PADARIA BOBINA').bold(false)
 *   .rule()
 *   .row([{ text: '2x', width: 4 }, { text: productName }, { text: 'R$ 9,90', width: 10, align: 'right' }])
 *   .rule('=')
 *   .qrcode('https://example.com/nfce?p=123', { ecc: 'M' })
 *   .cut('partial')
 *   .compile({ printer: 'MAKER5T20' });
 */
export class ReceiptBuilder {
  private source = '';
  private readonly nodes: Node[] = [];

  /** Text alignment for what follows. */
  align(align: 'left' | 'center' | 'right'): this {
    const tags = { left: ['textAlignLeft', 'alignLeft'], center: ['textAlignCenter', 'alignCenter'], right: ['textAlignRight', 'alignRight'] } as const;
    const entry = Object.hasOwn(tags, align) ? tags[align] : undefined;
    if (!entry) throw new TypeError(`align: expected 'left', 'center' or 'right', not ${JSON.stringify(align)}`);
    return this.command(entry[0], entry[1]);
  }

  /** Bold on (default) or off, until turned off. */
  bold(on = true): this {
    return on ? this.command('textBoldOn', 'boldOn') : this.command('textBoldOff', 'boldOff');
  }

  /** Underline on (default) or off, until turned off. */
  underline(on = true): this {
    return on ? this.command('textUnderlineOn', 'underlineOn') : this.command('textUnderlineOff', 'underlineOff');
  }

  /** White on black on (default) or off, until turned off. */
  invert(on = true): this {
    return on ? this.command('textInvertOn', 'invertOn') : this.command('textInvertOff', 'invertOff');
  }

  /** Condensed text on (default) or off, until turned off. */
  condensed(on = true): this {
    return on ? this.command('textCondensedOn', 'condensedOn') : this.command('textCondensedOff', 'condensedOff');
  }

  /** Character size, width and height multipliers 1–8 (`size()`: normal; `size(2)`: 2×2). */
  size(width = 1, height = width): this {
    const w = checked('textSize', 'width', width);
    const h = checked('textSize', 'height', height);
    const start = this.append(`<textSize width="${w}" height="${h}">`);
    this.nodes.push({ type: 'textSize', width: w as number, height: h as number, start, end: this.source.length });
    return this;
  }

  /** Text, printed exactly as given (line breaks included): written as `escape(text)`. */
  text(text: string): this {
    const s = String(text);
    let from = 0;
    for (const m of s.matchAll(SPECIAL)) {
      if (m.index > from) this.plainText(s.slice(from, m.index));
      const escape = m[0] === '<' ? '&lt;' : '&amp;';
      const start = this.append(escape);
      this.nodes.push({ type: 'text', value: ESCAPES[escape]!, start, end: this.source.length });
      from = m.index + 1;
    }
    if (from < s.length) this.plainText(from === 0 ? s : s.slice(from));
    return this;
  }

  /** Text and a line break. */
  line(text = ''): this {
    return this.text(`${text}\n`);
  }

  /** A 1D barcode of `data` (checked per symbology when compiled). */
  barcode(type: BarcodeSymbology, data: string, options: BarcodeOptions = {}): this {
    const d = String(data);
    if (BARCODE_BREAK.test(d)) throw new TypeError(`barcode: data ${JSON.stringify(d)} cannot be written inside <barcode> (it holds </barcode or <qrcode)`);
    const symbology = checked('barcode', 'type', type) as BarcodeSymbology;
    const settings: Pick<BarcodeNode, 'height' | 'module' | 'text'> = { ...DEFAULTS.barcode };
    let tag = `<barcode type="${symbology}"`;
    for (const name of ['height', 'module', 'text'] as const) {
      if (options[name] === undefined) continue;
      (settings as Record<string, unknown>)[name] = checked('barcode', name, options[name]);
      tag += ` ${name}="${options[name]}"`;
    }
    const start = this.append(tag + '>');
    const dataStart = this.append(d);
    this.append('</barcode>');
    this.nodes.push({ type: 'barcode', symbology, ...settings, data: d, dataStart, start, end: this.source.length });
    return this;
  }

  /** A QR code of `data` (any text; UTF-8 encoded). */
  qrcode(data: string, options: QrCodeOptions = {}): this {
    const d = String(data);
    if (QR_CLOSE.test(d)) throw new TypeError(`qrcode: data ${JSON.stringify(d)} cannot be written inside <qrcode> (it holds </qrcode>)`);
    const settings: { size?: number; ecc?: QrEcc } = {};
    let tag = '<qrcode';
    for (const name of ['size', 'ecc'] as const) {
      if (options[name] === undefined) continue;
      (settings as Record<string, unknown>)[name] = checked('qrcode', name, options[name]);
      tag += ` ${name}="${options[name]}"`;
    }
    const start = this.append(tag + '>');
    const dataStart = this.append(d);
    this.append('</qrcode>');
    this.nodes.push({ type: 'qrcode', data: d, dataStart, ...settings, start, end: this.source.length });
    return this;
  }

  /** An image: a `data:image/png;base64,…` URI, or the name of an image passed to compile's `images`. */
  image(src: string, options: ImageOptions = {}): this {
    const s = checked('image', 'src', src) as string;
    let tag = `<image src="${escape(s)}"`;
    const node = { type: 'image' as const, src: s, dither: DEFAULTS.image.dither, start: 0, end: 0 } as Extract<Node, { type: 'image' }>;
    if (options.width !== undefined) {
      node.width = checked('image', 'width', options.width) as number;
      tag += ` width="${options.width}"`;
    }
    if (options.dither !== undefined) {
      node.dither = checked('image', 'dither', options.dither) as Dither;
      tag += ` dither="${options.dither}"`;
    }
    node.start = this.append(tag + '/>');
    node.end = this.source.length;
    this.nodes.push(node);
    return this;
  }

  /**
   * A row of cells laid out across the paper (a string, or a number as `.text()` writes it, is a
   * cell of that text, width `1*`).
   */
  row(cells: readonly (CellSpec | string | number)[]): this {
    if (!Array.isArray(cells)) throw new TypeError(`row: expected an array of cells, not ${shown(cells)}`);
    // Every cell is checked before anything is written, so a wrong call leaves the builder as it was.
    const checkedCells = cells.map((cell: unknown, index) => {
      const { text, width, align } = cellSpec(cell, index);
      let tag = '<cell';
      let w: CellNode['width'] = { share: 1 };
      if (width !== undefined) {
        w = checked('cell', 'width', width) as CellNode['width'];
        tag += ` width="${width}"`;
      }
      if (align !== undefined) tag += ` align="${checked('cell', 'align', align)}"`;
      return { tag: tag + '>', text: String(text ?? ''), width: w, align: align ?? DEFAULTS.cell.align };
    });
    const start = this.append('<row>');
    const nodes: CellNode[] = [];
    for (const { tag, text: t, width, align } of checkedCells) {
      const cellStart = this.append(tag);
      const written = escape(t);
      const textStart = this.append(written);
      const pieces = textPieces(written, textStart).map(({ text, start }) => ({ text, start }));
      const textEnd = this.append('</cell>');
      nodes.push({ type: 'cell', width, align, text: t, pieces, textStart, textEnd, start: cellStart, end: this.source.length });
    }
    this.append('</row>');
    this.nodes.push({ type: 'row', cells: nodes, start, end: this.source.length });
    return this;
  }

  /** A line across the paper, of `char` (one printable character; default `-`). */
  rule(char?: string): this {
    if (char === undefined) {
      const start = this.append('<rule/>');
      this.nodes.push({ type: 'rule', char: DEFAULTS.rule.char, start, end: this.source.length });
      return this;
    }
    const c = checked('rule', 'char', char) as string;
    const start = this.append('<rule char="');
    const charStart = this.append(escape(c));
    this.append('"/>');
    this.nodes.push({ type: 'rule', char: c, start, end: this.source.length, charStart });
    return this;
  }

  /** Feeds the profile's lines of paper. */
  feed(): this {
    return this.command('paperFeed', 'feed');
  }

  /** Cuts the paper: `'full'` (default) or `'partial'` (a full cut on a printer without one). */
  cut(mode: 'full' | 'partial' = 'full'): this {
    if (mode !== 'full' && mode !== 'partial') throw new TypeError(`cut: expected 'full' or 'partial', not ${JSON.stringify(mode)}`);
    return mode === 'full' ? this.command('paperCutFull', 'cutFull') : this.command('paperCutPartial', 'cutPartial');
  }

  /** Opens the cash drawer. */
  drawer(): this {
    return this.command('cashDrawerOpen', 'drawerOpen');
  }

  /** The receipt as conteudo: tags, and text escaped so it prints as given. */
  toConteudo(): string {
    return this.source;
  }

  /** The AST the parser makes of toConteudo() (a copy: changing it changes nothing here). */
  toAst(): Document {
    return { type: 'document', source: this.source, children: structuredClone(this.nodes) };
  }

  /** `compile(this.toConteudo(), options)`. */
  compile(options: CompileOptions): CompileResult {
    return compile(this.source, options);
  }

  private command(tag: string, command: CommandName): this {
    const start = this.append(`<${tag}>`);
    this.nodes.push({ type: 'command', command, tag, start, end: this.source.length });
    return this;
  }

  /** Text with neither `<` nor `&`: joins the text node before it, as the parser joins text as written. */
  private plainText(value: string): void {
    const start = this.append(value);
    const last = this.nodes[this.nodes.length - 1];
    if (last?.type === 'text' && last.end === start && last.value.length === last.end - last.start) {
      last.value += value;
      last.end = this.source.length;
    } else this.nodes.push({ type: 'text', value, start, end: this.source.length });
  }

  /** Appends to the conteudo; returns where it starts. */
  private append(s: string): number {
    const start = this.source.length;
    this.source += s;
    return start;
  }
}

/**
 * A cell of `.row()` as a CellSpec: a string or a number is the cell's text; an object's text is a
 * string or a number too (absent or null: an empty cell). Anything else is a TypeError.
 */
function cellSpec(cell: unknown, index: number): CellSpec {
  if (typeof cell === 'string' || typeof cell === 'number') return { text: String(cell) };
  if (typeof cell !== 'object' || cell === null || Array.isArray(cell)) {
    throw new TypeError(`row: cell ${index}: expected a string, a number or { text, width?, align? }, not ${shown(cell)}`);
  }
  const { text } = cell as { text?: unknown };
  if (text != null && typeof text !== 'string' && typeof text !== 'number') throw new TypeError(`row: cell ${index}: text: expected a string or a number, not ${shown(text)}`);
  return cell as CellSpec;
}

/** `value` as the parser reads it for `tag`'s attribute `name`; a TypeError when it cannot be written or read. */
function checked(tag: ElementTag, name: string, value: unknown): unknown {
  const spec = ATTRIBUTE_SPECS[tag][name]!;
  const text = String(value);
  const read = ATTRIBUTE_BREAK.test(text) ? undefined : spec.type.read(text);
  if (read === undefined) throw new TypeError(`${tag} ${name}: expected ${spec.type.expected}, not ${shown(value)}`);
  return read;
}

/**
 * Starts a receipt built in code: a typed, chainable builder whose text is always literal.
 *
 * @example
 * const { bytes } = receipt().align('center').line('Olá!').cut().compile({ printer: 5 });
 */
export function receipt(): ReceiptBuilder {
  return new ReceiptBuilder();
}
