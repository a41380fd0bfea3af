// The receipt() builder: text always literal; toConteudo() is escaped tag text and toAst() the AST
// the parser makes of it, offsets included (not normalised: the builder places every node where it
// writes it), and both compile to the same bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, emit, escape, lower, parse, receipt, type ReceiptBuilder } from '../../src/index.js';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAADAAAAAUCAYAAADLP76nAAAAn0lEQVR4nO2WLWyDQBiGj7FiaqpqUBgMCoOqQdVgUDWoGhQGg2rSFYPBoDBVNSgMBlVThUFhMFUYFKaqFe92DWvG1JI1Iyy8ycN3F5LL/T3JEdINBsIjDP1MJhPCcRytaOtnv9P+7b8njsXQSnkhAw9Lj4Rl2W0LGQj3+bquu33tewefEdC7P51OMZvNMJ/PwfM8BEGAKIqQJAmyLENRFCwWC6h5Ya/hAAAAn0lEQVSqiuVyCU3ToOs6VqsVDMPAer2GaZqwLAu2bcNxHGw2G+x2O3ieB9/3EQQBwjDEfr/H4XBAFEWI4xhJkiBNUxyPR5xOJ2RZhjzPURQFyrLE+XxGVVWo6xpN0+ByueB6vd6FZtoFPE3UP5KY/CuJhyRvhw+JySjxKPEo8Shx/xkl7lti5gtDyWPOVOLvz9Te5fwBbx2Jb7fbnSHmHa1vr7DA3cQpAAAAAElFTkSuQmCC';

const ESC_P = (bytes: Uint8Array) => bytes.some((b, i) => b === 0x1b && bytes[i + 1] === 0x70);

