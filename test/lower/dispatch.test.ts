// Lowering by node type: a table with one lowering per construct. The constructs whose lowering
// has not landed yet are reported at their tag and print nothing; text and the partner's tags
// print exactly as before; the state in force follows the commands really sent.
import { describe, expect, it } from 'vitest';
import { lower, parse, type NodeType } from '../../src/index.js';
import type { RawDiagnostic } from '../../src/diagnostics.js';
import { COMMAND_LOWERINGS } from '../../src/lower/commands.js';
import { lowerRaw } from '../../src/lower/index.js';
import { initialState, type LowerContext } from '../../src/lower/context.js';
import { loadProfile } from '../../src/profiles/index.js';
import { codepage } from '../../src/text/codepage.js';

function context(printer: string): LowerContext {
  const profile = loadProfile(printer);
  const diagnostics: LowerContext['diagnostics'] = [];
  return { profile, out: [], diagnostics, text: { codepage: codepage(profile.codepage.encoding), printer: profile.printer, diagnostics }, state: initialState() };
}

describe('the lowering table', () => {
  // Every construct parse reads now has its lowering: none is reported as not printed yet.
  it.each([
    ['command (style)', '<textBoldOn>'],
    ['textSize', '<textSize width="2">'],
    ['row', '<row><cell>a</cell></row>'],
    ['rule', '<rule/>'],
  ] as [NodeType | string, string][])('lowers %s to ops, with no diagnostic', (_, tag) => {
    const { ops, diagnostics } = lower(parse(`x${tag}`).ast, 'MAKER5T20');
    expect(ops.length).toBeGreaterThan(1);
    expect(diagnostics).toEqual([]);
  });

  it('lowers barcode, image and qrcode size/ecc through the table (receipt-codes)', () => {
    const { ops, diagnostics } = lower(parse('<barcode type="ean13">5901234123457</barcode><image src="logo"/><qrcode size="3" ecc="H">abc</qrcode>').ast, 'MAKER4I9');
    expect(ops.map((o) => o.op)).toEqual(['barcode', 'qr']);
    expect(ops[1]).toMatchObject({ size: 3, ecc: 'H' });
    expect(diagnostics.map((d) => d.code)).toEqual(['lower/image-unknown']);
  });

  it('joins an escape and the text around it into one text op with the whole span', () => {
    const { ops } = lower(parse('a &lt; b\n<paperCutFull>c&amp;').ast, 'MAKER5T20');
    expect(ops).toEqual([
      { op: 'text', text: 'a < b\n', start: 0, end: 9, latin1: true },
      { op: 'cut', partial: false, start: 9, end: 23 },
      { op: 'text', text: 'c&', start: 23, end: 29, latin1: true },
    ]);
  });

  it('does not join text to an op of another node that ends where the text starts', () => {
    // The generic template prints a QR code as a text op, right before the next text node.
    const { ops } = lower(parse('<qrcode>q</qrcode>\n').ast, 'GENERICA');
    expect(ops.map((o) => o.op === 'text' && o.text)).toEqual(['q\n', '\n']);
  });

  it('keeps the latin1 mark of a joined op only when every part had it', () => {
    const { ops } = lower(parse('a&lt;\u{1F600}').ast, 'MAKER5T20');
    expect(ops).toEqual([{ op: 'text', text: 'a<?', start: 0, end: 7 }]);
  });

  it('names the construct it failed on in lower/internal-error', () => {
    // Past the public lower()'s checks (which refuse such a node: lower/invalid-node), as a bug would be.
    const diagnostics: RawDiagnostic[] = [];
    lowerRaw({ type: 'document', source: 'xx', children: [{ type: 'rule', char: '-', start: 0, end: 2 }, { type: 'bogus' as 'rule', char: '-', start: 0, end: 2 }] }, loadProfile('MAKER5T20'), diagnostics);
    expect(diagnostics.map((d) => d.code)).toEqual(['lower/internal-error']);
    expect(diagnostics[0]!.message).toContain('internal error while lowering <bogus>');
  });

  it('refuses a node of no known type through the public lower() (lower/invalid-node), lowering the rest', () => {
    const { diagnostics } = lower({ type: 'document', source: 'xx', children: [{ type: 'rule', char: '-', start: 0, end: 2 }, { type: 'bogus' as 'rule', char: '-', start: 0, end: 2 }] }, 'MAKER5T20');
    expect(diagnostics.map((d) => d.code)).toEqual(['lower/invalid-node']);
  });
});

describe('the state in force', () => {
  it('follows condensed only when the command is really sent', () => {
    const t20 = context('MAKER5T20');
    COMMAND_LOWERINGS.condensedOn({ type: 'command', command: 'condensedOn', tag: 'textCondensedOn', start: 0, end: 1 }, t20);
    expect(t20.state.condensed).toBe(true);
    COMMAND_LOWERINGS.condensedOff({ type: 'command', command: 'condensedOff', tag: 'textCondensedOff', start: 1, end: 2 }, t20);
    expect(t20.state.condensed).toBe(false);
    const i9 = context('MAKER4I9'); // no condensed: the tag is dropped, the font stays normal
    COMMAND_LOWERINGS.condensedOn({ type: 'command', command: 'condensedOn', tag: 'textCondensedOn', start: 0, end: 1 }, i9);
    expect(i9.state.condensed).toBe(false);
    expect(i9.diagnostics.map((d) => d.code)).toEqual(['lower/condensed-unsupported']);
  });

  it('starts at normal text: no condensed, size 1×1, no styles', () => {
    expect(initialState()).toEqual({ condensed: false, width: 1, height: 1, bold: false, underline: false, invert: false });
  });
});
