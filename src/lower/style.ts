// Text styles: bold, underline, invert (command tags) and <textSize>. PLACEHOLDER until the style
// lowering lands (issue 21, receipt-styles): each is reported as not printed yet, and the state in
// force is left as it is.
import type { CommandNode, TextSizeNode } from '../parse/ast.js';
import type { CommandName } from '../parse/tags.js';
import type { Lowering } from './context.js';
import { notLowered } from './placeholder.js';

type StyleCommand = Extract<CommandName, 'boldOn' | 'boldOff' | 'underlineOn' | 'underlineOff' | 'invertOn' | 'invertOff'>;

const placeholder: Lowering<CommandNode> = (node, ctx) => notLowered(`<${node.tag}>`, node.start, node.end, ctx);

/** The style commands' entries of the command table (commands.ts). */
export const STYLE_COMMANDS: Readonly<Record<StyleCommand, Lowering<CommandNode>>> = {
  boldOn: placeholder,
  boldOff: placeholder,
  underlineOn: placeholder,
  underlineOff: placeholder,
  invertOn: placeholder,
  invertOff: placeholder,
};

export const lowerTextSize: Lowering<TextSizeNode> = (node, ctx) => notLowered('<textSize>', node.start, node.end, ctx);