describe('receipt()', () => {
  it("prints 'Pão <cashDrawerOpen>' literally, through escape() and through the builder, with no ESC p", () => {
    const name = 'Pão <cashDrawerOpen>';
    const viaEscape = compile('<textAlignLeft>' + escape(name) + '\n', { printer: 'MAKER5T20' });
    const viaBuilder = receipt().align('left').line(name).compile({ printer: 'MAKER5T20' });
    for (const r of [viaEscape, viaBuilder]) {
      expect(ESC_P(r.bytes)).toBe(false);
      expect(Buffer.from(r.bytes).toString('latin1')).toContain('P\xc6o <cashDrawerOpen>\n');
      expect(r.diagnostics).toEqual([]);
    }
    expect(viaBuilder.bytes).toEqual(viaEscape.bytes);
    // Unescaped, the same name opens the drawer: the check above can fail.
    expect(ESC_P(compile('<textAlignLeft>' + name + '\n', { printer: 'MAKER5T20' }).bytes)).toBe(true);
  });

  it('writes each method as its tag', () => {
    const b = receipt()
      .align('center')
      .bold()
      .underline()
      .invert()
      .size(2, 3)
      .condensed()
      .text('a&b')
      .line('<x>')
      .barcode('ean13', '789100031550', { height: 60, text: 'none' })
      .qrcode('https://x', { size: 4, ecc: 'H' })
      .image('logo', { width: 96, dither: 'atkinson' })
      .row(['Café', { text: '9,90', width: 8, align: 'right' }, { text: 'x', width: '2*' }])
      .rule()
      .rule('=')
      .feed()
      .cut('partial')
      .drawer()
      .bold(false)
      .size();
    expect(b.toConteudo()).toBe(
      '<textAlignCenter><textBoldOn><textUnderlineOn><textInvertOn><textSize width="2" height="3"><textCondensedOn>a&amp;b&lt;x>\n' +
        '<barcode type="ean13" height="60" text="none">789100031550</barcode><qrcode size="4" ecc="H">https://x</qrcode><image src="logo" width="96" dither="atkinson"/>' +
        '<row><cell>Café</cell><cell width="8" align="right">9,90</cell><cell width="2*">x</cell></row><rule/><rule char="="/><paperFeed><paperCutPartial><cashDrawerOpen><textBoldOff><textSize width="1" height="1">',
    );
    const { ast, diagnostics } = parse(b.toConteudo());
    expect(diagnostics).toEqual([]);
    expect(ast).toStrictEqual(b.toAst());
  });

  it('refuses, with a TypeError at the call, a value the language cannot hold', () => {
    expect(() => receipt().size(9)).toThrow(TypeError);
    expect(() => receipt().rule('ab')).toThrow(TypeError);
    expect(() => receipt().rule('"')).toThrow(TypeError);
    expect(() => receipt().image('a"b')).toThrow(TypeError);
    expect(() => receipt().barcode('ean14' as 'ean13', '1')).toThrow(TypeError);
    expect(() => receipt().qrcode('x</qrcode>y')).toThrow(TypeError);
    expect(() => receipt().barcode('code128', 'a</barcode>')).toThrow(TypeError);
    expect(() => receipt().row([{ text: 'a', width: 0 }])).toThrow(TypeError);
    expect(() => receipt().align('middle' as 'left')).toThrow(TypeError);
  });

  it('names the type of a wrong value, and says compile() needs its options', () => {
    expect(() => receipt().size(Number.NaN)).toThrow(new TypeError('textSize width: expected a whole number from 1 to 8, not the number NaN'));
    expect(() => receipt().size(2, '3' as never)).not.toThrow();
    expect(() => receipt().size(9)).toThrow(/, not the number 9$/);
    expect(() => (receipt() as unknown as { compile(): unknown }).compile()).toThrow(/^compile\(\): options must be an object such as \{ printer: 5 \}, not undefined$/);
  });

  it('takes a number as a cell\'s text, written as .text() writes it', () => {
    const b = receipt().row([5, { text: 12.5, width: 6, align: 'right' }]);
    expect(b.toConteudo()).toBe('<row><cell>5</cell><cell width="6" align="right">12.5</cell></row>');
    expect(parse(b.toConteudo()).ast).toStrictEqual(b.toAst());
  });

  it('refuses, with a TypeError naming the cell, a row that is not an array of cells, and writes nothing', () => {
    const untyped = receipt() as unknown as { row(cells: unknown): ReceiptBuilder; toConteudo(): string };
    expect(() => untyped.row('abc')).toThrow(new TypeError('row: expected an array of cells, not the string "abc"'));
    expect(() => untyped.row([null])).toThrow(new TypeError('row: cell 0: expected a string, a number or { text, width?, align? }, not null'));
    expect(() => untyped.row(['a', ['b']])).toThrow(new TypeError('row: cell 1: expected a string, a number or { text, width?, align? }, not an array'));
    expect(() => untyped.row([true])).toThrow(/^row: cell 0: expected .*, not true$/);
    expect(() => untyped.row([{ text: { a: 1 } }])).toThrow(new TypeError('row: cell 0: text: expected a string or a number, not an object'));
    expect(() => untyped.row(['a', { text: 'b', width: 0 }])).toThrow(TypeError);
    expect(untyped.toConteudo()).toBe('');
  });

  it('writes "<" and "&" in an attribute escaped, and takes a character typed decomposed as the one it composes', () => {
    for (const [char, written] of [['<', '&lt;'], ['&', '&amp;'], ['e\u0301', 'é']]) {
      const b = receipt().rule(char);
      expect(b.toConteudo()).toBe(`<rule char="${written}"/>`);
      expect(parse(b.toConteudo()).ast.children).toEqual(b.toAst().children);
      expect(b.compile({ printer: 0 }).bytes).toEqual(compile(`<rule char="${written}"/>`, { printer: 0 }).bytes);
    }
    expect(new TextDecoder().decode(receipt().rule('<').compile({ printer: 0 }).bytes).startsWith('<<<<')).toBe(true);
    expect(compile('<rule char="e\u0301"/>', { printer: 0 }).diagnostics).toEqual([]);
    const image = receipt().image('logo&amp;<1>');
    expect(image.toAst().children).toMatchObject([{ src: 'logo&amp;<1>' }]);
    expect(parse(image.toConteudo()).ast.children).toEqual(image.toAst().children);
    expect(() => receipt().cut('half' as 'full')).toThrow(TypeError);
  });

  it('gives a copy of its AST', () => {
    const b = receipt().text('a');
    (b.toAst().children[0] as { value: string }).value = 'changed';
    expect(b.toAst().children[0]).toMatchObject({ value: 'a' });
  });
});

