// The stage API with what its types allow, built by hand: lower() and emit() never throw, an op a
// printer cannot honour has compile's outcome, text ops are sanitised as compile's text, and a
// malformed node or op is a diagnostic (issue 21 §4). Random op arrays on every template.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, DIAGNOSTIC_CODES, disassemble, emit, listProfiles, lower, parse, type Bitmap, type Document, type Node, type Op } from '../src/index.js';
import { conteudo } from './support/arbitraries.js';

const at = { start: 0, end: 0 };
const profiles = listProfiles();
const templates = profiles.map((p) => p.id);
const escpos = profiles.filter((p) => p.output === 'escpos').map((p) => p.id);
const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** The bytes after the job's prologue. */
const body = (ops: Op[], printer: number) => emit(ops, printer, { prologue: false });

describe('emit() on the ops that threw before', () => {
  it.each(templates)('prints a QR op on template %i as compile prints <qrcode> there', (printer) => {
    const out = body([{ op: 'qr', data: 'abc', ...at }], printer);
    const compiled = compile('<qrcode>abc</qrcode>', { printer });
    expect(hex(compiled.bytes)).toContain(hex(out.bytes));
    expect(out.bytes.length).toBeGreaterThan(3);
    expect(codes(out)).toEqual(codes(compiled));
  });

  it('drops condensed on the Elgin i9 with compile’s warning', () => {
    const out = body([{ op: 'condensed', on: true, ...at }, { op: 'text', text: 'x\n', ...at }], 4);
    expect(codes(out)).toEqual(['lower/condensed-unsupported']);
    expect(hex(out.bytes)).toBe('780a');
  });

  it('sends a full cut for a partial cut on the DR800, with compile’s warning', () => {
    const partial = body([{ op: 'cut', partial: true, ...at }], 3);
    expect(codes(partial)).toEqual(['lower/partial-cut-fallback']);
    expect(hex(partial.bytes)).toBe(hex(body([{ op: 'cut', partial: false, ...at }], 3).bytes));
  });

  it.each(templates)('removes ESC, GS and the other controls from a text op on template %i', (printer) => {
    const out = body([{ op: 'text', text: 'a\x1bp\x00\x19\xfa\x1dV\x00b\n', latin1: true, ...at }], printer);
    expect([...out.bytes].filter((b) => b < 0x20 && b !== 0x0a)).toEqual([]);
    expect(codes(out).filter((c) => c === 'text/control-removed')).toHaveLength(5);
  });
});

