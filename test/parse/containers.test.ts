// <barcode>, <row> and <cell>: tags that hold content until they close. What each holds, where
// each ends when its closing tag is missing, and what is left out (with an error) in a row.
import { describe, expect, it } from 'vitest';
import { parse, type RowNode } from '../../src/index.js';

const codes = (s: string) => parse(s).diagnostics.map((d) => `${d.code}@${d.span.start.offset}-${d.span.end.offset}`);
const nodes = (s: string) => parse(s).ast.children;

describe('<barcode>', () => {
  it('keeps its data exactly as written, tags, escapes and line breaks included', () => {
    const s = '<barcode type="code128">A<b>&amp;\n<paperCutFull></barcode>z';
    expect(nodes(s)).toEqual([
      { type: 'barcode', symbology: 'code128', height: 80, module: 2, text: 'below', data: 'A<b>&amp;\n<paperCutFull>', dataStart: 24, start: 0, end: 58 },
      { type: 'text', value: 'z', start: 58, end: 59 },
    ]);
    expect(codes(s)).toEqual([]);
  });

  it('takes a <qrcode> inside its data as data', () => {
    expect(nodes('<barcode type="code39"><qrcode>x</qrcode></barcode>')).toMatchObject([{ type: 'barcode', data: '<qrcode>x</qrcode>' }]);
    expect(codes('<barcode type="code39"><qrcode>x</qrcode></barcode>')).toEqual([]);
  });

  it('closes at </barcode> with blanks before ">"', () => {
    expect(nodes('<barcode type="ean8">1</barcode \t>')).toMatchObject([{ data: '1', end: 34 }]);
  });

  it('is empty in its self-closing form', () => {
    expect(nodes('<barcode type="ean8"/>')).toEqual([{ type: 'barcode', symbology: 'ean8', height: 80, module: 2, text: 'below', data: '', dataStart: 22, start: 0, end: 22 }]);
    expect(nodes('<barcode type="ean8"/>x').map((n) => n.type)).toEqual(['barcode', 'text']);
    expect(codes('<barcode type="ean8"/>x')).toEqual([]);
  });

  it('runs to the end when unclosed, with an error at the opening tag', () => {
    expect(nodes('<barcode type="ean8">123\n4')).toMatchObject([{ data: '123\n4', end: 26 }]);
    expect(codes('<barcode type="ean8">123\n4')).toEqual(['parse/unclosed-tag@0-21']);
    expect(parse('<barcode type="ean8">123').diagnostics[0]!.message).toBe('<barcode> is never closed: add </barcode> after its data');
  });

  it('does not close at a "</barcode" that is not a whole tag', () => {
    expect(nodes('<barcode type="ean8">12</barcode')).toMatchObject([{ data: '12</barcode', end: 32 }]);
    expect(codes('<barcode type="ean8">12</barcode')).toEqual(['parse/unclosed-tag@0-21']);
  });

  it('swallows its data, printing nothing, when its tag is refused', () => {
    expect(nodes('<barcode type="x">123</barcode>ok')).toEqual([{ type: 'text', value: 'ok', start: 31, end: 33 }]);
    expect(codes('<barcode type="x">123</barcode>ok')).toEqual(['parse/attribute-invalid@15-16']);
  });

  it('reports a stray </barcode> as an error, printing nothing for it', () => {
    expect(nodes('a</barcode>b')).toEqual([
      { type: 'text', value: 'a', start: 0, end: 1 },
      { type: 'text', value: 'b', start: 11, end: 12 },
    ]);
    expect(parse('a</barcode>b').diagnostics[0]).toMatchObject({ code: 'parse/stray-closing-tag', severity: 'error', message: '</barcode> without an opening <barcode>' });
  });
});

