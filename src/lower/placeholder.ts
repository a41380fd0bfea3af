// A construct parse reads but this build does not print yet: a warning at the tag, nothing sent.
// (Used by the style, barcode and image lowerings until their own land; then this file goes.)
import type { LowerContext } from './context.js';

export function notLowered(what: string, start: number, end: number, ctx: LowerContext): void {
  ctx.diagnostics.push({ code: 'lower/command-unsupported', message: `${what} is not printed by this build of bobina yet: it is ignored`, start, end });
}
