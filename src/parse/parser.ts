// The grammar's one lexer-level structured rule, over the lexer's tokens: the lexer's two modes
// already say what every token is, so building the AST is a single pass. Every token sequence the
// lexer can produce is accepted, so parsing cannot fail; an unclosed `<qrcode>` is a qrcode
// without its QrClose, reported by the builder. (Tags with content of their own — barcode, row,
// cell — are Tag tokens; the builder holds them open: containers.ts.)
//
//   document := ( Text | LoneAngle | Tag | QrEmpty | StrayQrClose | qrcode )*
//   qrcode   := QrOpen QrData? QrClose?
//
// (grammar/conteudo.ebnf is the readable spec; test/parse/grammar.test.ts parses its examples.)
import type { IToken } from 'chevrotain';
import type { RawDiagnostic } from '../diagnostics.js';
import type { Document } from './ast.js';
import type { TagSet } from './tags.js';
import { AstBuilder } from './ast-builder.js';
import { QrClose, QrData, QrOpen } from './tokens.js';

/** One builder, reset per document (parsing is synchronous, so one parse at a time uses it). */
const ast = new AstBuilder();

/** Parses a token vector into the document's AST; diagnostics are appended to `diagnostics`. */
export function parseTokens(tokens: readonly IToken[], source: string, diagnostics: RawDiagnostic[], tags: TagSet = 'all'): Document {
  ast.begin(source, diagnostics, tags);
  const n = tokens.length;
  for (let i = 0; i < n; i++) {
    const token = tokens[i]!;
    if (token.tokenType !== QrOpen) {
      ast.token(token);
      continue;
    }
    // qrcode: in the lexer's qr mode only QrData and QrClose exist, in that order.
    const data = tokens[i + 1]?.tokenType === QrData ? tokens[++i] : undefined;
    const close = tokens[i + 1]?.tokenType === QrClose ? tokens[++i] : undefined;
    ast.qrcode(token, data, close);
  }
  return ast.end();
}