describe('<row> and <cell>', () => {
  it('holds cells, with blanks and line breaks between them ignored', () => {
    const s = '<row>\r\n\t<cell width="4">Qtd</cell>  <cell align="right">Total</cell>\n</row>';
    expect(nodes(s)).toEqual([
      {
        type: 'row',
        start: 0,
        end: s.length,
        cells: [
          { type: 'cell', width: { columns: 4 }, align: 'left', text: 'Qtd', pieces: [{ text: 'Qtd', start: 24 }], textStart: 24, textEnd: 27, start: 8, end: 34 },
          { type: 'cell', width: { share: 1 }, align: 'right', text: 'Total', pieces: [{ text: 'Total', start: 56 }], textStart: 56, textEnd: 61, start: 36, end: 68 },
        ],
      },
    ]);
    expect(codes(s)).toEqual([]);
  });

  it('keeps line breaks, lone "<" and unknown tags of a cell in its text (the last with a warning)', () => {
    expect(nodes('<row><cell>a\nb < c <i>d</cell></row>')).toMatchObject([{ cells: [{ text: 'a\nb < c <i>d' }] }]);
    // Where each piece of the text came from: as written, an escape (its own piece), a lone "<", an unknown tag.
    expect((nodes('<row><cell>a &amp; b &lt;c < <i>d</cell></row>')[0] as RowNode).cells[0]!.pieces).toEqual([
      { text: 'a ', start: 11 }, { text: '&', start: 13 }, { text: ' b ', start: 18 }, { text: '<', start: 21 }, { text: 'c ', start: 25 },
      { text: '<', start: 27 }, { text: ' ', start: 28 }, { text: '<i>', start: 29 }, { text: 'd', start: 32 },
    ]);
    expect(codes('<row><cell>a\nb < c <i>d</cell></row>')).toEqual(['parse/unknown-tag@19-22']);
  });

  it('makes an empty row and an empty cell of the self-closing forms', () => {
    expect(nodes('<row/>')).toEqual([{ type: 'row', cells: [], start: 0, end: 6 }]);
    expect(nodes('<row/>x').map((n) => n.type)).toEqual(['row', 'text']);
    expect(codes('<row/>x')).toEqual([]);
    expect(nodes('<row><cell/></row>')).toEqual([{ type: 'row', start: 0, end: 18, cells: [{ type: 'cell', width: { share: 1 }, align: 'left', text: '', pieces: [], textStart: 12, textEnd: 12, start: 5, end: 12 }] }]);
  });

  it('leaves out text and tags between cells, with an error each', () => {
    const s = '<row>x<paperCutFull><qrcode>q</qrcode><qrcode/></cell><cell>a</cell></row>';
    expect(nodes(s)).toMatchObject([{ type: 'row', cells: [{ text: 'a' }] }]);
    expect(codes(s)).toEqual(['parse/misplaced-content@5-6', 'parse/misplaced-content@6-20', 'parse/misplaced-content@20-38', 'parse/misplaced-content@38-47', 'parse/misplaced-content@47-54']);
    expect(parse(s).diagnostics.map((d) => d.message)).toEqual([
      'text outside a <cell> is left out of the <row>',
      '<paperCutFull> cannot go in a <row> outside its cells: it is left out',
      '<qrcode> cannot go in a <row>: it is left out',
      '<qrcode/> cannot go in a <row> outside its cells: it is left out',
      '</cell> cannot go in a <row> outside its cells: it is left out',
    ]);
  });

  it('leaves out a lone "<" between cells as text', () => {
    expect(nodes('<row> < </row>')).toEqual([{ type: 'row', cells: [], start: 0, end: 14 }]);
    expect(parse('<row> < </row>').diagnostics.map((d) => [d.message, d.span.start.offset, d.span.end.offset])).toEqual([['text outside a <cell> is left out of the <row>', 6, 7]]);
  });

  it('leaves out known tags, QR codes and rows inside a cell, with an error each', () => {
    const s = '<row><cell>a<textBoldOn>b<qrcode>q</qrcode><row>c<textSize width="2">d</cell></row>';
    expect(nodes(s)).toMatchObject([{ type: 'row', cells: [{ text: 'abcd' }] }]);
    expect(codes(s).map((c) => c.split('@')[0])).toEqual(Array(4).fill('parse/misplaced-content'));
    expect(parse(s).diagnostics.map((d) => d.message)).toEqual([
      '<textBoldOn> cannot go in a <cell> (only text can): it is left out; put it before the <row>',
      '<qrcode> cannot go in a <cell>: it is left out',
      '<row> cannot go in a <cell> (only text can): it is left out; put it before the <row>',
      '<textSize width="2"> cannot go in a <cell> (only text can): it is left out; put it before the <row>',
    ]);
  });

  it('leaves out an empty <qrcode/> and a stray </qrcode> inside a cell, with an error each', () => {
    const s = '<row><cell>a<qrcode/>b</qrcode>c</cell></row>';
    expect(nodes(s)).toMatchObject([{ type: 'row', cells: [{ text: 'abc' }] }]);
    expect(parse(s).diagnostics.map((d) => d.message)).toEqual([
      '<qrcode/> cannot go in a <cell> (only text can): it is left out',
      '</qrcode> cannot go in a <cell> (only text can): it is left out',
    ]);
  });

  it('gives an unknown tag in a cell the hint it gets outside a row', () => {
    const tags = '</TextBoldOn><TextBoldOn></TextBoldOn/>';
    const messages = (s: string) => parse(s).diagnostics.map((d) => d.message);
    expect(nodes(`<row><cell>${tags}</cell></row>`)).toMatchObject([{ cells: [{ text: tags }] }]);
    expect(messages(`<row><cell>${tags}</cell></row>`)).toEqual([
      'unknown tag </TextBoldOn> is printed as text; <textBoldOn> takes no closing tag',
      'unknown tag <TextBoldOn> is printed as text; did you mean <textBoldOn>?',
      'unknown tag </TextBoldOn/> is printed as text; did you mean <textBoldOn>?',
    ]);
    expect(messages(tags)).toEqual(messages(`<row><cell>${tags}</cell></row>`));
  });

  it('ends an unclosed cell at the next <cell> or at </row>, with an error at the cell', () => {
    const s = '<row><cell>a<cell>b</row>';
    expect(nodes(s)).toEqual([
      {
        type: 'row',
        start: 0,
        end: 25,
        cells: [
          { type: 'cell', width: { share: 1 }, align: 'left', text: 'a', pieces: [{ text: 'a', start: 11 }], textStart: 11, textEnd: 12, start: 5, end: 12 },
          { type: 'cell', width: { share: 1 }, align: 'left', text: 'b', pieces: [{ text: 'b', start: 18 }], textStart: 18, textEnd: 19, start: 12, end: 19 },
        ],
      },
    ]);
    expect(codes(s)).toEqual(['parse/unclosed-tag@5-11', 'parse/unclosed-tag@12-18']);
    expect(parse(s).diagnostics.map((d) => d.message)).toEqual(Array(2).fill('<cell> is never closed: add </cell> after its text'));
  });

  it('closes an unclosed row (and cell) at the end, with an error at each opening tag', () => {
    expect(nodes('<row><cell>a')).toMatchObject([{ type: 'row', end: 12, cells: [{ text: 'a', end: 12 }] }]);
    expect(codes('<row><cell>a')).toEqual(['parse/unclosed-tag@0-5', 'parse/unclosed-tag@5-11']);
    expect(parse('<row><cell>a').diagnostics.map((d) => d.message)).toEqual(['<row> is never closed: add </row> after its cells', '<cell> is never closed: add </cell> after its text']);
  });

  it('refuses a <cell> outside a row, and a stray </row> or </cell>', () => {
    expect(nodes('<cell>a</cell></row>')).toEqual([{ type: 'text', value: 'a', start: 6, end: 7 }]);
    expect(parse('<cell>a</cell></row>').diagnostics.map((d) => d.message)).toEqual([
      '<cell> must be inside a <row>: it is left out',
      '</cell> without an opening <cell>',
      '</row> without an opening <row>',
    ]);
  });

  it('warns of attributes on a closing tag and on <row>, and still closes', () => {
    expect(nodes('<row x="1"><cell>a</cell y="2"></row z="3">')).toMatchObject([{ type: 'row', cells: [{ text: 'a' }] }]);
    expect(codes('<row x="1"><cell>a</cell y="2"></row z="3">').map((c) => c.split('@')[0])).toEqual(Array(3).fill('parse/attribute-unknown'));
    expect(parse('<row x="1"><cell>a</cell y="2"></row z="3">').diagnostics.map((d) => d.message)).toEqual([
      '<row> has no attribute x: it is ignored (it takes none)',
      '</cell> has no attribute y: it is ignored (it takes none)',
      '</row> has no attribute z: it is ignored (it takes none)',
    ]);
  });

  it('goes back to the document after </row>: the next tags are commands again', () => {
    expect(nodes('<row><cell>a</cell></row>\n<paperCutFull>').map((n) => n.type)).toEqual(['row', 'text', 'command']);
  });
});
