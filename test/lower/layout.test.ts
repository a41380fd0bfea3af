// Rows and rules: laid out at lowering time from the profile's columns for the font in force,
// printed as plain text lines exactly as wide as the paper; cells wrapped at spaces and aligned;
// shares split what fixed cells leave; cells that cannot fit are stacked, with a warning.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, escape, listProfiles, lower, parse, receipt, type CellNode, type Document, type Op, type RowNode } from '../../src/index.js';
import { OutputBudget } from '../../src/limits.js';
import { lowerRaw } from '../../src/lower/index.js';
import { cellWidths, fontInForce } from '../../src/lower/layout-columns.js';
import { alignIn, wrapWords } from '../../src/lower/layout-wrap.js';
import { loadProfile, withOverride } from '../../src/profiles/index.js';

const texts = (ops: Op[]) => ops.filter((o) => o.op === 'text').map((o) => (o as { text: string }).text).join('');
const printed = (source: string, printer: string) => texts(lower(parse(source).ast, printer).ops);

describe('the columns in force', () => {
  it('are the profile columns for normal or condensed text, divided by the width multiplier', () => {
    const t20 = loadProfile('MAKER5T20');
    expect(fontInForce(t20, { condensed: false }).columns).toBe(48);
    expect(fontInForce(t20, { condensed: true }).columns).toBe(64);
    expect(fontInForce(t20, { condensed: false, width: 2 }).columns).toBe(24);
    expect(fontInForce(t20, { condensed: true, width: 3 }).columns).toBe(21);
    expect(fontInForce(loadProfile('MAKER1MP4200'), { condensed: false }).columns).toBe(36);
  });

  it('let a line exactly as wide as the paper print with no info, on every printer, in every font', () => {
    for (const { code } of listProfiles()) {
      const profile = loadProfile(code);
      for (const font of ['', '<textCondensedOn>', '<textSize width="3">', '<textCondensedOn><textSize width="5">']) {
        const { columns } = fontInForce(profile, { condensed: font.includes('Condensed') && profile.caps.has('condensed'), width: profile.caps.has('size') ? Math.min(Number(/width="(\d)"/.exec(font)?.[1] ?? 1), profile.sizeMax?.width ?? 8) : 1 });
        const diagnostics = compile(font + 'x'.repeat(columns) + '\n' + 'y'.repeat(columns + 1) + '\n', { printer: code }).diagnostics;
        expect(diagnostics.filter((d) => d.code === 'text/line-too-long').map((d) => d.span.start.line), `${code} ${font}`).toEqual([2]);
      }
    }
  });

  it('measure a full line exactly for any columns a profile gives, so it is never taken as too long', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 120 }), fc.integer({ min: 8, max: 160 }), fc.integer({ min: 0, max: 20 }), (normal, condensed, mixed) => {
        const profile = withOverride(loadProfile('MAKER5T20'), { columns: { normal, condensed } });
        const n = Math.min(mixed, normal);
        // n normal columns, then condensed text up to the paper's end: the line takes the paper exactly.
        const rest = Math.floor(((normal - n) * condensed) / normal);
        const full = (normal - n) * condensed === rest * normal;
        const source = 'x'.repeat(normal) + '\n<textCondensedOn>' + 'c'.repeat(condensed) + '\n<textCondensedOff>' + 'n'.repeat(n) + '<textCondensedOn>' + 'c'.repeat(rest) + '\n';
        const long = compile(source, { printer: profile }).diagnostics.filter((d) => d.code === 'text/line-too-long');
        expect(long).toEqual([]);
        if (full) expect(compile(source.slice(0, -1) + 'c\n', { printer: profile }).diagnostics.filter((d) => d.code === 'text/line-too-long')).toHaveLength(1);
      }),
      { numRuns: 150 },
    );
  });

  it('measure a character of any font as the share of the line it takes', () => {
    const t20 = loadProfile('MAKER5T20');
    for (const state of [{ condensed: false }, { condensed: true }, { condensed: false, width: 5 }]) {
      const f = fontInForce(t20, state);
      expect(f.columns * f.cost).toBeLessThanOrEqual(f.line);
      expect((f.columns + 1) * f.cost).toBeGreaterThan(f.line);
    }
  });

  it('give fixed cells their N and share the rest by N*, the spare columns to the first shares', () => {
    expect(cellWidths([{ width: { columns: 3 } }, { width: { share: 1 } }, { width: { share: 2 } }], 48)).toEqual([3, 15, 30]);
    expect(cellWidths([{ width: { share: 1 } }, { width: { share: 1 } }, { width: { share: 1 } }], 10)).toEqual([4, 3, 3]);
    expect(cellWidths([{ width: { columns: 30 } }, { width: { columns: 30 } }], 48)).toBeUndefined();
    expect(cellWidths([{ width: { columns: 48 } }, { width: { share: 1 } }], 48)).toEqual([48, 0]);
    // The spare column goes to the first share cell, not to the fixed one before it.
    expect(cellWidths([{ width: { columns: 3 } }, { width: { share: 1 } }, { width: { share: 1 } }], 48)).toEqual([3, 23, 22]);
    expect(cellWidths([{ width: { columns: 3 } }, { width: { columns: 4 } }], 48)).toEqual([3, 4]);
  });
});

