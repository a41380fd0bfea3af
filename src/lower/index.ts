// lower: AST + profile → IR. The only pass that looks at capabilities. Each missing capability
// has one outcome, from the table below: kept, replaced with a visible change (a warning naming
// the printer), or impossible (an error).
//
// Before: [command cutPartial] on the DR800 (no partial cut)
// After:  [cut partial=false] + warning lower/partial-cut-fallback
// Before: [command cutPartial] on the generic template (plain text: "missing": { "cut.partial": "removed" })
// After:  [] and no diagnostic
import type { RawDiagnostic } from '../diagnostics.js';
import type { CommandNode, Document, Node } from '../parse/ast.js';
import type { CommandName } from '../parse/tags.js';
import type { Profile } from '../profiles/index.js';
import { codepage } from '../text/codepage.js';
import { sanitizeSuspect, type SanitizeContext } from '../text/sanitize.js';
import type { Op } from './ir.js';
import { DEFAULT_LIMITS, type CompileLimits } from '../limits.js';
import type { ImageContext, ImageSources } from './image.js';
import { lowerQr } from './qr.js';

type Lowering = (node: CommandNode, profile: Profile, out: Op[], diagnostics: RawDiagnostic[]) => void;

/** Tag command → IR, asking the profile's capabilities; a missing one has its outcome from OUTCOMES. */
const COMMANDS: Readonly<Record<CommandName, Lowering>> = {
  alignLeft: ({ start, end }, _p, out) => void out.push({ op: 'align', align: 'left', start, end }),
  alignCenter: ({ start, end }, _p, out) => void out.push({ op: 'align', align: 'center', start, end }),
  alignRight: ({ start, end }, _p, out) => void out.push({ op: 'align', align: 'right', start, end }),
  condensedOn: (node, p, out, d) => (p.caps.has('condensed') ? void out.push({ op: 'condensed', on: true, start: node.start, end: node.end }) : missing('condensed', node, p, out, d)),
  condensedOff: (node, p, out, d) => (p.caps.has('condensed') ? void out.push({ op: 'condensed', on: false, start: node.start, end: node.end }) : missing('condensed', node, p, out, d)),
  cutFull: (node, p, out, d) => (p.caps.has('cut') ? void out.push({ op: 'cut', partial: false, start: node.start, end: node.end }) : missing('cut', node, p, out, d)),
  cutPartial: (node, p, out, d) => (p.caps.has('cut.partial') ? void out.push({ op: 'cut', partial: true, start: node.start, end: node.end }) : missing('cut.partial', node, p, out, d)),
  drawerOpen: (node, p, out, d) => (p.caps.has('drawer') ? void out.push({ op: 'drawer', start: node.start, end: node.end }) : missing('drawer', node, p, out, d)),
  feed: ({ start, end }, profile, out) => void out.push({ op: 'feed', lines: profile.feedLines, start, end }),
};

type MissingCapability = keyof NonNullable<Profile['missing']>;

/**
 * What a tag becomes on a printer without its capability, unless the profile's `missing` says
 * "removed" (plain text: dropped silently, which is what the tag means there). `outcome` is what
 * `bobina printers` shows.
 */
export const OUTCOMES: Readonly<Record<MissingCapability, { outcome: string; lower: Lowering }>> = {
  'cut.partial': {
    outcome: 'full cut',
    lower: (node, profile, out, diagnostics) => {
      diagnostics.push({ code: 'lower/partial-cut-fallback', message: `${profile.printer} has no partial cut: a full cut is sent instead`, start: node.start, end: node.end });
      COMMANDS.cutFull(node, profile, out, diagnostics);
    },
  },
  condensed: {
    outcome: 'dropped',
    lower: (node, profile, _out, diagnostics) =>
      void diagnostics.push({ code: 'lower/condensed-unsupported', message: `${profile.printer} has no condensed text: <${node.tag}> is ignored`, start: node.start, end: node.end }),
  },
  cut: { outcome: 'dropped', lower: unsupported('no paper cutter') },
  drawer: { outcome: 'dropped', lower: unsupported('no cash drawer command') },
};

function unsupported(what: string): Lowering {
  return (node, profile, _out, diagnostics) =>
    void diagnostics.push({ code: 'lower/command-unsupported', message: `${profile.printer} has ${what}: <${node.tag}> is ignored`, start: node.start, end: node.end });
}

function missing(cap: MissingCapability, node: CommandNode, profile: Profile, out: Op[], diagnostics: RawDiagnostic[]): void {
  if (profile.missing?.[cap] === 'removed') return;
  OUTCOMES[cap].lower(node, profile, out, diagnostics);
}

function internalError(node: Node, error: unknown): RawDiagnostic {
  const what = node.type === 'text' ? 'text' : node.type === 'command' ? `<${node.tag}>` : '<qrcode>';
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
}

/** Lowers a document for one profile; diagnostics are appended to `diagnostics`. */
export function lowerRaw(ast: Document, profile: Profile, diagnostics: RawDiagnostic[], options: LowerOptions = {}): Op[] {
  const out: Op[] = [];
  const images: ImageContext = { limits: options.limits ?? DEFAULT_LIMITS, diagnostics, ...(options.images && { images: options.images }) };
  const ctx: SanitizeContext = {
    codepage: codepage(profile.codepage.encoding),
    printer: profile.printer,
    diagnostics,
  };
  for (const node of ast.children) {
    try {
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
    } catch (error) {
      // A failure of bobina itself (a bug, a broken install) is reported as itself, on the node
      // it hit, and never as a user-facing code such as lower/qr-too-long.
      diagnostics.push(internalError(node, error));
    }
  }
  return out;
}

export type { Op, OpName, Align, Bitmap, Ecc, HriPosition } from './ir.js';
