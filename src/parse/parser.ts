// The grammar, as a chevrotain parser with embedded actions: each recognised element is handed to
// the AST builder as it is parsed, so no concrete syntax tree is built and then walked again.
// It accepts every token sequence the lexer can produce, so parsing cannot fail; an unclosed
// `<qrcode>` is a qrcode without its QrClose, reported by the builder.
import { EmbeddedActionsParser, type IOrAlt, type IToken, type TokenType } from 'chevrotain';
import type { RawDiagnostic } from '../diagnostics.js';
import type { Document } from './ast.js';
import { AstBuilder } from './ast-builder.js';
import { allTokens, LAngle, QrClose, QrData, QrEmpty, QrOpen, StrayQrClose, Tag, Text } from './tokens.js';

export class ConteudoParser extends EmbeddedActionsParser {
  private readonly ast = new AstBuilder();

  /**
   * `validate`: run chevrotain's grammar checks (ambiguity, left recursion…). They cost
   * milliseconds at every start, so the one shared parser skips them and the tests build one with them.
   */
  constructor({ validate = false } = {}) {
    super(allTokens, { recoveryEnabled: false, skipValidations: !validate });
    this.performSelfAnalysis();
  }

  /** Parses a token vector into the document's AST; diagnostics are appended to `diagnostics`. */
  parseDocument(tokens: IToken[], source: string, diagnostics: RawDiagnostic[]): Document {
    this.input = tokens;
    this.ast.begin(source, diagnostics);
    this.document();
    return this.ast.end();
  }

  /** The alternatives of `document`, built once (not one array of closures per element). */
  private readonly elements: IOrAlt<void>[] = [
    this.element(Text),
    this.element(LAngle),
    this.element(Tag),
    this.element(QrEmpty),
    this.element(StrayQrClose),
    { ALT: () => this.SUBRULE(this.qrcode) },
  ];

  /** document := ( Text | LAngle | Tag | QrEmpty | StrayQrClose | qrcode )* */
  public document = this.RULE('document', () => {
    this.MANY(() => this.OR(this.elements));
  });

  /** qrcode := QrOpen QrData? QrClose?  (a missing QrClose is reported, not a parse error) */
  public qrcode = this.RULE('qrcode', () => {
    const open = this.CONSUME(QrOpen);
    const data = this.OPTION(() => this.CONSUME(QrData));
    const close = this.OPTION2(() => this.CONSUME(QrClose));
    if (!this.RECORDING_PHASE) this.ast.qrcode(open, data, close);
  });

  /** An alternative of one token, handed to the AST builder (except while chevrotain records). */
  private element(token: TokenType): IOrAlt<void> {
    return {
      ALT: () => {
        const consumed = this.CONSUME(token);
        if (!this.RECORDING_PHASE) this.ast.token(consumed);
      },
    };
  }
}

/** The one parser instance (chevrotain parsers are built once and reset per input). */
export const parser = new ConteudoParser();
