// The grammar as chevrotain serialises it, for the railroad diagram in grammar/ (generated from
// the real parser instance, so the picture cannot drift from the code).
import { createSyntaxDiagramsCode } from 'chevrotain';
import { parser } from './parser.js';

/** A self-contained HTML page with the railroad diagram of the conteudo grammar. */
export function grammarDiagramHtml(): string {
  return createSyntaxDiagramsCode(parser.getSerializedGastProductions());
}
