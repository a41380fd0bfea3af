// parse: conteudo string → AST + diagnostics. Never throws on any string.
import { resolveDiagnostics, type Diagnostic, type RawDiagnostic } from '../diagnostics.js';
import type { Document } from './ast.js';
import { parseTokens } from './parser.js';
import { lexer } from './tokens.js';

export interface ParseResult {
  ast: Document;
  diagnostics: Diagnostic[];
}

/** Parses with raw (offset-only) diagnostics: the form the pipeline passes along. */
export function parseRaw(source: string, diagnostics: RawDiagnostic[]): Document {
  return parseTokens(lexer.tokenize(source).tokens, source, diagnostics);
}

/**
 * Parses conteudo into an AST whose nodes carry source offsets.
 *
 * @example
 * const { ast } = parse('<textAlignCenter>Olá\n<paperCutFull>');
 * ast.children.map((n) => n.type); // ['command', 'text', 'command']
 */
export function parse(source: string): ParseResult {
  const raw: RawDiagnostic[] = [];
  const ast = parseRaw(String(source), raw);
  return { ast, diagnostics: resolveDiagnostics(source, raw) };
}

export type { Document, Node, TextNode, CommandNode, QrCodeNode } from './ast.js';
export type { CommandName } from './tags.js';
export { TAGS } from './tags.js';
