// AST nodes and IR ops built by hand, as the public lower() and emit() take them: each checked
// against its shape (a table per node type and per op name: the parser's own attribute ranges), and
// each op lowered again as compile lowers the construct it stands for, so a hand-built op gets the
// same text sanitising, the same capability outcomes and the same fallbacks as compile's. compile()
// never comes here: it lowers and emits only what it built itself.
//
// Before: emit([{ op: 'condensed', on: true }, { op: 'text', text: 'a\x1bp' }]) on the Elgin i9
// After:  [text "ap"] + warnings lower/condensed-unsupported, text/control-removed
// Before: [{ op: 'feed', lines: -1 }]
// After:  [] + error emit/invalid-op naming the field
import { once } from '../caches.js';
import type { RawDiagnostic } from '../diagnostics.js';
import type { CommandNode, Document, Node, NodeType } from '../parse/ast.js';
import { TAGS, type CommandName } from '../parse/tags.js';
import type { Profile } from '../profiles/index.js';
import { lowerBarcode } from './barcode.js';
import { COMMAND_LOWERINGS, lowerTextSize } from './commands.js';
import type { LowerContext } from './context.js';
import { isBitmap, lowerImage } from './image.js';
import { lowerContext, lowerRaw, type LowerOptions } from './index.js';
import type { Op, OpName } from './ir.js';
import { lowerQr } from './qr.js';
import { arrayOf, boolean, integer, numberAttribute, offset, oneOf, optional, shapeError, show, string, stringAttribute, type Field, type Shape } from './shape.js';
import { lowerText } from './text.js';

const commandName: Field = (v) => typeof v === 'string' && Object.hasOwn(COMMAND_LOWERINGS, v);
const cellWidth: Field = (v) => {
  const w = v as { columns?: unknown; share?: unknown } | null;
  if (typeof w !== 'object' || w === null) return false;
  return 'columns' in w ? integer(1, 999)(w.columns) : integer(1, 999)(w.share);
};
// The tables below are made on first use (as the functions that read them): a bundle of compile()
// alone, which never checks a hand-built value, then leaves them out (once(): no call when this
// module loads). Kept by caches.ts, so that mutation testing, which empties those before each
// test, sees a mutant in the tables.
const buildTables = (): { nodes: NodeShapes; ops: HandBuiltOps; tagOf: Record<CommandName, string> } => ({
  nodes: nodeShapes(), ops: handBuiltOps(), tagOf: Object.fromEntries(Object.entries(TAGS).map(([tag, command]) => [command, tag])) as Record<CommandName, string>,
});
const tables = () => once(buildTables);

type NodeShapes = { readonly [K in NodeType]: Shape };

/** Node type → what its fields must hold. A new node type is a new row. */
const nodeShapes = (): NodeShapes => {
  const piece: Field = (v) => typeof v === 'object' && v !== null && string((v as { text?: unknown }).text) && offset((v as { start?: unknown }).start);
  const CELL: Shape = {
    type: oneOf('cell'), width: cellWidth, align: stringAttribute('cell', 'align'), text: string, pieces: optional(arrayOf(piece)), textStart: offset, textEnd: offset,
  };
  const cell: Field = (v) => shapeError(v, CELL) === undefined;
  return {
    text: { value: string },
    command: { command: commandName, tag: string },
    qrcode: { data: string, dataStart: offset, size: optional(numberAttribute('qrcode', 'size')), ecc: optional(stringAttribute('qrcode', 'ecc')) },
    textSize: { width: numberAttribute('textSize', 'width'), height: numberAttribute('textSize', 'height') },
    barcode: {
      symbology: stringAttribute('barcode', 'type'),
      height: numberAttribute('barcode', 'height'),
      module: numberAttribute('barcode', 'module'),
      text: stringAttribute('barcode', 'text'),
      data: string,
      dataStart: offset,
    },
    image: { src: stringAttribute('image', 'src'), width: optional(numberAttribute('image', 'width')), dither: stringAttribute('image', 'dither') },
    row: { cells: arrayOf(cell) },
    rule: { char: stringAttribute('rule', 'char'), charStart: optional(offset) },
  };
};

