// Command lowering: each tag command → IR, asking the profile's capabilities. Each missing
// capability has one outcome, from the table below: kept, replaced with a visible change (a warning
// naming the printer), or impossible (an error). Style commands and <textSize> are style.ts's.
//
// Before: [command cutPartial] on the DR800 (no partial cut)
// After:  [cut partial=false] + warning lower/partial-cut-fallback
// Before: [command cutPartial] on the generic template (plain text: "missing": { "cut.partial": "removed" })
// After:  [] and no diagnostic
import type { CommandNode } from '../parse/ast.js';
import type { CommandName } from '../parse/tags.js';
import type { Profile } from '../profiles/index.js';
import type { LowerContext, Lowering } from './context.js';
import { styleCommands, textSizeLowering } from './style.js';

type CommandLowering = Lowering<CommandNode>;
/** What an outcome needs of the tag it replaces: its name (for the message) and its span. */
type TagSpan = Pick<CommandNode, 'tag' | 'start' | 'end'>;
type OutcomeLowering = (node: TagSpan, ctx: LowerContext) => void;

const cutFull: OutcomeLowering = (node, ctx) => (ctx.profile.caps.has('cut') ? void ctx.out.push({ op: 'cut', partial: false, start: node.start, end: node.end }) : missing('cut', node, ctx));

function condensed(on: boolean): CommandLowering {
  return (node, ctx) => {
    if (!ctx.profile.caps.has('condensed')) return missing('condensed', node, ctx);
    ctx.out.push({ op: 'condensed', on, start: node.start, end: node.end });
    ctx.state.condensed = on;
  };
}

/** Tag command → IR; a missing capability has its outcome from OUTCOMES. */
export const COMMAND_LOWERINGS: Readonly<Record<CommandName, CommandLowering>> = {
  alignLeft: ({ start, end }, { out }) => void out.push({ op: 'align', align: 'left', start, end }),
  alignCenter: ({ start, end }, { out }) => void out.push({ op: 'align', align: 'center', start, end }),
  alignRight: ({ start, end }, { out }) => void out.push({ op: 'align', align: 'right', start, end }),
  condensedOn: condensed(true),
  condensedOff: condensed(false),
  cutFull,
  cutPartial: (node, ctx) => (ctx.profile.caps.has('cut.partial') ? void ctx.out.push({ op: 'cut', partial: true, start: node.start, end: node.end }) : missing('cut.partial', node, ctx)),
  drawerOpen: (node, ctx) => (ctx.profile.caps.has('drawer') ? void ctx.out.push({ op: 'drawer', start: node.start, end: node.end }) : missing('drawer', node, ctx)),
  feed: ({ start, end }, { profile, out }) => void out.push({ op: 'feed', lines: profile.feedLines, start, end }),
  ...styleCommands(missing),
};

/** `<textSize>`: style.ts's lowering, with this table's outcomes for a printer without sizes. */
export const lowerTextSize = textSizeLowering(missing);

export const lowerCommand: CommandLowering = (node, ctx) => COMMAND_LOWERINGS[node.command](node, ctx);

type MissingCapability = keyof NonNullable<Profile['missing']>;

/**
 * What a tag becomes on a printer without its capability, unless the profile's `missing` says
 * "removed" (plain text: dropped silently, which is what the tag means there). `outcome` is what
 * `bobina printers` shows.
 */
export const OUTCOMES: Readonly<Record<MissingCapability, { outcome: string; lower: OutcomeLowering }>> = {
  'cut.partial': {
    outcome: 'full cut',
    lower: (node, ctx) => {
      ctx.diagnostics.push({ code: 'lower/partial-cut-fallback', message: `${ctx.profile.printer} has no partial cut: a full cut is sent instead`, start: node.start, end: node.end });
      cutFull(node, ctx);
    },
  },
  condensed: {
    outcome: 'dropped',
    lower: (node, ctx) =>
      void ctx.diagnostics.push({ code: 'lower/condensed-unsupported', message: `${ctx.profile.printer} has no condensed text: <${node.tag}> is ignored`, start: node.start, end: node.end }),
  },
  cut: { outcome: 'dropped', lower: unsupported('no paper cutter') },
  drawer: { outcome: 'dropped', lower: unsupported('no cash drawer command') },
  bold: { outcome: 'dropped', lower: styleUnsupported('bold text') },
  underline: { outcome: 'dropped', lower: styleUnsupported('underlined text') },
  invert: { outcome: 'dropped', lower: styleUnsupported('inverted (white on black) text') },
  size: { outcome: 'normal size', lower: styleUnsupported('larger text sizes') },
};

function styleUnsupported(what: string): OutcomeLowering {
  return (node, ctx) =>
    void ctx.diagnostics.push({ code: 'lower/style-unsupported', message: `${ctx.profile.printer} has no ${what}: <${node.tag}> is ignored`, start: node.start, end: node.end });
}

function unsupported(what: string): OutcomeLowering {
  return (node, ctx) =>
    void ctx.diagnostics.push({ code: 'lower/command-unsupported', message: `${ctx.profile.printer} has ${what}: <${node.tag}> is ignored`, start: node.start, end: node.end });
}

function missing(cap: MissingCapability, node: TagSpan, ctx: LowerContext): void {
  if (ctx.profile.missing?.[cap] === 'removed') return;
  OUTCOMES[cap].lower(node, ctx);
}
