// Attributes as users write them: name="value" on the tags that take them, checked for syntax and
// range at parse, with each mistake reported at its own line and column.
import { describe, expect, it } from 'vitest';
import { parse, type Node } from '../../src/index.js';
import { ATTRIBUTE_SPECS, DEFAULTS } from '../../src/parse/elements.js';

const only = (s: string): Node => {
  const { children } = parse(s).ast;
  expect(children).toHaveLength(1);
  return children[0]!;
};
const diags = (s: string) => parse(s).diagnostics.map((d) => [d.code, d.severity, d.span.start.offset, d.span.end.offset, d.message]);
const codes = (s: string) => parse(s).diagnostics.map((d) => `${d.code}@${d.span.start.line}:${d.span.start.column}`);

describe('attribute syntax', () => {
  it('reads name="value" pairs in any order, with blanks and tabs around "="', () => {
    expect(only('<textSize height="3"\twidth = "2" >')).toEqual({ type: 'textSize', width: 2, height: 3, start: 0, end: 34 });
    expect(codes('<textSize height="3"\twidth = "2" >')).toEqual([]);
  });

  it('accepts the self-closing form with attributes', () => {
    expect(only('<rule char="="/>')).toEqual({ type: 'rule', char: '=', start: 0, end: 16, charStart: 12 });
    expect(only('<rule/>')).toEqual({ type: 'rule', char: '-', start: 0, end: 7 });
    expect(only('<rule char="=" />')).toMatchObject({ type: 'rule', char: '=' });
  });

  it('gives a rule the start of its char value when it was written and is valid, after any other attribute', () => {
    // charStart is where diagnostics about the character point: the char attribute's value, not
    // the first attribute's; and with an invalid value the rule has the default character, written nowhere.
    expect(only('<rule x="1" char="="/>')).toEqual({ type: 'rule', char: '=', start: 0, end: 22, charStart: 18 });
    expect(only('<rule char="ab"/>')).toEqual({ type: 'rule', char: '-', start: 0, end: 17 });
    expect(only('<rule x="1"/>')).toEqual({ type: 'rule', char: '-', start: 0, end: 13 });
  });

  it('takes ">" inside a quoted value, and resolves &lt; and &amp; in it', () => {
    expect(only('<rule char=">"/>')).toMatchObject({ char: '>' });
    expect(only('<rule char="&lt;"/>')).toMatchObject({ char: '<' });
    expect(only('<rule char="&amp;"/>')).toMatchObject({ char: '&' });
    // A character typed decomposed is the one it composes; one that NFC splits in two is taken as written.
    expect(only('<rule char="e\u0301"/>')).toMatchObject({ char: '\u00e9' });
    expect(only('<rule char="\u2adc"/>')).toMatchObject({ char: '\u2adc' });
    // A CJK compatibility ideograph is one character composed too: the one it stands for (fast-check found it).
    expect(only('<rule char="\u{2f800}"/>')).toMatchObject({ char: '\u4e3d' });
    expect(only('<image src="a&amp;b&gt;"/>')).toMatchObject({ src: 'a&b&gt;' });
  });

  it('reports an unquoted value or a missing value as an error over the attribute, and uses the default', () => {
    expect(only('<textSize width=2>')).toMatchObject({ width: 1 });
    expect(diags('<textSize width=2>')).toEqual([
      ['parse/attribute-invalid', 'error', 10, 17, '<textSize> attribute width must be written width="2" (a whole number from 1 to 8)'],
    ]);
    expect(diags('<textSize width>')).toEqual([
      ['parse/attribute-invalid', 'error', 10, 15, '<textSize> attribute width must be written width="…" (a whole number from 1 to 8)'],
    ]);
    // Single quotes are not the syntax either: the value, quotes and all, is unquoted.
    expect(codes("<cell align='right'>")).toEqual(['parse/misplaced-content@1:1']);
    expect(codes("<textSize width='2'>")).toEqual(['parse/attribute-invalid@1:11']);
  });

  it('reports a refused value at the value itself, with what was expected', () => {
    expect(diags('a\n<textSize height="0">')).toEqual([['parse/attribute-invalid', 'error', 20, 21, '<textSize> height="0" is not valid: expected a whole number from 1 to 8']]);
    expect(codes('a\n<textSize height="0">')).toEqual(['parse/attribute-invalid@2:19']);
    expect(diags('<barcode type="ean99">1</barcode>')).toEqual([
      ['parse/attribute-invalid', 'error', 15, 20, '<barcode> type="ean99" is not valid: expected one of ean13, ean8, upca, code39, code128, itf, codabar'],
    ]);
  });

  it('warns of an unknown attribute at its name, ignores it, and suggests a mis-cased one', () => {
    expect(only('<textSize Width="2">')).toMatchObject({ width: 1 });
    expect(diags('<textSize Width="2">')).toEqual([['parse/attribute-unknown', 'warning', 10, 19, '<textSize> has no attribute Width: it is ignored; did you mean width?']]);
    expect(diags('<rule color="red"/>')).toEqual([['parse/attribute-unknown', 'warning', 6, 17, '<rule> has no attribute color: it is ignored (it takes char)']]);
    expect(diags('<textSize depth="2">')).toEqual([['parse/attribute-unknown', 'warning', 10, 19, '<textSize> has no attribute depth: it is ignored (it takes width, height)']]);
  });

  it('warns of any attribute on a command tag, which takes none, and keeps the command', () => {
    expect(only('<paperCutFull mode="partial">')).toEqual({ type: 'command', command: 'cutFull', tag: 'paperCutFull', start: 0, end: 29 });
    expect(diags('<paperCutFull mode="partial">')).toEqual([['parse/attribute-unknown', 'warning', 14, 28, '<paperCutFull> has no attribute mode: it is ignored (it takes none)']]);
    expect(codes('<textBoldOn x/>')).toEqual(['parse/attribute-unknown@1:13']);
  });

  it('warns of an attribute on <row>, which takes none, naming the row', () => {
    expect(diags('<row x="1"/>')).toEqual([['parse/attribute-unknown', 'warning', 5, 10, '<row> has no attribute x: it is ignored (it takes none)']]);
  });

  it('refuses an attribute given twice (neither is used) with an error at the second', () => {
    expect(only('<textSize width="2" width="3">')).toMatchObject({ width: 1 });
    expect(diags('<textSize width="2" width="3">')).toEqual([['parse/attribute-duplicate', 'error', 20, 29, '<textSize> has width more than once: write it once']]);
    // Twice an optional one: the node is made without it; twice a required one: no node.
    const image = only('<image src="a" width="8" width="9"/>');
    expect(image).toMatchObject({ src: 'a' });
    expect(image).not.toHaveProperty('width');
    expect(parse('<image src="a" src="b"/>').ast.children).toEqual([]);
  });

  it('reports a missing required attribute at the tag, and makes no node', () => {
    expect(parse('<image width="8"/>').ast.children).toEqual([]);
    expect(diags('<image width="8"/>')).toEqual([
      ['parse/attribute-missing', 'error', 0, 18, '<image> needs src="…" (a data:image/png;base64,… URI or the name of an image passed to compile()): nothing is printed for it'],
    ]);
    // A refused required value counts as missing for the node: no image with an empty src.
    expect(parse('<image src=""/>').ast.children).toEqual([]);
    expect(codes('<image src=""/>')).toEqual(['parse/attribute-invalid@1:13']);
    expect(parse('<image src=a />').ast.children).toEqual([]); // unquoted: as missing
    expect(codes('<image src=a />')).toEqual(['parse/attribute-invalid@1:8']);
  });

  it('never lets a tag span lines, or take a "<" inside a value: such a text is printed as written', () => {
    for (const s of ['<textSize\nwidth="2">', '<textSize width="2\n">', '<rule char="<"/>']) {
      expect(parse(s).ast.children.every((n) => n.type === 'text')).toBe(true);
    }
    expect(codes('<textSize\nwidth="2">')).toEqual([]);
  });

  it('leaves text that only looks like attributes alone unless it is a tag', () => {
    // `<3 items>` starts no tag; `<Leve 3 pague 2>`: "3" cannot start an attribute name.
    for (const s of ['<3 items>', '<Leve 3 pague 2>', 'a <= b', '<a =b>']) {
      expect(parse(s).ast.children).toEqual([{ type: 'text', value: s, start: 0, end: s.length }]);
      expect(codes(s)).toEqual([]);
    }
    // An unknown tag with attributes is an unknown tag: text, with the usual warning.
    expect(codes('<font size="2">x')).toEqual(['parse/unknown-tag@1:1']);
    expect(parse('<font size="2">x').ast.children).toEqual([{ type: 'text', value: '<font size="2">x', start: 0, end: 16 }]);
  });
});