describe('emit() on malformed ops', () => {
  const bitmap: Bitmap = { width: 8, height: 2, bytesPerRow: 1, bits: Uint8Array.of(0xff, 0x81) };
  const bad: Array<[string, unknown]> = [
    ['lines', { op: 'feed', lines: -1, ...at }],
    ['lines', { op: 'feed', lines: 256, ...at }],
    ['lines', { op: 'feed', lines: 1.5, ...at }],
    ['lines', { op: 'feed', lines: Number.NaN, ...at }],
    ['size', { op: 'qr', data: 'x', size: 1000, ...at }],
    ['ecc', { op: 'qr', data: 'x', ecc: 'Z', ...at }],
    ['height', { op: 'barcode', symbology: 'code128', data: '1', height: 800, module: 2, text: 'below', ...at }],
    ['module', { op: 'barcode', symbology: 'code128', data: '1', height: 80, module: 0, text: 'below', ...at }],
    ['symbology', { op: 'barcode', symbology: 'upce', data: '1', height: 80, module: 2, text: 'below', ...at }],
    ['bitmap', { op: 'image', bitmap: { ...bitmap, bits: new Uint8Array(1) }, ...at }],
    ['bitmap', { op: 'image', bitmap: { ...bitmap, width: 9 }, ...at }],
    ['align', { op: 'align', align: 'justify', ...at }],
    ['text', { op: 'text', text: 42, ...at }],
    ['start/end', { op: 'drawer', start: 5, end: 2 }],
    ['start/end', { op: 'drawer', start: -1, end: 2 }],
    ['op', { op: 'beep', ...at }],
    ['op', null],
  ];
  it.each(bad)('refuses an invalid %s with emit/invalid-op and prints nothing for it', (field, op) => {
    for (const printer of templates) {
      const out = body([op as Op], printer);
      expect(out.bytes.length).toBe(0);
      expect(out.diagnostics).toHaveLength(1);
      expect(out.diagnostics[0]).toMatchObject({ code: 'emit/invalid-op', severity: 'error' });
      expect(out.diagnostics[0]!.message).toContain(`invalid ${field}`);
    }
  });

  it('keeps the valid ops around a refused one', () => {
    const out = body([{ op: 'text', text: 'a', ...at }, { op: 'feed', lines: -1, ...at }, { op: 'text', text: 'b\n', ...at }], 5);
    expect(hex(out.bytes)).toBe('61620a');
  });

  it('sends a bitmap with padded rows as rows of its own width (GS v 0 counts the bytes it reads)', () => {
    const padded: Bitmap = { width: 8, height: 2, bytesPerRow: 3, bits: Uint8Array.of(0xff, 0x1b, 0x40, 0x81, 0x1b, 0x40) };
    expect(hex(body([{ op: 'image', bitmap: padded, ...at }], 5).bytes)).toBe('1d76300001000200ff81');
  });

  it('reports the output limit as compile does, with no bytes, instead of throwing', () => {
    const out = emit([{ op: 'text', text: ('x'.repeat(40) + '\n').repeat(3), ...at }, { op: 'feed', lines: 1, ...at }], 5, { maxBytes: 10 });
    expect(out.bytes.length).toBe(0);
    expect(codes(out)).toEqual(['limit/output-too-large']);
    // The library's own option for ops a job goes on after is not emit()'s: passed anyway, the limit holds.
    const last = emit([{ op: 'text', text: 'x'.repeat(1000), start: 0, end: 1 }], 5, { maxBytes: 10, epilogue: false } as Parameters<typeof emit>[2]);
    expect([last.bytes.length, codes(last)]).toEqual([0, ['limit/output-too-large']]);
  });

  it('names the printed line where the output passes the limit, with records or without, as compile() does', () => {
    // Without records the emitter checks a text op once: emit() named the op (0–24) or the job end
    // (24–24), and let '\n\n' through at 7 bytes, since no mark follows its last line.
    const span = (r: ReturnType<typeof emit>) => [r.bytes.length, ...r.diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])];
    for (const [source, printer, start, end] of [['aaaaaaaaaa\nbbbbbbbbbb\ncc', 0, 11, 22], ['aaaaaaaaaa\nbbbbbbbbbb\ncc', 5, 11, 22], ['\n\n', 5, 1, 2]] as const) {
      const ops = lower(parse(source).ast, printer).ops;
      const want = [0, ['limit/output-too-large', start, end]];
      for (const records of [false, true]) expect(span(emit(ops, printer, { source, maxBytes: 5, records })), `${printer} ${records}`).toEqual(want);
      expect(compile(source, { printer, limits: { maxOutputBytes: 5 } }).diagnostics).toEqual(emit(ops, printer, { source, maxBytes: 5 }).diagnostics);
    }
    // Without the source, the last op.
    expect(span(emit(lower(parse('\n\n').ast, 5).ops, 5, { maxBytes: 5 }))).toEqual([0, ['limit/output-too-large', 0, 2]]);
  });
});

