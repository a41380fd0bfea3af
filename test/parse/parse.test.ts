// The tag language as users write it: what is a tag, what is text, what is an error.
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';

const kinds = (s: string) => parse(s).ast.children.map((n) => (n.type === 'text' ? `text:${n.value}` : n.type === 'command' ? n.command : n.type === 'qrcode' ? `qr:${n.data}` : n.type));
const codes = (s: string) => parse(s).diagnostics.map((d) => `${d.code}@${d.span.start.line}:${d.span.start.column}`);

describe('parse', () => {
  it('recognises the eight documented tags and the two extensions', () => {
    expect(kinds('<textAlignLeft><textAlignCenter><textAlignRight><textCondensedOn><textCondensedOff><paperCutFull><paperCutPartial><qrcode>x</qrcode><cashDrawerOpen><paperFeed>')).toEqual([
      'alignLeft', 'alignCenter', 'alignRight', 'condensedOn', 'condensedOff', 'cutFull', 'cutPartial', 'qr:x', 'drawerOpen', 'feed',
    ]);
  });

  it.each(['a < b', '<', '<3', '3 <4', '<<', 'x<', '< textAlignLeft>'])('prints %j as written, with no diagnostic', (s) => {
    expect(kinds(s)).toEqual([`text:${s}`]);
    expect(codes(s)).toEqual([]);
  });

  it.each(['<b>', '<foo>', '</b>', '<TextAlignCenter>', '</textAlignLeft>', '<textAlign>', '<textAlignLeftx>', '<paperCutFull_>', '<t>'])('prints the unknown tag %j as written, with a warning at its position', (s) => {
    expect(kinds(`ab${s}`)).toEqual([`text:ab${s}`]);
    expect(codes(`ab${s}`)).toEqual(['parse/unknown-tag@1:3']);
  });

  it('suggests the right spelling of a mis-cased tag', () => {
    expect(parse('<TEXTALIGNCENTER>').diagnostics[0]!.message).toContain('did you mean <textAlignCenter>?');
  });

  it('accepts the self-closing form of a tag', () => {
    expect(kinds('a<paperCutFull/>b')).toEqual(['text:a', 'cutFull', 'text:b']);
  });

  it('keeps a QR payload verbatim, tags and all', () => {
    expect(kinds('<qrcode>https://x.y/?a=1&b=<2></qrcode>')).toEqual(['qr:https://x.y/?a=1&b=<2>']);
  });

  it('reports an unclosed <qrcode> as an error at the tag', () => {
    expect(codes('line one\n  <qrcode>https://x')).toEqual(['parse/unclosed-qrcode@2:3']);
    expect(parse('<qrcode>abc').diagnostics[0]!.severity).toBe('error');
  });

  it('reports a stray </qrcode> as an error at its position', () => {
    expect(codes('ok\r\nfine </qrcode>')).toEqual(['parse/stray-closing-tag@2:6']);
  });

  it('counts lines across LF, CRLF and lone CR for diagnostics', () => {
    expect(codes('a\nb\r\nc\rd<b>')).toEqual(['parse/unknown-tag@4:2']);
  });

  it('gives spans with 1-based line and column and 0-based offsets', () => {
    const [d] = parse('x\n<foo>').diagnostics;
    expect(d!.span).toEqual({ start: { offset: 2, line: 2, column: 1 }, end: { offset: 7, line: 2, column: 6 } });
  });
});

describe('lexer', () => {
  // The lexer branches on the first code unit of a token (a `<` or not): every UTF-16 code unit
  // must start a text run or a QR payload, surrogate halves and line breaks included.
  const units = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c));

  it('starts a text run at every UTF-16 code unit other than "<"', () => {
    // Each unit right after a lone "<", so each one has to start a token of its own.
    const text = units.filter((u) => u !== '<').map((u) => `<${u}`).join('');
    expect(kinds(text)).toEqual([`text:${text}`]);
    expect(codes(text)).toEqual([]);
  });

  it('starts a QR payload at every UTF-16 code unit', () => {
    const payloads = units.map((u) => `${u}x`);
    expect(kinds(payloads.map((p) => `<qrcode>${p}</qrcode>`).join(''))).toEqual(payloads.map((p) => `qr:${p}`));
  });

  it('ends a payload only at a real </qrcode> (spaces and tabs allowed before ">")', () => {
    expect(kinds('<qrcode>a</qrcodex></qrcode \t>b')).toEqual(['qr:a</qrcodex>', 'text:b']);
    expect(kinds('<qrcode>a</qrcode')).toEqual(['qr:a</qrcode']);
  });
});

// The public parse() result at the points the tests above did not look, each kept because a mutant
// of src/parse survived without it (`npm run mutation`, bench/MUTATION.md): AST nodes with their
// offsets, diagnostics with their spans and messages.
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