describe('a cell', () => {
  it('wraps at spaces, breaks a word longer than its width, and keeps the line breaks in its text', () => {
    expect(wrapWords('Café com leite', 7)).toEqual(['Café', 'com', 'leite']);
    expect(wrapWords('Parafusos', 4)).toEqual(['Para', 'fuso', 's']);
    expect(wrapWords('a  b\nc', 10)).toEqual(['a b', 'c']);
    expect(wrapWords('ab Parafusos', 4)).toEqual(['ab', 'Para', 'fuso', 's']);
  });

  it('makes at most the lines it is asked for, however it would go on: a word broken, words wrapped, lines of the text', () => {
    expect(wrapWords('abcdef', 1, 3)).toEqual(['a', 'b', 'c']);
    expect(wrapWords('a b c d e', 1, 3)).toEqual(['a', 'b', 'c']);
    expect(wrapWords('a\nb\nc\nd', 5, 3)).toEqual(['a', 'b', 'c']);
    expect(wrapWords('a\nb\nc', 5, 3)).toEqual(['a', 'b', 'c']);
  });

  it('lays out no line past the job\'s output budget but the one after the line that passed it', () => {
    // 48 columns a line and its LF: 480 bytes hold 9 lines (441), the tenth passes (490), the
    // eleventh is made and stops lowering, the text after the row is not lowered: of 10,000 lines.
    const source = '<row><cell width="1">' + 'x'.repeat(10_000) + '</cell><cell></cell></row>\nafter';
    const ops = lowerRaw(parse(source).ast, loadProfile('MAKER5T20'), [], { budget: new OutputBudget(480) });
    expect(ops.map((o) => (o as { text: string }).text)).toEqual(Array(11).fill('x' + ' '.repeat(47) + '\n'));
    expect(ops.every((o) => o.start === 0 && o.end === source.length - 6)).toBe(true);
    // A rule is a line too: of four, the second passes 50 bytes, the third stops, the fourth is not made.
    const rules = parse('<rule/>\n<rule/>\n<rule/>\n<rule/>').ast;
    expect(lowerRaw(rules, loadProfile('MAKER5T20'), [], { budget: new OutputBudget(50) }).map((o) => o.start)).toEqual([0, 7, 8, 15, 16]);
    expect(lowerRaw(rules, loadProfile('MAKER5T20'), []).length).toBe(7);
    // Without a budget every line is made.
    expect(lowerRaw(parse(source).ast, loadProfile('MAKER5T20'), []).length).toBe(10_000 + 1);
  });

  it('makes, of cells one under the other, the first lines the budget allows and no more: the last made ends the row, with no line break of its own', () => {
    // Three cells of 40 columns do not fit 48: each prints on lines of its own (a, then b and c, then d).
    // 30 bytes hold no line of 48: the first passes them, the second is made and stops lowering.
    const source = '<row><cell width="40">a</cell><cell width="40">b\nc</cell><cell width="40">d</cell></row>';
    const line = (ch: string) => ch + ' '.repeat(47);
    const ops = lowerRaw(parse(source).ast, loadProfile('MAKER5T20'), [], { budget: new OutputBudget(30) });
    // Had lines past those two been laid out (c of the second cell, d of the third), b would be made with its line break.
    expect(ops.map((o) => (o as { text: string }).text)).toEqual([line('a') + '\n', line('b')]);
    expect(lowerRaw(parse(source).ast, loadProfile('MAKER5T20'), []).map((o) => (o as { text: string }).text)).toEqual([line('a') + '\n', line('b') + '\n', line('c') + '\n', line('d')]);
  });

  it('fills a line to exactly its width before it wraps, down to one column', () => {
    expect(wrapWords('Café com leite', 8)).toEqual(['Café com', 'leite']);
    expect(wrapWords('ab cd', 1)).toEqual(['a', 'b', 'c', 'd']);
    expect(() => wrapWords('ab', 0)).toThrow(new RangeError('wrapWords: width 0 is not at least 1'));
  });

  it('breaks a word of any length a line at a time: 200,000 characters at width 1 are as many lines', () => {
    // Each piece is cut from the word once: cutting the rest off again for each line was quadratic
    // (minutes here; the test then fails by its timeout). Now a few milliseconds.
    const lines = wrapWords('ab'.repeat(100_000), 1);
    expect(lines).toHaveLength(200_000);
    expect(lines.slice(0, 3)).toEqual(['a', 'b', 'a']);
    expect(wrapWords(`x ${'Parafusos'.repeat(3)}`, 4)).toEqual(['x', 'Para', 'fuso', 'sPar', 'afus', 'osPa', 'rafu', 'sos']);
  });

  it("compiles a row whose narrow cell holds a long word, with records, each printed line's source span read once", () => {
    // Every printed line of a row is an op spanning the whole row: its source lines are read once
    // for all of them. Read again for each, as before, this took a minute or more per template (the
    // test then fails by its timeout); now about 0.1 s. On the generic template and an ESC/POS one.
    const source = `<row><cell width="1">${'a'.repeat(120_000)}</cell><cell>x</cell></row>`;
    for (const id of [0, 5]) {
      const { diagnostics } = compile(source, { printer: id, records: true });
      expect(diagnostics.map((d) => d.code)).toContain('limit/output-too-large');
    }
  });

  it('aligns left, right or centre within its width', () => {
    expect([alignIn('ab', 6, 'left'), alignIn('ab', 6, 'right'), alignIn('ab', 5, 'center')]).toEqual(['ab    ', '    ab', ' ab  ']);
    expect([alignIn('abc', 3, 'right'), alignIn('abcd', 3, 'center'), alignIn('', 2, 'right')]).toEqual(['abc', 'abcd', '  ']);
  });
});

