// lower: AST + profile → IR. The only pass that looks at capabilities. Each missing capability
// has one outcome, from the table below: kept, replaced with a visible change (a warning naming
// the printer), or impossible (an error).
//
// Before: [command cutPartial] on the DR800 (no partial cut)
// After:  [cut partial=false] + warning lower/partial-cut-fallback
import type { RawDiagnostic } from '../diagnostics.js';
import type { CommandNode, Document } from '../parse/ast.js';
import type { CommandName } from '../parse/tags.js';
import type { Profile } from '../profiles/index.js';
import { codepage } from '../text/codepage.js';
import { sanitizeSuspect, type SanitizeContext } from '../text/sanitize.js';
import type { Op } from './ir.js';
import { lowerQr } from './qr.js';

type Lowering = (node: CommandNode, profile: Profile, out: Op[], diagnostics: RawDiagnostic[]) => void;

/** Tag command → IR, asking the profile's capabilities. */
const COMMANDS: Readonly<Record<CommandName, Lowering>> = {
  alignLeft: ({ start, end }, _p, out) => void out.push({ op: 'align', align: 'left', start, end }),
  alignCenter: ({ start, end }, _p, out) => void out.push({ op: 'align', align: 'center', start, end }),
  alignRight: ({ start, end }, _p, out) => void out.push({ op: 'align', align: 'right', start, end }),
  condensedOn: (node, p, out, d) => condensed(true, node, p, out, d),
  condensedOff: (node, p, out, d) => condensed(false, node, p, out, d),
  cutFull: ({ start, end }, _p, out) => void out.push({ op: 'cut', partial: false, start, end }),
  cutPartial: ({ start, end }, profile, out, diagnostics) => {
    const partial = profile.caps.has('cut.partial');
    if (!partial) {
      diagnostics.push({
        code: 'lower/partial-cut-fallback',
        message: `${profile.printer} has no partial cut: a full cut is sent instead`,
        start,
        end,
      });
    }
    out.push({ op: 'cut', partial, start, end });
  },
  drawerOpen: ({ start, end }, _p, out) => void out.push({ op: 'drawer', start, end }),
  feed: ({ start, end }, profile, out) => void out.push({ op: 'feed', lines: profile.feedLines, start, end }),
};

function condensed(on: boolean, node: CommandNode, profile: Profile, out: Op[], diagnostics: RawDiagnostic[]): void {
  const { start, end } = node;
  if (profile.caps.has('condensed')) {
    out.push({ op: 'condensed', on, start, end });
    return;
  }
  diagnostics.push({
    code: 'lower/condensed-unsupported',
    message: `${profile.printer} has no condensed text: <${node.tag}> is ignored`,
    start,
    end,
  });
}

export interface LowerResult {
  ops: Op[];
}

/** Lowers a document for one profile; diagnostics are appended to `diagnostics`. */
export function lowerRaw(ast: Document, profile: Profile, diagnostics: RawDiagnostic[]): Op[] {
  const out: Op[] = [];
  const ctx: SanitizeContext = {
    codepage: codepage(profile.codepage.encoding),
    printer: profile.printer,
    diagnostics,
  };
  for (const node of ast.children) {
    if (node.type === 'text') {
      // Text the code page's suspect class does not match prints as is; on a single-byte page that
      // class takes in everything above Latin-1, so such text is also within Latin-1.
      const { value, start, end } = node;
      if (!ctx.codepage.suspect.test(value)) {
        out.push(ctx.codepage.table === null ? { op: 'text', text: value, start, end } : { op: 'text', text: value, start, end, latin1: true });
        continue;
      }
      const text = sanitizeSuspect(value, start, ctx);
      if (text) out.push({ op: 'text', text, start, end });
    } else if (node.type === 'command') {
      COMMANDS[node.command](node, profile, out, diagnostics);
    } else {
      lowerQr(node, profile, out, ctx);
    }
  }
  return out;
}

export type { Op, OpName, Align, Bitmap } from './ir.js';
