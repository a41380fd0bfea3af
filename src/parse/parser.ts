// The grammar, pure: a CstParser with no semantic actions (the visitor in ast-builder.ts gives it
// meaning). It accepts every token sequence the lexer can produce, so parsing cannot fail; an
// unclosed `<qrcode>` is a qrcode without its QrClose, reported by the visitor.
import { CstParser, type CstNode } from 'chevrotain';
import { allTokens, LAngle, QrClose, QrData, QrEmpty, QrOpen, StrayQrClose, Tag, Text } from './tokens.js';

export class ConteudoParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: false });
    this.performSelfAnalysis();
  }

  /** document := ( Text | LAngle | Tag | QrEmpty | StrayQrClose | qrcode )* */
  public document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([
        { ALT: () => this.CONSUME(Text) },
        { ALT: () => this.CONSUME(LAngle) },
        { ALT: () => this.CONSUME(Tag) },
        { ALT: () => this.CONSUME(QrEmpty) },
        { ALT: () => this.CONSUME(StrayQrClose) },
        { ALT: () => this.SUBRULE(this.qrcode) },
      ]);
    });
  });

  /** qrcode := QrOpen QrData? QrClose?  (a missing QrClose is reported, not a parse error) */
  public qrcode = this.RULE('qrcode', () => {
    this.CONSUME(QrOpen);
    this.OPTION(() => this.CONSUME(QrData));
    this.OPTION2(() => this.CONSUME(QrClose));
  });
}

/** The one parser instance (chevrotain parsers are built once and reset per input). */
export const parser = new ConteudoParser();

export type { CstNode };
