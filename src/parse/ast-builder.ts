// CST → AST: gives the pure grammar its meaning. Known tags become commands, everything else is
// text exactly as written; unknown tag-like names, stray and unclosed qrcode tags are diagnosed.
import type { CstNode, IToken } from 'chevrotain';
import type { RawDiagnostic } from '../diagnostics.js';
import type { Document, Node } from './ast.js';
import { QRCODE_TAG, suggestTag, TAGS } from './tags.js';

const TAG_NAME = /^<(\/?)([A-Za-z][A-Za-z0-9_-]*)[ \t]*(\/?)>$/;

/** Builds the AST from the document CST, appending diagnostics to `diagnostics`. */
export function buildAst(cst: CstNode, source: string, diagnostics: RawDiagnostic[]): Document {
  const children: Node[] = [];
  forEachInSourceOrder(cst, (element) => {
    if (isToken(element)) pushToken(element, children, diagnostics);
    else children.push(qrcodeNode(element, diagnostics));
  });
  return { type: 'document', source, children };
}

type Element = IToken | CstNode;

function isToken(element: Element): element is IToken {
  return (element as IToken).tokenType !== undefined;
}

function offsetOf(element: Element): number {
  return isToken(element) ? element.startOffset : (element.children.QrOpen![0] as IToken).startOffset;
}

/**
 * The CST groups children by kind, each group already in source order; the AST needs them
 * interleaved in source order. A merge of the (at most six) sorted groups: linear, no sort and
 * no wrapper object per element.
 */
function forEachInSourceOrder(cst: CstNode, visit: (element: Element) => void): void {
  const groups: Element[][] = [];
  for (const kind in cst.children) groups.push(cst.children[kind] as Element[]);
  if (groups.length === 1) {
    for (const element of groups[0]!) visit(element);
    return;
  }
  const next = new Array<number>(groups.length).fill(0);
  for (;;) {
    let best = -1;
    let bestOffset = Infinity;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g]!;
      const i = next[g]!;
      if (i < group.length) {
        const offset = offsetOf(group[i]!);
        if (offset < bestOffset) {
          bestOffset = offset;
          best = g;
        }
      }
    }
    if (best < 0) return;
    visit(groups[best]![next[best]!++]!);
  }
}

function pushToken(token: IToken, out: Node[], diagnostics: RawDiagnostic[]): void {
  const start = token.startOffset;
  const end = start + token.image.length;
  switch (token.tokenType.name) {
    case 'Tag': {
      const [, closing, name, selfClosing] = TAG_NAME.exec(token.image)!;
      const command = closing ? undefined : TAGS[name!];
      if (command) {
        out.push({ type: 'command', command, tag: name!, start, end });
        return;
      }
      diagnostics.push(unknownTag(token.image, name!, closing === '/' && !selfClosing, start, end));
      break;
    }
    case 'QrEmpty':
      out.push({ type: 'qrcode', data: '', dataStart: end, start, end });
      return;
    case 'StrayQrClose':
      diagnostics.push({
        code: 'parse/stray-closing-tag',
        message: `</${QRCODE_TAG}> without an opening <${QRCODE_TAG}>`,
        start,
        end,
      });
      return;
  }
  appendText(out, token.image, start, end);
}

function unknownTag(image: string, name: string, closing: boolean, start: number, end: number): RawDiagnostic {
  const known = suggestTag(name);
  let hint = '';
  if (known && closing && known !== QRCODE_TAG) hint = `; <${known}> takes no closing tag`;
  else if (known && known !== name) hint = `; did you mean <${known}>?`;
  return { code: 'parse/unknown-tag', message: `unknown tag ${image} is printed as text${hint}`, start, end };
}

/** Adjacent text (e.g. `a`, `<`, `3`) merges into one node. */
function appendText(out: Node[], value: string, start: number, end: number): void {
  const last = out[out.length - 1];
  if (last?.type === 'text' && last.end === start) {
    last.value += value;
    last.end = end;
  } else {
    out.push({ type: 'text', value, start, end });
  }
}

function qrcodeNode(node: CstNode, diagnostics: RawDiagnostic[]): Node {
  const open = node.children.QrOpen![0] as IToken;
  const data = node.children.QrData?.[0] as IToken | undefined;
  const close = node.children.QrClose?.[0] as IToken | undefined;
  const start = open.startOffset;
  const last = close ?? data ?? open;
  const end = last.startOffset + last.image.length;
  if (!close) {
    diagnostics.push({
      code: 'parse/unclosed-qrcode',
      message: `<${QRCODE_TAG}> is never closed: add </${QRCODE_TAG}> after the data to encode`,
      start,
      end: start + open.image.length,
    });
  }
  return { type: 'qrcode', data: data?.image ?? '', dataStart: start + open.image.length, start, end };
}
