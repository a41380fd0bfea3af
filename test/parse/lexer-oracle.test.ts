// The hand-written lexer (src/parse/tokens.ts) against chevrotain's Lexer built from the token
// definitions it replaced (test/support/chevrotain-lexer.ts): for the fixtures and for random
// inputs made of tag pieces, both give the same tokens — kind, image, offset, line and column.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/diagnostics.js';
import { TAGS } from '../../src/parse/tags.js';
import { Lexer, LEXER_MODES, Token, tokenize } from '../../src/parse/tokens.js';
import { conteudo } from '../support/arbitraries.js';
import { chevrotainDefinition, chevrotainLexer } from '../support/chevrotain-lexer.js';
import { ROOT } from '../support/cli.js';

/** bobina's tokens, line and column found from the offset as diagnostics find them (on demand). */
function ours(text: string): string[] {
  const lines = new LineIndex(text);
  return tokenize(text).map((t) => {
    const { line, column } = lines.position(t.startOffset);
    return `${t.kind} ${t.startOffset} ${line}:${column} ${JSON.stringify(t.image)}`;
  });
}

/** chevrotain's tokens, line and column as its lexer tracks them. */
function oracle(text: string): string[] {
  const { tokens, errors } = chevrotainLexer.tokenize(text);
  expect(errors).toEqual([]); // every input lexes there too
  return tokens.map((t) => `${t.tokenType.name} ${t.startOffset} ${t.startLine}:${t.startColumn} ${JSON.stringify(t.image)}`);
}

const same = (text: string) => expect(ours(text)).toEqual(oracle(text));

/** Pieces of tags: names, attributes, blanks, closings, the qrcode forms with blanks, near misses. */
const tagPiece = fc.constantFrom(
  '<', '>', '/', '/>', '</', '=', '"', ' ', '\t', 'a', 'b', 'x-1', 'x_y', '9', 'size', 'ecc', 'width', '="3"', '=3', '="', '=""', ' a="1"', '\ta = "2"', ' b=c', ' d',
  '<b>', '</b>', '<b/>', '<foo bar="1">', '<textAlignCenter>', '<paperCutFull/>', '<textSize width="2" height="2">', '<cell width="3*">', '</cell >', '<row>', '</row\t>',
  '<qrcode>', '</qrcode>', '<qrcode/>', '<qrcode >', '<qrcode\t/>', '</qrcode \t>', '</qrcode\t>', '<qrcode size="4" ecc="H">', '<qrcode size=4/>', '<qrcode a=b/>', '<qrcodex>', '</qrcodex>', '<qrcode-1>', '</qrcode x>', '</qrcode/>', '<qrcode',
  '&lt;', '&amp;', '&', ';', '<<', '< b>', '<1>', '<-a>',
  ...Object.keys(TAGS).flatMap((name) => [`<${name}>`, `</${name}>`, name]),
);
/** Line breaks, blanks and text: CR, LF and CRLF, unicode spaces, accents, astral characters, lone surrogates. */
const textPiece = fc.constantFrom('\n', '\r', '\r\n', '\n\r', ' ', '\t', '\u00a0', '\u2028', '\u3000', 'ç', 'Olá', '€', '😀', '𝄞', '\ud800', '\udc00', 'R$ 1,00');
const input = fc.array(fc.oneof({ weight: 3, arbitrary: tagPiece }, { weight: 2, arbitrary: textPiece }, fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 30 }).map((parts) => parts.join(''));

