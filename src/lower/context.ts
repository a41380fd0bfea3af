// What each construct's lowering is given: the profile, the ops written so far, the diagnostics,
// the text context, and the state in force (which styles and font the next text prints in).
import type { RawDiagnostic } from '../diagnostics.js';
import type { Node, NodeType } from '../parse/ast.js';
import type { Profile } from '../profiles/index.js';
import type { SanitizeContext } from '../text/sanitize.js';
import type { CompileLimits, OutputBudget } from '../limits.js';
import type { ImageSources } from './image.js';
import type { Op } from './ir.js';
import type { LineState } from './layout-lines.js';

/**
 * What is in force after the ops written so far. The layout reads it (a row's columns are the
 * profile's normal or condensed columns divided by `width`); the lowering of each command that
 * changes it sets it, only when that command was really sent.
 */
export interface LowerState {
  condensed: boolean;
  /** Character width and height multipliers (1–8; 1 = normal). */
  width: number;
  height: number;
  bold: boolean;
  underline: boolean;
  invert: boolean;
}

export interface LowerContext {
  profile: Profile;
  out: Op[];
  diagnostics: RawDiagnostic[];
  /** Code page, printer name and diagnostics, for sanitising text. */
  text: SanitizeContext;
  state: LowerState;
  /** Images `<image src="name">` may name (compile's `images`). */
  images?: ImageSources;
  /** The job's limits lowering applies (the size of each image); DEFAULT_LIMITS when absent. */
  limits?: Pick<CompileLimits, 'maxImagePixels'>;
  /** `'word'`: printed lines wider than the paper are wrapped at spaces (compile's `wrap`). */
  wrap?: 'none' | 'word';
  /** The job's output budget: rasters, rows and rules spend it before they are built (limits.ts OutputBudget). */
  budget?: OutputBudget;
  /** The printed line so far (layout-lines.ts). */
  line?: LineState;
  /** The last op lowerText wrote (the one text right after it joins, if nothing came between). */
  lastText?: Extract<Op, { op: 'text' }>;
}

/** How one kind of node is lowered. */
export type Lowering<N extends Node> = (node: N, ctx: LowerContext) => void;

/** One lowering per node type: the dispatch table of lower/index.ts. */
export type Lowerings = { [K in NodeType]: Lowering<Extract<Node, { type: K }>> };

export function initialState(): LowerState {
  return { condensed: false, width: 1, height: 1, bold: false, underline: false, invert: false };
}