describe('diagnostics in a <row> and a <rule/>', () => {
  /** Each diagnostic's code and the source text its span covers. */
  const spans = (source: string) => compile(source, { printer: 5 }).diagnostics.map((d) => [d.code, source.slice(d.span.start.offset, d.span.end.offset)]);

  it('point at the character in a cell, past the escapes before it, as they do in text', () => {
    expect(spans('<row><cell>A &amp; B 😀</cell></row>')).toEqual([['text/replaced', '😀']]);
    expect(spans('<row><cell>&lt;&amp;\x1b</cell><cell>x &lt; y ☃</cell></row>')).toEqual([['text/control-removed', '\x1b'], ['text/replaced', '☃']]);
    expect(spans('<row><cell>a<b>ç☃</cell></row>').slice(1)).toEqual([['text/replaced', '☃']]);
    const builder = receipt().row(['Café & Cia 😀']);
    expect(builder.compile({ printer: 5 }).diagnostics.map((d) => builder.toConteudo().slice(d.span.start.offset, d.span.end.offset))).toEqual(['😀']);
  });

  it("point at a rule's char where it is written", () => {
    expect(spans('<rule char="😀"/>')).toEqual([['text/replaced', '😀']]);
  });

  it('treat the text after an escape in a cell as text after an escape outside one (a combining mark there has no letter)', () => {
    expect(spans('<row><cell>&amp;\u0301x</cell></row>')).toEqual([['text/replaced', '\u0301']]);
    expect(spans('&amp;\u0301x')).toEqual([['text/replaced', '\u0301']]);
  });

  it('fall back to the text as written from textStart in a cell built by hand without pieces, or with pieces that are not its text', () => {
    const { ast } = parse('<row><cell>&amp; ☃</cell></row>');
    const row = ast.children[0] as RowNode;
    const withCells = (f: (cell: CellNode) => CellNode) => ({ ...ast, children: [{ ...row, cells: row.cells.map(f) }] });
    // ☃ is the text's third character: textStart (11) + 2, as if the text were written without its escape.
    const at = (doc: Document) => lower(doc, 'MAKER5T20').diagnostics.map((d) => [d.code, d.span.start.offset]);
    expect(at(withCells(({ pieces: _, ...cell }) => cell))).toEqual([['text/replaced', 13]]);
    expect(at(withCells((cell) => ({ ...cell, text: '& ☃!' })))).toEqual([['text/replaced', 13]]);
    expect(at(ast)).toEqual([['text/replaced', 17]]);
  });
});