describe('the lexer, against chevrotain (the oracle)', () => {
  it("builds the oracle without chevrotain's definition errors, with the same modes", () => {
    expect(chevrotainLexer.lexerDefinitionErrors).toEqual([]);
    const modes = Object.fromEntries(Object.entries(chevrotainDefinition.modes).map(([mode, tokens]) => [mode, tokens.map((t) => t.name)]));
    expect(modes).toEqual(LEXER_MODES);
  });

  it('gives the same tokens for every fixture', () => {
    const dirs = [join(ROOT, 'fixtures'), join(ROOT, 'bench', 'fixtures')];
    const files = dirs.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.txt')).map((f) => join(dir, f)));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) same(readFileSync(file, 'utf8'));
  });

  it.each([
    ['', []],
    ['a<b>c', ['Text', 'Tag', 'Text']],
    ['<qrcode>x</qrcode>y', ['QrOpen', 'QrData', 'QrClose', 'Text']],
    ['<qrcode></qrcode >', ['QrOpen', 'QrClose']],
    ['<qrcode>a</qrcodex></qrcode\t>', ['QrOpen', 'QrData', 'QrClose']],
    ['<qrcode>a', ['QrOpen', 'QrData']],
    ['<qrcode>', ['QrOpen']],
    ['<qrcode a=b/>x', ['QrOpen', 'QrData']], // an unquoted value takes the "/": an opening tag
    ['<qrcode size="2"/>', ['QrEmpty']],
    ['</qrcode>', ['StrayQrClose']],
    ['</qrcode x>', ['Tag']],
    ['<qrcodex>', ['Tag']],
    ['< b><', ['LoneAngle', 'Text', 'LoneAngle']],
    ['<b\n>', ['LoneAngle', 'Text']],
    ['x<ab-1_', ['Text', 'LoneAngle', 'Text']], // a name running to the end of the source
    ['</a9>', ['Tag']],
    ['<9a>', ['LoneAngle', 'Text']],
    ['<t\u0080>', ['LoneAngle', 'Text']], // a name stops at the first character past ASCII, after a command's first letter too
  ])('lexes %j as %j, as chevrotain does', (text, kinds) => {
    expect(tokenize(text).map((t) => t.kind)).toEqual(kinds);
    same(text);
  });

  it('gives no token before begin(), nor after the end however often asked', () => {
    const cursor = new Lexer();
    expect(cursor.next()).toBe(false);
    cursor.begin('a');
    expect([cursor.next(), cursor.next(), cursor.next()]).toEqual([true, false, false]);
  });

  it('gives the same tokens for any text made of tag pieces, blanks, line breaks and unicode', () => {
    fc.assert(fc.property(input, (text) => { same(text); }), { numRuns: 3000 });
  }, 60_000);

  it('gives the same tokens for any conteudo-like string', () => {
    fc.assert(fc.property(conteudo, (text) => { same(text); }), { numRuns: 1000 });
  }, 60_000);
});

/** Each Tag token's image, with the command the lexer says it names (or none). */
function tagCommands(text: string): [string, string | undefined][] {
  const cursor = new Lexer();
  const out: [string, string | undefined][] = [];
  cursor.begin(text);
  while (cursor.next()) if (cursor.kind === Token.Tag) out.push([text.slice(cursor.start, cursor.end), cursor.plain?.command]);
  return out;
}

describe('the command a Tag token names', () => {
  it('is the command of each command tag written <name>, and nothing for its near misses', () => {
    for (const [name, command] of Object.entries(TAGS)) {
      expect(tagCommands(`a<${name}>b`)).toEqual([[`<${name}>`, command]]);
      const misses = [`<${name}x>`, `<${name.slice(0, -1)}>`, `</${name}>`, `<${name}/>`, `<${name} a="1">`, `<${name}-1>`, `<${name.toUpperCase()}>`];
      for (const miss of misses) expect(tagCommands(miss)).toEqual([[miss, undefined]]);
    }
  });

  it('is given exactly when the tag is <name> of a command, for any input', () => {
    fc.assert(
      fc.property(input, (text) => {
        for (const [image, command] of tagCommands(text)) {
          const name = /^<([A-Za-z][A-Za-z0-9_-]*)>$/.exec(image)?.[1];
          expect(command).toBe(name !== undefined && Object.hasOwn(TAGS, name) ? TAGS[name] : undefined);
        }
      }),
      { numRuns: 2000 },
    );
  }, 60_000);
});