describe('attribute values, per tag', () => {
  it.each([
    ['<textSize width="1" height="8">', { width: 1, height: 8 }],
    ['<textSize width="08">', { width: 8, height: 1 }],
  ])('%s reads as %j', (s, fields) => expect(only(s)).toMatchObject(fields));

  it.each([
    ['<textSize width="0">'],
    ['<textSize width="9">'],
    ['<textSize width="-1">'],
    ['<textSize width="1.5">'],
    ['<textSize width=" 2">'],
    ['<textSize width="">'],
    ['<barcode type="ean13" height="256">1</barcode>'],
    ['<barcode type="ean13" module="7">1</barcode>'],
    ['<barcode type="ean13" module="0">1</barcode>'],
    ['<barcode type="EAN13">1</barcode>'],
    ['<barcode type="ean13" text="under">1</barcode>'],
    ['<qrcode size="17">x</qrcode>'],
    ['<qrcode ecc="m">x</qrcode>'],
    ['<image src="a" width="65536"/>'],
    ['<image src="a" dither="ordered"/>'],
    ['<rule char=""/>'],
    ['<rule char="\t"/>'],
  ])('refuses %s with one attribute-invalid error', (s) => {
    expect(codes(s).map((c) => c.split('@')[0])).toEqual(['parse/attribute-invalid']);
  });

  it('fills the defaults of the issue when attributes are left out', () => {
    expect(only('<textSize>')).toMatchObject({ width: 1, height: 1 });
    expect(only('<barcode type="itf">12</barcode>')).toEqual({ type: 'barcode', symbology: 'itf', height: 80, module: 2, text: 'below', data: '12', dataStart: 20, start: 0, end: 32 });
    expect(only('<image src="logo"/>')).toEqual({ type: 'image', src: 'logo', dither: 'floyd-steinberg', start: 0, end: 19 });
    expect(only('<rule/>')).toMatchObject({ char: '-' });
    expect(only('<qrcode>x</qrcode>')).toEqual({ type: 'qrcode', data: 'x', dataStart: 8, start: 0, end: 18 });
    expect(DEFAULTS).toMatchObject({ textSize: { width: 1, height: 1 }, barcode: { height: 80, module: 2, text: 'below' }, image: { dither: 'floyd-steinberg' }, rule: { char: '-' } });
  });

  it('reads every symbology, text position, dither, ecc and alignment by its exact name', () => {
    for (const type of ['ean13', 'ean8', 'upca', 'code39', 'code128', 'itf', 'codabar']) expect(only(`<barcode type="${type}">1</barcode>`)).toMatchObject({ symbology: type });
    for (const text of ['none', 'above', 'below', 'both']) expect(only(`<barcode type="ean8" text="${text}">1</barcode>`)).toMatchObject({ text });
    for (const dither of ['floyd-steinberg', 'atkinson', 'threshold']) expect(only(`<image src="x" dither="${dither}"/>`)).toMatchObject({ dither });
    for (const ecc of ['L', 'M', 'Q', 'H']) expect(only(`<qrcode ecc="${ecc}">x</qrcode>`)).toMatchObject({ ecc });
    for (const align of ['left', 'center', 'right']) expect(only(`<row><cell align="${align}">x</cell></row>`)).toMatchObject({ cells: [{ align }] });
  });

  it('reads a cell width as columns (N) or shares (N*, * alone for 1*)', () => {
    const width = (w: string) => (only(`<row><cell width="${w}">x</cell></row>`) as { cells: { width: unknown }[] }).cells[0]!.width;
    expect(width('12')).toEqual({ columns: 12 });
    expect(width('3*')).toEqual({ share: 3 });
    expect(width('*')).toEqual({ share: 1 });
    for (const bad of ['0', '0*', '1000', '**', '2 *', 'x', '']) expect(codes(`<row><cell width="${bad}">x</cell></row>`)).toEqual(['parse/attribute-invalid@1:19']);
  });

  it('reads qrcode size and ecc on the payload and the empty form, with no key for one left out', () => {
    expect(only('<qrcode size="1" ecc="L">x</qrcode>')).toEqual({ type: 'qrcode', data: 'x', dataStart: 25, size: 1, ecc: 'L', start: 0, end: 35 });
    expect(only('<qrcode size="16"/>')).toStrictEqual({ type: 'qrcode', data: '', dataStart: 19, size: 16, start: 0, end: 19 });
    // Strict: the builder's AST (test/builder) has no `size: undefined` either.
    expect(only('<qrcode ecc="H">x</qrcode>')).toStrictEqual({ type: 'qrcode', data: 'x', dataStart: 16, ecc: 'H', start: 0, end: 26 });
  });

  it('has a spec for every tag with attributes, and none other', () => {
    expect(Object.keys(ATTRIBUTE_SPECS).sort()).toEqual(['barcode', 'cell', 'image', 'qrcode', 'row', 'rule', 'textSize']);
  });
});
