// The tags with attributes: what each takes (types, ranges, defaults), as data, and the node each
// opening tag makes. Ranges are the language's, the same for every printer; a model's own limits
// are lowering's (clamped there, with a warning).
import type { RawDiagnostic } from '../diagnostics.js';
import type { BarcodeNode, BarcodeSymbology, BarcodeTextPosition, CellAlign, CellNode, Dither, ImageNode, QrEcc, RuleNode, TextSizeNode } from './ast.js';
import { checkAttributes, type AttributeSpecs, type TagParts, type ValueType } from './attributes.js';
import type { ElementTag } from './tags.js';

const DIGITS = /^[0-9]{1,9}$/;

function integer(min: number, max: number): ValueType<number> {
  return {
    read: (v) => {
      if (!DIGITS.test(v)) return undefined;
      const n = Number(v);
      return n >= min && n <= max ? n : undefined;
    },
    expected: `a whole number from ${min} to ${max}`,
  };
}

function oneOf<T extends string>(...values: T[]): ValueType<T> {
  return { read: (v) => (values.includes(v as T) ? (v as T) : undefined), expected: `one of ${values.join(', ')}` };
}

const CELL_WIDTH = /^([0-9]{1,3})?(\*)?$/;

/** `N` columns (1–999), or `N*` (`*` alone: 1*) shares of what the fixed cells leave. */
const cellWidth: ValueType<CellNode['width']> = {
  read: (v) => {
    const m = CELL_WIDTH.exec(v);
    if (!m || (m[1] === undefined && m[2] === undefined)) return undefined;
    const n = m[1] === undefined ? 1 : Number(m[1]);
    if (n < 1) return undefined;
    return m[2] ? { share: n } : { columns: n };
  },
  expected: 'N columns or N* shares (N from 1 to 999)',
};

/**
 * One printable character (a surrogate pair is one), not a control character: as written, or in its
 * composed form (`e` and a combining acute, as typed on some keyboards, are `é`). A few characters
 * NFC splits in two (U+2ADC, U+FB1D…) are taken as written.
 */
const character: ValueType<string> = {
  read: (v) => {
    const composed = v.normalize('NFC');
    const c = [...composed].length === 1 ? composed : v;
    return [...c].length === 1 && !/[\x00-\x1f\x7f-\x9f]/.test(c) ? c : undefined;
  },
  expected: 'one printable character',
};

const nonEmpty: ValueType<string> = { read: (v) => (v.length > 0 ? v : undefined), expected: 'a data:image/png;base64,… URI or the name of an image passed to compile()' };

export const SYMBOLOGIES: readonly BarcodeSymbology[] = ['ean13', 'ean8', 'upca', 'code39', 'code128', 'itf', 'codabar'];
export const DITHERS: readonly Dither[] = ['floyd-steinberg', 'atkinson', 'threshold'];

/** Every attribute of every tag that takes one. Command tags (tags.ts) take none. */
export const ATTRIBUTE_SPECS: Readonly<Record<ElementTag, AttributeSpecs>> = {
  qrcode: { size: { type: integer(1, 16) }, ecc: { type: oneOf<QrEcc>('L', 'M', 'Q', 'H') } },
  textSize: { width: { type: integer(1, 8) }, height: { type: integer(1, 8) } },
  barcode: {
    type: { type: oneOf(...SYMBOLOGIES), required: true },
    height: { type: integer(1, 255) },
    module: { type: integer(1, 6) },
    text: { type: oneOf<BarcodeTextPosition>('none', 'above', 'below', 'both') },
  },
  image: { src: { type: nonEmpty, required: true }, width: { type: integer(1, 65535) }, dither: { type: oneOf(...DITHERS) } },
  row: {},
  cell: { width: { type: cellWidth }, align: { type: oneOf<CellAlign>('left', 'center', 'right') } },
  rule: { char: { type: character } },
};

