// <barcode>: PLACEHOLDER until the barcode lowering lands (issue 21, receipt-codes): reported as
// not printed yet.
import type { BarcodeNode } from '../parse/ast.js';
import type { Lowering } from './context.js';
import { notLowered } from './placeholder.js';

export const lowerBarcode: Lowering<BarcodeNode> = (node, ctx) => notLowered('<barcode>', node.start, node.end, ctx);