// Any builder sequence.
const text = fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('&lt;', '&amp;', '&', '<', '<cashDrawerOpen>', '</row>', 'Pão ç', '\n', '\r\n', '&gt;')), { maxLength: 4 }).map((a) => a.join(''));
type Step = (b: ReceiptBuilder) => ReceiptBuilder;
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<'left' | 'center' | 'right'>('left', 'center', 'right').map((a): Step => (b) => b.align(a)),
  fc.tuple(fc.constantFrom('bold', 'underline', 'invert', 'condensed') as fc.Arbitrary<'bold' | 'underline' | 'invert' | 'condensed'>, fc.boolean()).map(([m, on]): Step => (b) => b[m](on)),
  fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 8 })).map(([w, h]): Step => (b) => b.size(w, h)),
  text.map((t): Step => (b) => b.text(t)),
  text.map((t): Step => (b) => b.line(t)),
  fc.constantFrom<[Parameters<ReceiptBuilder['barcode']>[0], string]>(['ean13', '789100031550'], ['code128', 'A<B&c'], ['code39', 'X'], ['itf', '1234']).chain(([t, d]) =>
    fc.record({ height: fc.option(fc.integer({ min: 1, max: 255 }), { nil: undefined }), text: fc.option(fc.constantFrom<'none' | 'below'>('none', 'below'), { nil: undefined }) }).map((o): Step => (b) => b.barcode(t, d, o.height === undefined && o.text === undefined ? {} : { ...(o.height && { height: o.height }), ...(o.text && { text: o.text }) })),
  ),
  fc.tuple(text, fc.option(fc.integer({ min: 1, max: 16 }), { nil: undefined })).map(([t, size]): Step => (b) => b.qrcode(t.replace(/<\/qrcode/g, ''), size === undefined ? {} : { size })),
  fc.option(fc.integer({ min: 8, max: 200 }), { nil: undefined }).map((width): Step => (b) => b.image(PNG, width === undefined ? {} : { width })),
  fc.array(fc.record({ text, width: fc.option(fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 4 }).map((n) => `${n}*` as const)), { nil: undefined }), align: fc.option(fc.constantFrom<'left' | 'center' | 'right'>('left', 'center', 'right'), { nil: undefined }) }), { maxLength: 4 }).map(
    (cells): Step => (b) => b.row(cells.map((c) => ({ text: c.text, ...(c.width !== undefined && { width: c.width }), ...(c.align && { align: c.align }) }))),
  ),
  fc.option(fc.constantFrom('=', '*', 'ç', '─', '<', '&'), { nil: undefined }).map((c): Step => (b) => b.rule(c)),
  fc.constant<Step>((b) => b.feed()),
  fc.constantFrom<'full' | 'partial'>('full', 'partial').map((m): Step => (b) => b.cut(m)),
  fc.constant<Step>((b) => b.drawer()),
);

describe('any builder sequence', () => {
  it('parses back to exactly its AST, offsets included, with no diagnostic, and both compile to the same bytes', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.constantFrom('MAKER5T20', 'MAKER3DR800', 'GENERICA', 'MAKER4I9'), (steps, printer) => {
        const b = steps.reduce((acc, s) => s(acc), receipt());
        const { ast, diagnostics } = parse(b.toConteudo());
        expect(diagnostics).toEqual([]);
        expect(ast).toStrictEqual(b.toAst());
        const fromText = b.compile({ printer });
        expect(fromText.bytes).toEqual(compile(b.toConteudo(), { printer }).bytes);
        const fromAst = emit(lower(b.toAst(), printer).ops, printer);
        expect(fromAst.bytes).toEqual(fromText.bytes);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