/** The defaults of attributes left out (or refused). */
export const DEFAULTS = Object.freeze({
  textSize: { width: 1, height: 1 },
  barcode: { height: 80, module: 2, text: 'below' as BarcodeTextPosition },
  image: { dither: 'floyd-steinberg' as Dither },
  cell: { align: 'left' as CellAlign },
  rule: { char: '-' },
});

type Checked = Record<string, unknown>;

function check(tag: ElementTag, parts: TagParts, start: number, end: number, diagnostics: RawDiagnostic[]) {
  return checkAttributes(tag, parts, ATTRIBUTE_SPECS[tag], start, end, diagnostics);
}

/** The QR code's own attributes (the node is built with its payload). */
export function qrAttributes(parts: TagParts, start: number, end: number, diagnostics: RawDiagnostic[]): { size?: number; ecc?: QrEcc } {
  const { values } = check('qrcode', parts, start, end, diagnostics);
  const out: { size?: number; ecc?: QrEcc } = {};
  if (values.size !== undefined) out.size = values.size as number;
  if (values.ecc !== undefined) out.ecc = values.ecc as QrEcc;
  return out;
}

export function textSize(parts: TagParts, start: number, end: number, diagnostics: RawDiagnostic[]): TextSizeNode {
  const v: Checked = check('textSize', parts, start, end, diagnostics).values;
  const d = DEFAULTS.textSize;
  return { type: 'textSize', width: (v.width as number) ?? d.width, height: (v.height as number) ?? d.height, start, end };
}

/** An image, or undefined (with an error) when it has no valid src. */
export function image(parts: TagParts, start: number, end: number, diagnostics: RawDiagnostic[]): ImageNode | undefined {
  const { values: v, ok } = check('image', parts, start, end, diagnostics);
  if (!ok) return undefined;
  const node: ImageNode = { type: 'image', src: v.src as string, dither: (v.dither as Dither) ?? DEFAULTS.image.dither, start, end };
  if (v.width !== undefined) node.width = v.width as number;
  return node;
}

export function rule(parts: TagParts, start: number, end: number, diagnostics: RawDiagnostic[]): RuleNode {
  const v = check('rule', parts, start, end, diagnostics).values;
  const node: RuleNode = { type: 'rule', char: (v.char as string) ?? DEFAULTS.rule.char, start, end };
  const written = parts.attributes.find((a) => a.name === 'char');
  if (v.char !== undefined && written) node.charStart = written.valueStart;
  return node;
}

/** A barcode's settings from its opening tag (data and end come with its closing tag), or undefined without a valid type. */
export function barcodeOpen(parts: TagParts, start: number, end: number, diagnostics: RawDiagnostic[]): Omit<BarcodeNode, 'type' | 'data' | 'dataStart' | 'end'> | undefined {
  const { values: v, ok } = check('barcode', parts, start, end, diagnostics);
  if (!ok) return undefined;
  const d = DEFAULTS.barcode;
  return {
    symbology: v.type as BarcodeSymbology,
    height: (v.height as number) ?? d.height,
    module: (v.module as number) ?? d.module,
    text: (v.text as BarcodeTextPosition) ?? d.text,
    start,
  };
}

/** A cell's settings from its opening tag (text and end come with its closing tag). */
export function cellOpen(parts: TagParts, start: number, end: number, diagnostics: RawDiagnostic[]): Pick<CellNode, 'type' | 'width' | 'align' | 'start'> {
  const v = check('cell', parts, start, end, diagnostics).values;
  const d = DEFAULTS.cell;
  return { type: 'cell', width: (v.width as CellNode['width']) ?? { share: 1 }, align: (v.align as CellAlign) ?? d.align, start };
}

/** Attributes on a tag that takes none (a command, `<row>`, a closing tag): each one a warning. */
export function noAttributes(tag: string, parts: TagParts, start: number, end: number, diagnostics: RawDiagnostic[]): void {
  if (parts.attributes.length > 0) checkAttributes(tag, parts, {}, start, end, diagnostics);
}