describe('<row> and <rule/>', () => {
  const row = '<row><cell width="4">2x</cell><cell>Café</cell><cell width="8" align="right">9,90</cell></row>';

  it('lays the same row out for 48 and 64 columns', () => {
    expect(printed(row, 'MAKER5T20')).toBe('2x  Café' + ' '.repeat(32) + '    9,90');
    expect(printed(`<textCondensedOn>${row}`, 'MAKER5T20')).toBe('2x  Café' + ' '.repeat(48) + '    9,90');
    expect(printed(row, 'MAKER1MP4200')).toBe('2x  Café' + ' '.repeat(20) + '    9,90');
  });

  it('lays out and measures at the <textSize> width in force', () => {
    expect(printed('<textSize width="2">' + row, 'MAKER5T20')).toBe('2x  Café' + ' '.repeat(8) + '    9,90');
    expect(printed('<textSize width="2"><rule/>', 'MAKER5T20')).toBe('-'.repeat(24));
    const long = compile('<textSize width="2">' + 'x'.repeat(25) + '\n<textSize>' + 'y'.repeat(25) + '\n', { printer: 'MAKER5T20' }).diagnostics;
    expect(long.map((d) => [d.code, d.span.start.line])).toEqual([['text/line-too-long', 1]]);
    expect(long[0]!.message).toContain('prints 24 columns of normal text at width 2');
  });

  it('prints on every template, the generic one included, as text ops', () => {
    for (const { code } of listProfiles()) {
      const { ops, diagnostics } = lower(parse(`${row}\n<rule char="="/>`).ast, code);
      expect(ops.every((o) => o.op === 'text')).toBe(true);
      expect(diagnostics).toEqual([]);
      expect(compile(`${row}\n<rule/>\n`, { printer: code }).diagnostics).toEqual([]);
    }
  });

  it('wraps a cell over several lines, the other cells padded below their text', () => {
    const out = printed('<row><cell width="3">1x</cell><cell width="10">Pão de queijo mineiro</cell><cell align="right">5,00</cell></row>', 'MAKER5T20');
    expect(out.split('\n')).toEqual(['1x Pão de' + ' '.repeat(4) + ' '.repeat(31) + '5,00', '   queijo    ' + ' '.repeat(35), '   mineiro   ' + ' '.repeat(35)]);
  });

  it('starts on a line of its own and ends without a line break, as a line of text does', () => {
    expect(printed('Antes <rule/>\nDepois', 'MAKER5T20')).toBe('Antes \n' + '-'.repeat(48) + '\nDepois');
    expect(printed('<rule/><rule char="*"/>', 'MAKER5T20')).toBe('-'.repeat(48) + '\n' + '*'.repeat(48));
  });

  it('stacks cells that cannot sit side by side, with a warning at the row naming the widths', () => {
    const source = '<row><cell width="40">Largura</cell><cell width="30" align="right">demais</cell></row>';
    const { ops, diagnostics } = lower(parse(source).ast, 'MAKER5T20');
    expect(texts(ops)).toBe('Largura' + ' '.repeat(41) + '\n' + ' '.repeat(42) + 'demais');
    expect(diagnostics.map((d) => [d.code, d.severity, d.span.start.offset, d.span.end.offset])).toEqual([['lower/row-too-wide', 'warning', 0, source.length]]);
    expect(diagnostics[0]!.message).toContain('(40 + 30) do not fit the 48 columns Epson TM-T20 prints in normal text');
  });

  it('stacks a row whose share cell with text gets no column', () => {
    const { diagnostics } = lower(parse('<row><cell width="48">a</cell><cell>b</cell></row>').ast, 'MAKER5T20');
    expect(diagnostics.map((d) => d.code)).toEqual(['lower/row-too-wide']);
    expect(lower(parse('<row><cell width="48">a</cell><cell></cell></row>').ast, 'MAKER5T20').diagnostics).toEqual([]);
  });

  it('pads a row of fixed cells narrower than the paper on the right, and prints a tab in a cell as a space', () => {
    expect(printed('<row><cell width="4">ab</cell><cell width="6" align="right">cd</cell></row>', 'MAKER5T20')).toBe('ab      cd' + ' '.repeat(38));
    expect(printed('<row><cell width="3">ab\tcd</cell></row>', 'MAKER5T20')).toBe('ab ' + ' '.repeat(45) + '\ncd ' + ' '.repeat(45));
  });

  it('prints nothing for a row without cells, not even a line break', () => {
    expect(printed('ab<row></row>cd', 'MAKER5T20')).toBe('abcd');
  });

  it('names share cells as N* in the warning of a row that does not fit', () => {
    const { diagnostics } = lower(parse('<row><cell width="48">a</cell><cell width="2*">b</cell></row>').ast, 'MAKER5T20');
    expect(diagnostics[0]!.message).toContain('(48 + 2*) do not fit the 48 columns');
  });

  it('draws a rule with a dash when its character is not one character', () => {
    expect(printed('<rule char="ab"/>', 'MAKER5T20')).toBe('-'.repeat(48));
    expect(printed('<rule char="€"/>', 'MAKER5T20')).toBe('-'.repeat(48));
  });

  it('measures text after a row on the same line from the row on, and never wraps inside the row', () => {
    const source = '<row><cell>a</cell></row>xyz';
    const { diagnostics } = compile(source, { printer: 'MAKER5T20' });
    expect(diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])).toEqual([['text/line-too-long', 0, source.length]]);
    const wrapped = compile(source + '\n<rule/>', { printer: 'MAKER5T20', wrap: 'word' });
    expect(wrapped.diagnostics).toEqual([]);
    expect(Buffer.from(wrapped.bytes).toString('latin1')).toContain('a' + ' '.repeat(47) + '\nxyz\n' + '-'.repeat(48));
  });

  it('sanitises cell text and the rule character for the code page', () => {
    const { ops, diagnostics } = lower(parse('<row><cell>a\u001bb €</cell></row><rule char="—"/>').ast, 'MAKER5T20');
    expect(texts(ops)).toBe('ab EUR' + ' '.repeat(42) + '\n' + '-'.repeat(48));
    expect(diagnostics.map((d) => d.code)).toEqual(['text/control-removed', 'text/transliterated', 'text/transliterated']);
  });
});

