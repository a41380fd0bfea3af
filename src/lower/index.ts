// lower: AST + profile → IR. The only pass that looks at capabilities. One lowering per node type
// (the table below), each in a file of its own; they share the context of context.ts.
import type { RawDiagnostic } from '../diagnostics.js';
import type { Document, Node } from '../parse/ast.js';
import type { Profile } from '../profiles/index.js';
import { codepage } from '../text/codepage.js';
import { lowerBarcode } from './barcode.js';
import { lowerCommand, lowerTextSize } from './commands.js';
import { initialState, type LowerContext, type Lowerings } from './context.js';
import { lowerImage } from './image.js';
import { OutputLimitReached, type CompileLimits, type OutputBudget } from '../limits.js';
import type { ImageSources } from './image.js';
import type { Op } from './ir.js';
import { lowerRow, lowerRule } from './layout.js';
import { finishLines, newLineState } from './layout-lines.js';
import { lowerQr } from './qr.js';
import { lowerText } from './text.js';

/** Node type → its lowering. */
const LOWERINGS: Lowerings = {
  text: lowerText,
  command: lowerCommand,
  qrcode: lowerQr,
  textSize: lowerTextSize,
  barcode: lowerBarcode,
  image: lowerImage,
  row: lowerRow,
  rule: lowerRule,
};

function internalError(node: Node, error: unknown): RawDiagnostic {
  const what = node.type === 'text' ? 'text' : node.type === 'command' ? `<${node.tag}>` : `<${node.type}>`;
  const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    code: 'lower/internal-error',
    message: `internal error while lowering ${what} (${cause}): a bug in bobina or a broken install, not a problem in the content; nothing was printed for it`,
    start: node.start,
    end: node.end,
  };
}

export interface LowerResult {
  ops: Op[];
}

/** What lowering takes besides the document and the profile. */
export interface LowerOptions {
  /** Images `<image src="name">` may name (compile's `images`). */
  images?: ImageSources;
  /** The job's limits (per image: maxImagePixels); DEFAULT_LIMITS when absent. */
  limits?: Pick<CompileLimits, 'maxImagePixels'>;
  /** `'word'`: lines wider than the paper are wrapped at spaces (compile's `wrap`); default `'none'`. */
  wrap?: 'none' | 'word';
  /** The job's output budget (compile's maxOutputBytes): lowering stops at the element that passes it. None: no bound. */
  budget?: OutputBudget;
}

/** Lowers a document for one profile; diagnostics are appended to `diagnostics`. */
export function lowerRaw(ast: Document, profile: Profile, diagnostics: RawDiagnostic[], options: LowerOptions = {}): Op[] {
  const ctx = lowerContext(profile, diagnostics, options);
  for (const node of ast.children) {
    try {
      // Text and commands are nearly every node of a receipt: called directly, without the table's
      // keyed lookup (megamorphic once a receipt has both); every other node through the table.
      // Stryker disable StringLiteral: a type no node has sends text or a command through LOWERINGS, which lowers it with lowerText or lowerCommand all the same
      if (node.type === 'text') lowerText(node, ctx);
      else if (node.type === 'command') lowerCommand(node, ctx);
      else (LOWERINGS[node.type] as (node: Node, ctx: LowerContext) => void)(node, ctx);
    } catch (error) {
      // Past the job's output budget: nothing after this element is built (compile names the place).
      if (error instanceof OutputLimitReached) break;
      // A failure of bobina itself (a bug, a broken install) is reported as itself, on the node
      // it hit, and never as a user-facing code such as lower/qr-too-long.
      diagnostics.push(internalError(node, error));
    }
  }
  // Stryker restore StringLiteral
  finishLines(ctx);
  return ctx.out;
}

/**
 * A fresh lowering context: nothing written yet, the initial state in force. Every field is there
 * from the start (undefined when absent), so every context has one shape and the lowerings' loads
 * from it stay monomorphic.
 */
export function lowerContext(profile: Profile, diagnostics: RawDiagnostic[], options: LowerOptions = {}): LowerContext {
  return {
    profile,
    out: [],
    diagnostics,
    text: { codepage: codepage(profile.codepage.encoding), printer: profile.printer, diagnostics },
    state: initialState(),
    limits: options.limits,
    images: options.images,
    wrap: options.wrap,
    budget: options.budget,
    line: newLineState(),
    lastText: undefined,
  };
}

export { OUTCOMES } from './commands.js';
export type { Op, OpName, Align, Bitmap, Ecc, HriPosition, TextStyle } from './ir.js';
export type { LowerContext, LowerState, Lowering } from './context.js';