/** Lowers a document built by hand: a node its shape refuses is an error (lower/invalid-node) and prints nothing. */
export function lowerDocument(ast: Document, profile: Profile, diagnostics: RawDiagnostic[], options: LowerOptions = {}): Op[] {
  const given: unknown = ast?.children;
  if (!Array.isArray(given)) {
    diagnostics.push({ code: 'lower/invalid-node', message: `lower(): the document's children are ${show(given)}, not an array of nodes: nothing is printed`, start: 0, end: 0 });
    return [];
  }
  const children: Node[] = [];
  given.forEach((node: unknown, i) => {
    const n = node as { type?: unknown; start?: unknown; end?: unknown } | null;
    const shapes = tables().nodes;
    const shape = typeof n?.type === 'string' && Object.hasOwn(shapes, n.type) ? shapes[n.type as NodeType] : undefined;
    const wrong = shape ? shapeError(n, shape) : 'type';
    if (wrong === undefined) children.push(node as Node);
    else diagnostics.push(invalid('lower/invalid-node', `lower(): node ${i}`, n, wrong));
  });
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: lowerRaw reads only the document's children (never its type or source), so no value of those two fields changes an op or a diagnostic
  return lowerRaw({ type: 'document', source: typeof ast.source === 'string' ? ast.source : '', children }, profile, diagnostics, options);
}

type OpOf<K extends OpName> = Extract<Op, { op: K }>;
/** An op's shape, and how it is lowered again: as the node it stands for, or checked as it is. */
interface OpRow<K extends OpName> {
  shape: Shape;
  lower(op: OpOf<K>, ctx: LowerContext): void;
}

function command(name: CommandName, { start, end }: Op, ctx: LowerContext): void {
  // The tag it stands for, in the messages, as compile's name the tag.
  // Stryker disable next-line StringLiteral: lowerings read no node's type (only lowerRaw dispatches on it, and these nodes never go through lowerRaw)
  const node: CommandNode = { type: 'command', command: name, tag: tables().tagOf[name], start, end };
  COMMAND_LOWERINGS[name](node, ctx);
}

const ALIGN_COMMAND = { left: 'alignLeft', center: 'alignCenter', right: 'alignRight' } as const;
/** The name images of image ops are given under, for lowerImage. */
const BITMAP = 'bitmap';

type HandBuiltOps = { readonly [K in OpName]: OpRow<K> };

/** Op name → its shape and its lowering. A new op is a new row (the type asks for it). */
const handBuiltOps = (): HandBuiltOps => ({
  align: { shape: { align: oneOf('left', 'center', 'right') }, lower: (op, ctx) => command(ALIGN_COMMAND[op.align], op, ctx) },
  condensed: { shape: { on: boolean }, lower: (op, ctx) => command(op.on ? 'condensedOn' : 'condensedOff', op, ctx) },
  style: { shape: { style: oneOf('bold', 'underline', 'invert'), on: boolean }, lower: (op, ctx) => command(`${op.style}${op.on ? 'On' : 'Off'}`, op, ctx) },
  size: {
    shape: { width: numberAttribute('textSize', 'width'), height: numberAttribute('textSize', 'height') },
    // Stryker disable next-line StringLiteral: lowerings read no node's type (only lowerRaw dispatches on it, and these nodes never go through lowerRaw)
    lower: ({ width, height, start, end }, ctx) => lowerTextSize({ type: 'textSize', width, height, start, end }, ctx),
  },
  // `latin1` is recomputed: a wrong claim would write text past Latin-1 as its low bytes.
  // Stryker disable next-line StringLiteral: lowerings read no node's type (only lowerRaw dispatches on it, and these nodes never go through lowerRaw)
  text: { shape: { text: string, latin1: optional(oneOf(true)) }, lower: ({ text, start, end }, ctx) => lowerText({ type: 'text', value: text, start, end }, ctx) },
  cut: { shape: { partial: boolean }, lower: (op, ctx) => command(op.partial ? 'cutPartial' : 'cutFull', op, ctx) },
  // The line count is the command's one byte (ESC d n), or n line feeds.
  feed: { shape: { lines: integer(0, 255) }, lower: ({ lines, start, end }, ctx) => void ctx.out.push({ op: 'feed', lines, start, end }) },
  drawer: { shape: {}, lower: (op, ctx) => command('drawerOpen', op, ctx) },
  qr: {
    shape: { data: string, size: optional(numberAttribute('qrcode', 'size')), ecc: optional(stringAttribute('qrcode', 'ecc')) },
    // Stryker disable next-line StringLiteral: lowerings read no node's type (only lowerRaw dispatches on it, and these nodes never go through lowerRaw)
    lower: ({ data, size, ecc, start, end }, ctx) => lowerQr({ type: 'qrcode', data, dataStart: start, ...(size !== undefined && { size }), ...(ecc !== undefined && { ecc }), start, end }, ctx),
  },
  barcode: {
    // `values` is lowering's own (recomputed from the data), so whatever it holds is not read.
    shape: { symbology: stringAttribute('barcode', 'type'), data: string, height: numberAttribute('barcode', 'height'), module: numberAttribute('barcode', 'module'), text: stringAttribute('barcode', 'text') },
    // Stryker disable next-line StringLiteral: lowerings read no node's type (only lowerRaw dispatches on it, and these nodes never go through lowerRaw)
    lower: ({ symbology, data, height, module, text, start, end }, ctx) => lowerBarcode({ type: 'barcode', symbology, data, dataStart: start, height, module, text, start, end }, ctx),
  },
  image: {
    shape: { bitmap: isBitmap },
    // Scaled to the paper if wider, as compile does with a bitmap it is given; the bitmap exists
    // already, so no pixel limit applies to it.
    lower: ({ bitmap, start, end }, ctx) => {
      ctx.images = { [BITMAP]: bitmap };
      lowerImage(
        {
          // Stryker disable next-line StringLiteral: lowerings read no node's type (only lowerRaw dispatches on it, and these nodes never go through lowerRaw)
          type: 'image',
          src: BITMAP,
          dither: 'threshold',
          start,
          end,
        },
        ctx,
      );
    },
  },
});

