// parse: conteudo string → AST + diagnostics. Never throws on any string.
import { resolveDiagnostics, type Diagnostic, type RawDiagnostic } from '../diagnostics.js';
import type { Document } from './ast.js';
import { parseSource } from './parser.js';
import type { TagSet } from './tags.js';

export interface ParseOptions {
  /**
   * Which tags are commands: `'all'` (the default), or `'partner'`: only the partner's eight
   * (`textAlign*`, `textCondensed*`, `paperCut*`, `qrcode`); every other tag prints as written,
   * with a warning (`parse/tag-disabled`). Escapes are resolved either way.
   */
  tags?: TagSet;
}

export interface ParseResult {
  ast: Document;
  diagnostics: Diagnostic[];
}

/** Parses with raw (offset-only) diagnostics: the form the pipeline passes along. */
// Stryker disable next-line StringLiteral: only `'partner'` makes the tags a partner's set, so `''` parses as `'all'` does
export function parseRaw(source: string, diagnostics: RawDiagnostic[], tags: TagSet = 'all'): Document {
  return parseSource(source, diagnostics, tags);
}

/** The tag set option checked: a usage error throws, as an unknown printer does. */
export function tagSet(tags: unknown): TagSet {
  if (tags === undefined || tags === 'all' || tags === 'partner') return tags ?? 'all';
  throw new TypeError(`tags must be 'all' or 'partner', not ${JSON.stringify(tags) ?? String(tags)}`);
}

/**
 * Parses conteudo into an AST whose nodes carry source offsets.
 *
 * @example
 * const { ast } = parse('<textAlignCenter>Olá\n<paperCutFull>');
 * ast.children.map((n) => n.type); // ['command', 'text', 'command']
 */
export function parse(source: string, options: ParseOptions = {}): ParseResult {
  const raw: RawDiagnostic[] = [];
  const ast = parseRaw(String(source), raw, tagSet(options.tags));
  return { ast, diagnostics: resolveDiagnostics(source, raw) };
}

export type { Document, Node, NodeType, TextNode, CommandNode, QrCodeNode, QrEcc, TextSizeNode, BarcodeNode, BarcodeSymbology, BarcodeTextPosition, ImageNode, Dither, RowNode, CellNode, CellAlign, RuleNode } from './ast.js';
export type { CommandName, TagSet } from './tags.js';
export { TAGS, PARTNER_TAGS } from './tags.js';
export { escape } from './escapes.js';
