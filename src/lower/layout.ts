// <row> and <rule/>: PLACEHOLDER until the layout lands (issue 21, receipt-parse, next part):
// reported as not printed yet.
import type { RowNode, RuleNode } from '../parse/ast.js';
import type { Lowering } from './context.js';
import { notLowered } from './placeholder.js';

export const lowerRow: Lowering<RowNode> = (node, ctx) => notLowered('<row>', node.start, node.end, ctx);
export const lowerRule: Lowering<RuleNode> = (node, ctx) => notLowered('<rule>', node.start, node.end, ctx);
