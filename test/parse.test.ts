// The tag language as users write it: what is a tag, what is text, what is an error.
import { describe, expect, it } from 'vitest';
import { parse } from '../src/index.js';

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

  it.each(['<b>', '<foo>', '</b>', '<TextAlignCenter>', '</textAlignLeft>'])('prints the unknown tag %j as written, with a warning at its position', (s) => {
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
  // Text and QR payload are custom matchers with explicit start characters (the lexer's
  // first-character optimisation): every UTF-16 code unit must still start one of them.
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

describe('lexer definition', () => {
  // The shared lexer skips chevrotain's definition checks to start faster; this builds one with
  // the checks on, so a token mistake still fails here.
  it('passes chevrotain lexer validation', async () => {
    const { Lexer } = await import('chevrotain');
    const { lexerDefinition } = await import('../src/parse/tokens.js');
    const checked = new Lexer(lexerDefinition, { positionTracking: 'onlyOffset', safeMode: true });
    expect(checked.lexerDefinitionErrors).toEqual([]);
  });
});
