// <image>: PLACEHOLDER until the image lowering lands (issue 21, receipt-codes): reported as not
// printed yet.
import type { ImageNode } from '../parse/ast.js';
import type { Lowering } from './context.js';
import { notLowered } from './placeholder.js';

export const lowerImage: Lowering<ImageNode> = (node, ctx) => notLowered('<image>', node.start, node.end, ctx);