/** Lowers IR ops built by hand again: a refused op is an error (emit/invalid-op) and prints nothing. */
export function lowerOps(ops: readonly Op[], profile: Profile, diagnostics: RawDiagnostic[]): Op[] {
  const ctx = lowerContext(profile, diagnostics, {
    // Stryker disable next-line ObjectLiteral: an empty limits object leaves maxImagePixels undefined, and lowerImage's only use of it on a bitmap, `w * h > max`, is then false for every image, as with Infinity
    limits: { maxImagePixels: Infinity },
  });
  if (!Array.isArray(ops)) {
    diagnostics.push({ code: 'emit/invalid-op', message: `emit(): ops are ${show(ops)}, not an array of ops: nothing is printed`, start: 0, end: 0 });
    return ctx.out;
  }
  ops.forEach((op: unknown, i) => {
    const o = op as { op?: unknown; start?: unknown; end?: unknown } | null;
    const rows = tables().ops;
    const row = typeof o?.op === 'string' && Object.hasOwn(rows, o.op) ? (rows[o.op as OpName] as OpRow<OpName>) : undefined;
    const wrong = row ? shapeError(o, row.shape) : 'op';
    if (wrong !== undefined) diagnostics.push(invalid('emit/invalid-op', `emit(): op ${i}`, o, wrong));
    else lowerOne(row!, op as Op, ctx);
  });
  return ctx.out;
}

/** One op, lowered again; a failure of bobina itself is reported as such, on that op (as lowerRaw does). */
function lowerOne(row: OpRow<OpName>, op: Op, ctx: LowerContext): void {
  try {
    row.lower(op, ctx);
  } catch (error) {
    const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    ctx.diagnostics.push({ code: 'lower/internal-error', message: `internal error while lowering a ${op.op} op (${cause}): a bug in bobina, not a problem in the op; nothing was printed for it`, start: op.start, end: op.end });
  }
}

function invalid(code: 'lower/invalid-node' | 'emit/invalid-op', what: string, value: { start?: unknown; end?: unknown } | null, field: string): RawDiagnostic {
  const at = value && offset(value.start) && offset(value.end) && (value.end as number) >= (value.start as number) ? { start: value.start as number, end: value.end as number } : { start: 0, end: 0 };
  const held = field.includes(' ') || field.includes('/') || value === null ? '' : `: ${show((value as Record<string, unknown>)[field])}`;
  return { code, message: `${what} has an invalid ${field}${held}; nothing is printed for it`, ...at };
}