describe('lower() on hand-built documents', () => {
  const doc = (...children: unknown[]): Document => ({ type: 'document', source: 'abc', children: children as Node[] });
  it('refuses a node its type does not allow with lower/invalid-node, and lowers the rest', () => {
    const { ops, diagnostics } = lower(
      doc(
        { type: 'command', command: 'explode', tag: 'x', ...at },
        { type: 'barcode', symbology: 'code128', data: '1', dataStart: 0, height: 80, module: 99, text: 'below', ...at },
        { type: 'qrcode', data: 'x', dataStart: 0, size: 0, ...at },
        { type: 'textSize', width: 9, height: 1, ...at },
        { type: 'rule', char: '==', ...at },
        { type: 'image', src: '', dither: 'threshold', ...at },
        { type: 'row', cells: [{ type: 'cell', width: { columns: 0 }, align: 'left', text: 'a', textStart: 0, textEnd: 1, ...at }], ...at },
        { type: 'text', value: 'ok\n', start: 0, end: 3 },
      ),
      5,
    );
    expect(diagnostics.map((d) => d.code)).toEqual(Array(7).fill('lower/invalid-node'));
    expect(ops).toEqual([{ op: 'text', text: 'ok\n', start: 0, end: 3, latin1: true }]);
  });

  it('sanitises a text node as compile does', () => {
    const { ops, diagnostics } = lower(doc({ type: 'text', value: 'a\x1bb', start: 0, end: 3 }), 5);
    expect(ops).toMatchObject([{ op: 'text', text: 'ab' }]);
    expect(diagnostics.map((d) => d.code)).toEqual(['text/control-removed']);
  });
});

// ---- random ops, every template ----

/** Numbers as hand-written code gets them wrong: negative, fractional, huge, NaN, ±Infinity. */
const anyNumber = fc.oneof(fc.integer({ min: -3, max: 300 }), fc.double(), fc.constantFrom(0, 1, 2, 8, 16, 255, 256, 65535, 1e9, Number.NaN, Infinity, -Infinity));
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('\x1bp\x00\x19\xfa', '\x1d\x56\x41\x03', '7891000315507', '35191012345678000190590000000000000000000000'));
const span = fc.oneof(
  fc.tuple(fc.nat(50), fc.nat(50)).map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b) })),
  fc.record({ start: anyNumber, end: anyNumber }),
);
const bitmapArb = fc
  .record({ width: fc.oneof(fc.integer({ min: 1, max: 700 }), anyNumber), height: fc.oneof(fc.integer({ min: 1, max: 40 }), anyNumber), pad: fc.integer({ min: -1, max: 2 }), fill: fc.integer({ min: 0, max: 255 }) })
  .map(({ width, height, pad, fill }): Bitmap => {
    const w = Number.isInteger(width) && width > 0 && width < 2000 ? width : 8;
    const h = Number.isInteger(height) && height > 0 && height < 100 ? height : 1;
    const bytesPerRow = ((w + 7) >> 3) + pad;
    return { width, height, bytesPerRow, bits: new Uint8Array(Math.max(0, bytesPerRow * h)).fill(fill) };
  });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('align' as const), align: fc.constantFrom('left' as const, 'center' as const, 'right' as const) }),
  fc.record({ op: fc.constant('condensed' as const), on: fc.boolean() }),
  fc.record({ op: fc.constant('style' as const), style: fc.constantFrom('bold' as const, 'underline' as const, 'invert' as const), on: fc.boolean() }),
  fc.record({ op: fc.constant('size' as const), width: anyNumber, height: anyNumber }),
  fc.record({ op: fc.constant('text' as const), text: anyText }, { requiredKeys: ['op', 'text'] }),
  fc.record({ op: fc.constant('text' as const), text: anyText, latin1: fc.constant(true as const) }),
  fc.record({ op: fc.constant('cut' as const), partial: fc.boolean() }),
  fc.record({ op: fc.constant('feed' as const), lines: anyNumber }),
  fc.record({ op: fc.constant('drawer' as const) }),
  fc.record({ op: fc.constant('qr' as const), data: anyText, size: anyNumber, ecc: fc.constantFrom('L' as const, 'M' as const, 'Q' as const, 'H' as const) }, { requiredKeys: ['op', 'data'] }),
  fc.record({
    op: fc.constant('barcode' as const),
    symbology: fc.constantFrom('ean13' as const, 'ean8' as const, 'upca' as const, 'code39' as const, 'code128' as const, 'itf' as const, 'codabar' as const),
    data: anyText,
    values: fc.array(anyNumber, { maxLength: 4 }),
    height: anyNumber,
    module: anyNumber,
    text: fc.constantFrom('none' as const, 'above' as const, 'below' as const, 'both' as const),
  }, { requiredKeys: ['op', 'symbology', 'data', 'height', 'module', 'text'] }),
  fc.record({ op: fc.constant('image' as const), bitmap: bitmapArb }),
).chain((op) => span.map((s) => ({ ...op, ...s }) as Op));

