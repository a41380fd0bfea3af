// Tests written for mutants of src/parse that survived `npm run mutation` (bench/MUTATION.md):
// the public parse() result (AST nodes with their offsets, diagnostics with their spans and
// messages), at the points no other test looked.
import { describe, expect, it } from 'vitest';
import { parse } from '../src/index.js';

const messages = (s: string) => parse(s).diagnostics.map((d) => [d.code, d.message, d.span.start.offset, d.span.end.offset]);

describe('the AST of parse()', () => {
  it('is a document node', () => {
    expect(parse('x').ast.type).toBe('document');
  });

  it('gives <qrcode/> a qrcode node with no data, spanning the tag', () => {
    expect(parse('ab<qrcode />').ast.children).toEqual([
      { type: 'text', value: 'ab', start: 0, end: 2 },
      { type: 'qrcode', data: '', dataStart: 12, start: 2, end: 12 },
    ]);
  });

  it('recognises a known tag by its own characters, not by the text before it', () => {
    // The text before the tag is "textAlignLeft" backwards, and the unknown tag is as long as
    // <textAlignLeft>: still text with a warning, not a command.
    const s = 'tfeLngilAtxet<abcdefghijklm>';
    expect(parse(s).ast.children).toEqual([{ type: 'text', value: s, start: 0, end: s.length }]);
    expect(messages(s)).toEqual([['parse/unknown-tag', 'unknown tag <abcdefghijklm> is printed as text', 13, 28]]);
  });
});

describe('parse diagnostics: messages and spans', () => {
  it('says a stray </qrcode> has no opening tag, over the whole closing tag', () => {
    expect(messages('ab</qrcode\t>')).toEqual([['parse/stray-closing-tag', '</qrcode> without an opening <qrcode>', 2, 12]]);
  });

  it('says how to close an unclosed <qrcode>, at the opening tag', () => {
    expect(messages('a<qrcode>xyz')).toEqual([
      ['parse/unclosed-qrcode', '<qrcode> is never closed: add </qrcode> after the data to encode', 1, 9],
    ]);
  });

  it('adds no hint for an unknown tag that resembles no known one', () => {
    expect(messages('<foo>')).toEqual([['parse/unknown-tag', 'unknown tag <foo> is printed as text', 0, 5]]);
  });

  it('says a known tag takes no closing tag when it is written as one', () => {
    expect(messages('</paperCutFull>')).toEqual([
      ['parse/unknown-tag', 'unknown tag </paperCutFull> is printed as text; <paperCutFull> takes no closing tag', 0, 15],
    ]);
    // Mis-cased as well: the same hint, with the right spelling.
    expect(messages('</PaperFeed>')).toEqual([
      ['parse/unknown-tag', 'unknown tag </PaperFeed> is printed as text; <paperFeed> takes no closing tag', 0, 12],
    ]);
  });

  it('gives no closing-tag hint for </name/> (not a closing tag of a known name)', () => {
    expect(messages('</paperCutFull/>')).toEqual([['parse/unknown-tag', 'unknown tag </paperCutFull/> is printed as text', 0, 16]]);
  });

  it('suggests <qrcode> for a mis-cased closing </QRCODE>, which does close a qrcode', () => {
    expect(messages('</QRCODE>')).toEqual([['parse/unknown-tag', 'unknown tag </QRCODE> is printed as text; did you mean <qrcode>?', 0, 9]]);
  });
});
