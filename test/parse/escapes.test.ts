// &lt; and &amp; print < and &; nothing else of the form &…; is special; escape() makes any string
// print literally, so shop data cannot become a command.
import { describe, expect, it } from 'vitest';
import { compile, escape, listing, parse } from '../../src/index.js';

const texts = (s: string) => parse(s).ast.children.map((n) => (n.type === 'text' ? [n.value, n.start, n.end] : n.type));

describe('escapes in text', () => {
  it('gives each escape a text node of its own, spanning the escape, between runs as written', () => {
    expect(texts('a&lt;b&amp;c')).toEqual([
      ['a', 0, 1],
      ['<', 1, 5],
      ['b', 5, 6],
      ['&', 6, 11],
      ['c', 11, 12],
    ]);
    expect(texts('&lt;&lt;')).toEqual([
      ['<', 0, 4],
      ['<', 4, 8],
    ]);
  });

  it('leaves every other & sequence as written, with no diagnostic', () => {
    for (const s of ['&gt;', '&quot;', '&#60;', '&LT;', '&lt', '& lt;', 'R&D', '&', '&&amp', 'P&amp', '&ampx;']) {
      expect(texts(s)).toEqual([[s, 0, s.length]]);
      expect(parse(s).diagnostics).toEqual([]);
    }
  });

  it('resolves an escape once: &amp;lt; prints &lt;', () => {
    expect(texts('&amp;lt;')).toEqual([
      ['&', 0, 5],
      ['lt;', 5, 8],
    ]);
  });

  it('resolves escapes in cell text and attribute values, and not in QR or barcode data', () => {
    expect(parse('<row><cell>a &lt; b</cell></row>').ast.children[0]).toMatchObject({ cells: [{ text: 'a < b' }] });
    expect(parse('<qrcode>?a=1&amp;b=2</qrcode>').ast.children[0]).toMatchObject({ data: '?a=1&amp;b=2' });
    expect(parse('<barcode type="code128">A&lt;B</barcode>').ast.children[0]).toMatchObject({ data: 'A&lt;B' });
  });

  it('prints an escape as its character, in one text record per printed line', () => {
    const { listing: text } = listing('<textAlignLeft>1 &lt; 2 &amp;&amp; 3\nok\n', { printer: 'MAKER5T20' });
    const lines = text.split('\n').filter((l) => l.includes(' text '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('@1:16-2:1');
    expect(lines[0]).toContain('"1 < 2 && 3\\n"');
  });

  it('reports a character the code page lacks at its own column, after an escape', () => {
    const { diagnostics } = compile('&amp;&lt;😀', { printer: 5 });
    expect(diagnostics.map((d) => [d.code, d.span.start.column])).toEqual([['text/replaced', 10]]);
  });
});

describe('escape()', () => {
  it('turns & into &amp; and < into &lt;, and nothing else', () => {
    expect(escape('Pão <cashDrawerOpen> & "aspas" > &lt;')).toBe('Pão &lt;cashDrawerOpen> &amp; "aspas" > &amp;lt;');
    expect(escape('plain')).toBe('plain');
    expect(escape('')).toBe('');
  });

  it("prints 'Pão <cashDrawerOpen>' literally: no ESC p, no diagnostic", () => {
    const name = 'Pão <cashDrawerOpen>';
    for (const printer of ['MAKER5T20', 'MAKER3DR800', 'MAKER4I9']) {
      const { bytes, diagnostics, records } = compile(`<textAlignLeft>${escape(name)}\n`, { printer, records: true });
      expect(diagnostics).toEqual([]);
      expect(records!.map((r) => r.op)).not.toContain('drawer');
      expect(Buffer.from(bytes).includes(Buffer.from([0x1b, 0x70]))).toBe(false);
      expect(Buffer.from(bytes).includes(Buffer.from('<cashDrawerOpen>', 'latin1'))).toBe(true);
    }
    // Unescaped, the same text opens the drawer: the escape is what prevents it.
    expect(compile(`<textAlignLeft>${name}\n`, { printer: 'MAKER5T20', records: true }).records!.map((r) => r.op)).toContain('drawer');
  });

  it('makes a <cell> text literal too', () => {
    const text = 'x</cell><paperCutFull>&lt;';
    expect(parse(`<row><cell>${escape(text)}</cell></row>`).ast.children).toMatchObject([{ type: 'row', cells: [{ text }] }]);
  });
});
