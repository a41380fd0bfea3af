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
import type { RawDiagnostic } from '../diagnostics.js';
import type { Document } from './ast.js';
import type { TagSet } from './tags.js';
import { AstBuilder } from './ast-builder.js';
import { lexer, Token } from './tokens.js';

/** One builder, reset per document (parsing is synchronous, so one parse at a time uses it). */
const ast = new AstBuilder();

/** Parses `source` into the document's AST; diagnostics are appended to `diagnostics`. */
export function parseSource(source: string, diagnostics: RawDiagnostic[], tags: TagSet): Document {
  ast.begin(source, diagnostics, tags);
  lexer.begin(source);
  while (lexer.next()) {
    const { kind, start, end } = lexer;
    if (kind !== Token.QrOpen) {
      ast.token(kind, start, end, lexer.plain);
      continue;
    }
    // qrcode: in the lexer's qr mode only QrData and QrClose exist, in that order (QrData ends
    // right before a QrClose or at the end of the source).
    let dataEnd = end;
    let more = lexer.next();
    if (more && lexer.kind === Token.QrData) {
      dataEnd = lexer.end;
      more = lexer.next();
    }
    ast.qrcode(start, end, dataEnd, more ? lexer.end : -1);
  }
  return ast.end();
}
