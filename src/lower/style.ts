// Text styles: bold, underline, invert (command tags) and <textSize>. Each stays in force until
// changed, across lines, like condensed: the state (ctx.state) follows the commands really sent.
// A missing capability has its outcome from commands.ts's OUTCOMES (a warning, or nothing on plain
// text, whose profile says "removed"); a size past the profile's `sizeMax` is clamped with a warning.
//
// Before: [command boldOn] [textSize 3×3] on the DR800 (sizeMax 2×2)
// After:  [style bold on] [size 2×2] + warning lower/text-size-clamped; state bold, 2×2
// Before: [command invertOn] on the DR800 (no invert)
// After:  [] + warning lower/style-unsupported; state unchanged
import type { CommandNode, TextSizeNode } from '../parse/ast.js';
import type { CommandName } from '../parse/tags.js';
import type { Capability } from '../profiles/commands.js';
import type { LowerContext, Lowering } from './context.js';
import type { TextStyle } from './ir.js';

type StyleCommand = Extract<CommandName, 'boldOn' | 'boldOff' | 'underlineOn' | 'underlineOff' | 'invertOn' | 'invertOff'>;
type StyleCapability = Extract<Capability, 'bold' | 'underline' | 'invert' | 'size'>;

/** What lowering does for a capability the profile lacks (commands.ts's `missing`). */
export type Missing = (cap: StyleCapability, node: { tag: string; start: number; end: number }, ctx: LowerContext) => void;

function style(name: TextStyle, on: boolean, missing: Missing): Lowering<CommandNode> {
  return (node, ctx) => {
    if (!ctx.profile.caps.has(name)) return missing(name, node, ctx);
    ctx.out.push({ op: 'style', style: name, on, start: node.start, end: node.end });
    ctx.state[name] = on;
  };
}

/** The style commands' entries of the command table (commands.ts), given its `missing`. */
export function styleCommands(missing: Missing): Readonly<Record<StyleCommand, Lowering<CommandNode>>> {
  return {
    boldOn: style('bold', true, missing),
    boldOff: style('bold', false, missing),
    underlineOn: style('underline', true, missing),
    underlineOff: style('underline', false, missing),
    invertOn: style('invert', true, missing),
    invertOff: style('invert', false, missing),
  };
}

/** `<textSize width="W" height="H">`, clamped to the profile's largest size. */
export function textSizeLowering(missing: Missing): Lowering<TextSizeNode> {
  return (node, ctx) => {
    const { profile } = ctx;
    if (!profile.caps.has('size')) return missing('size', { tag: 'textSize', start: node.start, end: node.end }, ctx);
    const max = profile.sizeMax ?? { width: 8, height: 8 };
    const width = Math.min(node.width, max.width);
    const height = Math.min(node.height, max.height);
    if (width !== node.width || height !== node.height) {
      ctx.diagnostics.push({
        code: 'lower/text-size-clamped',
        message: `${profile.printer} prints text at most ${max.width} wide × ${max.height} high: <textSize width="${node.width}" height="${node.height}"> prints ${width} × ${height}`,
        start: node.start,
        end: node.end,
      });
    }
    ctx.out.push({ op: 'size', width, height, start: node.start, end: node.end });
    ctx.state.width = width;
    ctx.state.height = height;
  };
}

/**
 * Writes text a printer prints in its plain font whatever the styles (a raster barcode's human-
 * readable line, as native HRI is: Epson's GS !, ESC E, ESC - and GS B leave HRI alone) with the
 * styles and size in force turned off around it, and on again after.
 */
export function inPlainText(ctx: LowerContext, start: number, end: number, write: () => void): void {
  const { state, out } = ctx;
  const on = (['bold', 'underline', 'invert'] as const).filter((s) => state[s]);
  const sized = state.width !== 1 || state.height !== 1;
  for (const s of on) out.push({ op: 'style', style: s, on: false, start, end });
  if (sized) out.push({ op: 'size', width: 1, height: 1, start, end });
  write();
  for (const s of on) out.push({ op: 'style', style: s, on: true, start, end });
  if (sized) out.push({ op: 'size', width: state.width, height: state.height, start, end });
}