describe('emit() on random ops', () => {
  it('never throws on any template, and says everything it changed with a catalogued code', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 8 }), fc.constantFrom(...templates), fc.boolean(), (ops, printer, records) => {
        const out = emit(ops, printer, { records, source: 'x'.repeat(60) });
        for (const d of out.diagnostics) expect(DIAGNOSTIC_CODES[d.code]).toBe(d.severity);
        expect(out.bytes).toBeInstanceOf(Uint8Array);
      }),
      { numRuns: 400 },
    );
  });

  it('sends only commands the disassembler reads whole: no byte of an op is out of step with its command', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 8 }), fc.constantFrom(...escpos), (ops, printer) => {
        const { bytes } = emit(ops, printer);
        const odd = disassemble(bytes, { printer }).filter((i) => i.kind === 'unknown' || i.kind === 'truncated');
        expect(odd.map((i) => `${i.mnemonic} at ${i.offset}`)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('lets no text op put a control byte on the wire', () => {
    const textOps = fc.array(fc.record({ op: fc.constant('text' as const), text: anyText, start: fc.constant(0), end: fc.constant(0) }), { maxLength: 6 });
    fc.assert(
      fc.property(textOps, fc.constantFrom(...templates), (ops, printer) => {
        for (const b of emit(ops, printer, { prologue: false }).bytes) expect(b === 0x0a || b === 0x09 || b >= 0x20).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('emits what lower() made exactly as compile does (checking costs nothing in bytes)', () => {
    fc.assert(
      fc.property(conteudo, fc.constantFrom(...templates), (s, printer) => {
        const { ops } = lower(parse(s).ast, printer);
        expect(hex(emit(ops, printer).bytes)).toBe(hex(compile(s, { printer }).bytes));
      }),
      { numRuns: 300 },
    );
  });
});

describe('lower() on random nodes', () => {
  const nodeArb: fc.Arbitrary<Node> = fc.oneof(
    fc.record({ type: fc.constant('text' as const), value: anyText }),
    fc.record({ type: fc.constant('command' as const), command: fc.constantFrom('alignLeft' as const, 'condensedOn' as const, 'cutPartial' as const, 'drawerOpen' as const, 'feed' as const, 'boldOn' as const, 'nope' as never), tag: fc.string() }),
    fc.record({ type: fc.constant('qrcode' as const), data: anyText, dataStart: anyNumber, size: anyNumber, ecc: fc.constantFrom('L' as const, 'H' as const) }, { requiredKeys: ['type', 'data', 'dataStart'] }),
    fc.record({ type: fc.constant('textSize' as const), width: anyNumber, height: anyNumber }),
    fc.record({ type: fc.constant('barcode' as const), symbology: fc.constantFrom('ean13' as const, 'code128' as const, 'itf' as const), height: anyNumber, module: anyNumber, text: fc.constantFrom('none' as const, 'both' as const), data: anyText, dataStart: anyNumber }),
    fc.record({ type: fc.constant('image' as const), src: fc.constantFrom('logo', '', 'data:image/png;base64,AAAA'), width: anyNumber, dither: fc.constantFrom('threshold' as const, 'atkinson' as const) }, { requiredKeys: ['type', 'src', 'dither'] }),
    fc.record({ type: fc.constant('rule' as const), char: anyText }),
  ).chain((node) => span.map((s) => ({ ...node, ...s }) as Node));

  it('never throws on any template, and says everything it changed with a catalogued code', () => {
    fc.assert(
      fc.property(fc.array(nodeArb, { maxLength: 8 }), fc.constantFrom(...templates), (children, printer) => {
        const { ops, diagnostics } = lower({ type: 'document', source: 'y'.repeat(40), children }, printer);
        for (const d of diagnostics) expect(DIAGNOSTIC_CODES[d.code]).toBe(d.severity);
        expect(() => emit(ops, printer)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