const cellText = fc.array(fc.constantFrom('a', 'B', 'ç', 'Ã', '9', ' ', ' ', '\n', '<', '&', '\t', 'x'.repeat(30)), { maxLength: 60 }).map((a) => a.join(''));
const cell = fc.record({
  width: fc.oneof(fc.integer({ min: 1, max: 80 }).map(String), fc.integer({ min: 1, max: 5 }).map((n) => `${n}*`), fc.constant(undefined)),
  align: fc.constantFrom('left', 'center', 'right', undefined),
  text: cellText,
});
const nonSpace = (s: string) => [...s.replace(/[\s]/g, '')].sort().join('');

describe('any row', () => {
  it('prints lines exactly as wide as the columns in force, loses no text, and never throws', () => {
    const printers = listProfiles().map((p) => p.code);
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 5 }), fc.boolean(), fc.constantFrom(...printers), (cells, condensed, printer) => {
        const body = cells.map((c) => `<cell${c.width ? ` width="${c.width}"` : ''}${c.align ? ` align="${c.align}"` : ''}>${escape(c.text)}</cell>`).join('');
        const source = `${condensed ? '<textCondensedOn>' : ''}<row>${body}</row>`;
        const profile = loadProfile(printer);
        const { ops } = lower(parse(source).ast, printer);
        const columns = fontInForce(profile, { condensed: condensed && profile.caps.has('condensed') }).columns;
        const out = texts(ops);
        if (cells.length > 0) for (const line of out.split('\n')) expect([...line].length).toBe(columns);
        expect(nonSpace(out)).toBe(nonSpace(cells.map((c) => c.text).join('')));
        expect(() => compile(source, { printer, wrap: 'word' })).not.toThrow();
      }),
      { numRuns: 400 },
    );
  });
});
