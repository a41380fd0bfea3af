// Nodes and ops built by hand, as the public lower() and emit() take them (src/lower/hand-built.ts,
// shape.ts): which values each field takes, what a refusal says (the node or op, the field, the
// value it held, where), and that an accepted op prints what compile prints for the tag it stands for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, emit, listProfiles, lower, type Bitmap, type Document, type Node, type Op } from '../../src/index.js';
import { hex } from '../support/hex.js';

const at = { start: 0, end: 0 };
const said = (r: { diagnostics: { code: string; message: string }[] }) => r.diagnostics.map((d) => `${d.code}: ${d.message}`);
/** The bytes and diagnostics of `ops` alone (no prologue) on printer 5 (the Epson TM-T20). */
const emitted = (ops: unknown[], printer = 5) => emit(ops as Op[], printer, { prologue: false });
const doc = (...children: unknown[]): Document => ({ type: 'document', source: 'abc', children: children as Node[] });

describe('what a refused op says', () => {
  const refusal = (field: string, held?: string) => `emit/invalid-op: emit(): op 0 has an invalid ${field}${held === undefined ? '' : `: ${held}`}; nothing is printed for it`;
  it.each<[string, unknown, string]>([
    ['a number', { op: 'text', text: 42, ...at }, refusal('text', '42')],
    ['a string, quoted', { op: 'align', align: 'justify', ...at }, refusal('align', '"justify"')],
    ['a string of 40 characters quoted, whole', { op: 'align', align: 'j'.repeat(38), ...at }, refusal('align', `"${'j'.repeat(38)}"`)],
    ['a longer string, cut to 37 characters and an ellipsis', { op: 'align', align: 'j'.repeat(39), ...at }, refusal('align', `"${'j'.repeat(36)}…`)],
    ['an array', { op: 'align', align: ['left'], ...at }, refusal('align', 'an array')],
    ['an object', { op: 'align', align: { left: true }, ...at }, refusal('align', 'an object')],
    ['null', { op: 'align', align: null, ...at }, refusal('align', 'null')],
    ['a symbol', { op: 'align', align: Symbol('left'), ...at }, refusal('align', 'a symbol')],
    ['a field left out', { op: 'align', ...at }, refusal('align', 'undefined')],
    ['an op name no op has', { op: 'beep', ...at }, refusal('op', '"beep"')],
    ['an op that is no object (no field to show)', null, refusal('op')],
    ['a span, without a value', { op: 'drawer', start: 5, end: 2 }, refusal('start/end')],
    // A function with an op's fields is no op (only an object is one): the field is the op itself.
    ['a function, without a value', Object.assign(() => 'drawer', { op: 'drawer', ...at }), refusal('itself (not an object)')],
  ])('names the field and the value it held: %s', (_, op, message) => {
    for (const printer of [0, 5]) {
      const out = emitted([op], printer);
      expect(said(out)).toEqual([message]);
      expect(out.bytes.length).toBe(0);
    }
  });

  it('counts ops from 0 in its message', () => {
    const out = emitted([{ op: 'drawer', ...at }, { op: 'feed', lines: 1, ...at }, { op: 'feed', lines: 'two', ...at }]);
    expect(said(out)).toEqual(['emit/invalid-op: emit(): op 2 has an invalid lines: "two"; nothing is printed for it']);
  });

  it('says so when the ops are no array at all, and prints nothing', () => {
    for (const ops of [{ op: 'drawer', ...at }, undefined]) {
      const out = emit(ops as unknown as Op[], 5, { prologue: false });
      expect(out.bytes.length).toBe(0);
      expect(said(out)).toEqual([`emit/invalid-op: emit(): ops are ${ops === undefined ? 'undefined' : 'an object'}, not an array of ops: nothing is printed`]);
    }
  });
});

describe('where a refused op is reported', () => {
  const source = 'ab\ncdefgh\n';
  const span = (op: unknown) => {
    const [d] = emit([op as Op], 5, { source }).diagnostics;
    return [d!.span.start.offset, d!.span.end.offset, d!.span.start.line, d!.span.start.column];
  };
  it('at its own span when that span is well formed, empty spans included', () => {
    expect(span({ op: 'feed', lines: -1, start: 3, end: 5 })).toEqual([3, 5, 2, 1]);
    expect(span({ op: 'feed', lines: -1, start: 4, end: 4 })).toEqual([4, 4, 2, 2]);
  });
  it.each<[string, unknown]>([
    ['an end before its start', { op: 'feed', lines: 1, start: 5, end: 4 }],
    ['a fractional offset', { op: 'feed', lines: 1, start: 1.5, end: 4 }],
    ['a negative offset', { op: 'feed', lines: 1, start: -2, end: 4 }],
    ['an offset given as a string', { op: 'feed', lines: 1, start: '1', end: 4 }],
    ['an offset past the safe integers', { op: 'feed', lines: 1, start: 1, end: 2 ** 53 }],
    ['no op at all', null],
  ])('at the start of the source when the span is not one: %s', (_, op) => {
    expect(span(op)).toEqual([0, 0, 1, 1]);
    expect(emit([op as Op], 5, { source }).diagnostics[0]!.message).toMatch(/invalid (start\/end|op);/);
  });
});

describe('which values an op takes', () => {
  const bitmap: Bitmap = { width: 8, height: 1, bytesPerRow: 1, bits: Uint8Array.of(0xf0) };
  const refused: Array<[string, unknown]> = [
    ['on', { op: 'condensed', on: 1, ...at }],
    ['on', { op: 'style', style: 'bold', on: 'yes', ...at }],
    ['style', { op: 'style', style: 'italic', on: true, ...at }],
    ['partial', { op: 'cut', partial: 'true', ...at }],
    ['latin1', { op: 'text', text: 'a', latin1: false, ...at }],
    ['data', { op: 'qr', data: 12, ...at }],
    // A number given as its digits is no number, though the tag's attribute reads those digits.
    ['width', { op: 'size', width: '2', height: 1, ...at }],
    ['height', { op: 'barcode', symbology: 'code128', data: '1', height: '80', module: 2, text: 'below', ...at }],
    ['size', { op: 'qr', data: 'x', size: '4', ...at }],
    ['text', { op: 'barcode', symbology: 'code128', data: '1', height: 80, module: 2, text: ['below'], ...at }],
    ['lines', { op: 'feed', lines: '3', ...at }],
    ['bitmap', { op: 'image', bitmap: null, ...at }],
    // Names an object has from Object.prototype are no op.
    ['op', { op: 'toString', ...at }],
    ['op', { op: 'constructor', ...at }],
    ['op', { op: ['drawer'], ...at }],
  ];
  it.each(refused)('refuses an invalid %s', (field, op) => {
    const out = emitted([op]);
    expect(out.bytes.length).toBe(0);
    expect(out.diagnostics.map((d) => d.code)).toEqual(['emit/invalid-op']);
    expect(out.diagnostics[0]!.message).toContain(`invalid ${field}`);
  });

  it.each<[string, unknown[], string]>([
    ['a feed of 0 and of 255 lines, the ends of its one byte', [{ op: 'feed', lines: 0, ...at }, { op: 'feed', lines: 255, ...at }], '1b64001b64ff'],
    ['a text op with or without the latin1 mark', [{ op: 'text', text: 'a', latin1: true, ...at }, { op: 'text', text: 'b\n', ...at }], '61620a'],
    ['a drawer op with fields of no meaning to it', [{ op: 'drawer', pin: 'x', ...at }], '1b700032c8'],
    ['a condensed op off and on', [{ op: 'condensed', on: false, ...at }, { op: 'condensed', on: true, ...at }], '1b4d001b4d01'],
  ])('takes %s', (_, ops, bytes) => {
    const out = emitted(ops);
    expect(said(out)).toEqual([]);
    expect(hex(out.bytes)).toBe(bytes);
  });

  it('takes the size at both ends of the tag’s range (1 and 8)', () => {
    for (const n of [1, 8]) expect(emitted([{ op: 'size', width: n, height: n, ...at }, { op: 'text', text: 'a\n', ...at }]).diagnostics).toEqual([]);
  });

  it('takes a bitmap and prints it', () => {
    expect(hex(emitted([{ op: 'image', bitmap, ...at }]).bytes)).toBe('1d76300001000100f0');
  });
});

describe('an op prints what compile prints for the tag it stands for', () => {
  // Each row: markup, and the ops lower() makes of it, built by hand.
  const rows: Array<[string, unknown[]]> = [
    ['<textAlignCenter>x\n', [{ op: 'align', align: 'center' }, { op: 'text', text: 'x\n' }]],
    ['<textAlignRight>x\n<textAlignLeft>y\n', [{ op: 'align', align: 'right' }, { op: 'text', text: 'x\n' }, { op: 'align', align: 'left' }, { op: 'text', text: 'y\n' }]],
    ['<textCondensedOn>x\n<textCondensedOff>y\n', [{ op: 'condensed', on: true }, { op: 'text', text: 'x\n' }, { op: 'condensed', on: false }, { op: 'text', text: 'y\n' }]],
    ['<textBoldOn>x<textBoldOff>\n', [{ op: 'style', style: 'bold', on: true }, { op: 'text', text: 'x' }, { op: 'style', style: 'bold', on: false }, { op: 'text', text: '\n' }]],
    ['<textUnderlineOn>x<textUnderlineOff>\n', [{ op: 'style', style: 'underline', on: true }, { op: 'text', text: 'x' }, { op: 'style', style: 'underline', on: false }, { op: 'text', text: '\n' }]],
    ['<textInvertOn>x<textInvertOff>\n', [{ op: 'style', style: 'invert', on: true }, { op: 'text', text: 'x' }, { op: 'style', style: 'invert', on: false }, { op: 'text', text: '\n' }]],
    ['x\n<paperCutPartial>', [{ op: 'text', text: 'x\n' }, { op: 'cut', partial: true }]],
    ['x\n<paperCutFull>', [{ op: 'text', text: 'x\n' }, { op: 'cut', partial: false }]],
    ['<cashDrawerOpen>', [{ op: 'drawer' }]],
    ['<textSize width="2" height="3">x\n', [{ op: 'size', width: 2, height: 3 }, { op: 'text', text: 'x\n' }]],
    ['<qrcode size="7" ecc="H">bobina</qrcode>', [{ op: 'qr', data: 'bobina', size: 7, ecc: 'H' }]],
    ['<qrcode ecc="L">bobina</qrcode>', [{ op: 'qr', data: 'bobina', ecc: 'L' }]],
    ['<barcode type="ean13" height="60" module="3" text="above">5901234123457</barcode>', [{ op: 'barcode', symbology: 'ean13', data: '5901234123457', height: 60, module: 3, text: 'above' }]],
    ['<barcode type="code128" height="40" module="2" text="none">Ab-12</barcode>', [{ op: 'barcode', symbology: 'code128', data: 'Ab-12', height: 40, module: 2, text: 'none' }]],
  ];
  it.each(rows)('%s, on every template: the same bytes and the same diagnostics', (markup, ops) => {
    for (const { id: printer } of listProfiles()) {
      const compiled = compile(markup, { printer });
      const out = emit(ops.map((op) => ({ ...(op as Op), ...at })), printer);
      expect(hex(out.bytes), `printer ${printer}`).toBe(hex(compiled.bytes));
      expect(said(out), `printer ${printer}`).toEqual(said(compiled));
    }
  });

  it('scales a bitmap wider than the paper as compile scales it, thresholded', () => {
    // 1000 dots of stripes 3 dots wide: scaled to the paper, its columns become greys that
    // each way of dithering makes different dots of.
    const width = 1000;
    const height = 6;
    const bytesPerRow = width / 8;
    const bits = new Uint8Array(bytesPerRow * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (Math.floor(x / 3) % 2 === 0) bits[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
    const stripes: Bitmap = { width, height, bytesPerRow, bits };
    for (const printer of [1, 3, 5]) {
      const compiled = compile('<image src="stripes" dither="threshold"/>', { printer, images: { stripes } });
      const floyd = compile('<image src="stripes"/>', { printer, images: { stripes } });
      expect(hex(floyd.bytes)).not.toBe(hex(compiled.bytes));
      const out = emit([{ op: 'image', bitmap: stripes, ...at }], printer);
      expect(hex(out.bytes)).toBe(hex(compiled.bytes));
      expect(said(out)).toEqual(said(compiled));
    }
  });

  it('prints a bitmap of more pixels than compile’s image limit: the bitmap exists already', () => {
    // 576 × 7,500 = 4,320,000 pixels, over the 4,194,304 of DEFAULT_LIMITS.maxImagePixels.
    const big: Bitmap = { width: 576, height: 7500, bytesPerRow: 72, bits: new Uint8Array(72 * 7500) };
    expect(compile('<image src="big"/>', { printer: 5, images: { big } }).diagnostics.map((d) => d.code)).toEqual(['limit/image-too-large']);
    const out = emitted([{ op: 'image', bitmap: big, ...at }]);
    expect(out.diagnostics).toEqual([]);
    expect(out.bytes.length).toBeGreaterThan(72 * 7500);
  });
});

describe('an op whose lowering fails', () => {
  it('is reported as lower/internal-error on its own span, and the ops around it still print', () => {
    // A text field that reads as text once (when the op is checked) and then throws: a stand-in
    // for a failure of bobina itself while lowering a valid op.
    let reads = 0;
    const flaky = {
      op: 'text',
      get text() {
        if (reads++ > 0) throw new RangeError('second read');
        return 'b';
      },
      start: 2,
      end: 3,
    };
    const out = emit([{ op: 'text', text: 'a', start: 0, end: 1 }, flaky as Op, { op: 'text', text: 'c\n', start: 3, end: 4 }], 5, { prologue: false, source: 'a\nbc' });
    expect(hex(out.bytes)).toBe('61630a');
    expect(said(out)).toEqual(['lower/internal-error: internal error while lowering a text op (RangeError: second read): a bug in bobina, not a problem in the op; nothing was printed for it']);
    expect(out.diagnostics[0]!.span.start).toEqual({ offset: 2, line: 2, column: 1 });
    expect(out.diagnostics[0]!.span.end.offset).toBe(3);
  });

  it('names an Error by its name and message, whatever its toString says', () => {
    let reads = 0;
    const flaky = {
      op: 'feed',
      get lines() {
        if (reads++ > 0) throw Object.assign(new TypeError('second read'), { toString: () => 'something else' });
        return 1;
      },
      ...at,
    };
    expect(said(emitted([flaky]))).toEqual(['lower/internal-error: internal error while lowering a feed op (TypeError: second read): a bug in bobina, not a problem in the op; nothing was printed for it']);
  });

  it('names a thrown value that is no Error as it is', () => {
    let reads = 0;
    const flaky = {
      op: 'qr',
      get data() {
        if (reads++ > 0) throw 'not an Error';
        return 'x';
      },
      ...at,
    };
    expect(said(emitted([flaky]))).toEqual(['lower/internal-error: internal error while lowering a qr op (not an Error): a bug in bobina, not a problem in the op; nothing was printed for it']);
  });
});

describe('what a refused node says, and which values a node takes', () => {
  const refusal = (i: number, field: string, held: string) => `lower/invalid-node: lower(): node ${i} has an invalid ${field}: ${held}; nothing is printed for it`;

  it('names the node, the field and the value it held, and lowers the rest', () => {
    const { ops, diagnostics } = lower(
      doc(
        { type: 'nope', ...at },
        { type: 'toString', ...at },
        { type: ['text'], value: 'a', ...at },
        { type: 'command', command: 'toString', tag: 'x', ...at },
        { type: 'command', command: ['feed'], tag: 'paperFeed', ...at },
        { type: 'command', command: 'feed', tag: 5, ...at },
        { type: 'text', value: 5, ...at },
        null,
        Object.assign(() => 'text', { type: 'text', value: 'a', ...at }),
        { type: 'text', value: 'ok\n', start: 0, end: 3 },
      ),
      5,
    );
    expect(diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
      refusal(0, 'type', '"nope"'),
      refusal(1, 'type', '"toString"'),
      refusal(2, 'type', 'an array'),
      refusal(3, 'command', '"toString"'),
      refusal(4, 'command', 'an array'),
      refusal(5, 'tag', '5'),
      refusal(6, 'value', '5'),
      'lower/invalid-node: lower(): node 7 has an invalid type; nothing is printed for it',
      'lower/invalid-node: lower(): node 8 has an invalid itself (not an object); nothing is printed for it',
    ]);
    expect(ops).toEqual([{ op: 'text', text: 'ok\n', start: 0, end: 3, latin1: true }]);
  });

  it('says so when the children are no array, and lowers nothing', () => {
    for (const [ast, held] of [[{ type: 'document', source: 'abc', children: { 0: { type: 'text', value: 'a', ...at } } }, 'an object'], [null, 'undefined'], [{ type: 'document', source: 'abc', children: 'abc' }, '"abc"']] as const) {
      const { ops, diagnostics } = lower(ast as unknown as Document, 5);
      expect(ops).toEqual([]);
      expect(diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([`lower/invalid-node: lower(): the document's children are ${held}, not an array of nodes: nothing is printed`]);
    }
  });

  const cell = (width: unknown) => ({ type: 'cell', width, align: 'left', text: 'a', textStart: 0, textEnd: 1, ...at });
  const row = (...cells: unknown[]) => ({ type: 'row', cells, ...at });
  it.each<[string, unknown]>([
    ['a cell width of no object', row(cell(5))],
    ['a cell width of null', row(cell(null))],
    ['a cell width of 1000 columns', row(cell({ columns: 1000 }))],
    ['a cell width of 0 shares', row(cell({ share: 0 }))],
    ['a cell width of neither columns nor shares', row(cell({}))],
    ['one bad cell among good ones', row(cell({ columns: 3 }), cell({ columns: 0 }))],
    ['cells that are no array', { type: 'row', cells: 'ab', ...at }],
    ['a cell that is null', row(null)],
    ['a cell that is a number', row(5)],
    ['cell pieces that are no array', row({ ...cell({ columns: 3 }), pieces: 'a' })],
    ['a cell piece that is null', row({ ...cell({ columns: 3 }), pieces: [null] })],
    ['a cell piece that is undefined', row({ ...cell({ columns: 3 }), pieces: [undefined] })],
    ['a cell piece that is a string', row({ ...cell({ columns: 3 }), pieces: ['a'] })],
    ['a cell piece with no text', row({ ...cell({ columns: 3 }), pieces: [{ start: 0 }] })],
    ['a cell piece whose text is no string', row({ ...cell({ columns: 3 }), pieces: [{ text: 5, start: 0 }] })],
    ['a cell piece with no start', row({ ...cell({ columns: 3 }), pieces: [{ text: 'a' }] })],
    ['a cell piece that starts at -1', row({ ...cell({ columns: 3 }), pieces: [{ text: 'a', start: -1 }] })],
    ['one bad cell piece among good ones', row({ ...cell({ columns: 3 }), text: 'ab', pieces: [{ text: 'a', start: 0 }, { text: 'b', start: 0.5 }] })],
    ['a rule character that is no string', { type: 'rule', char: 5, ...at }],
    ['an image name that is no string', { type: 'image', src: ['logo'], dither: 'threshold', ...at }],
    ['a text size given as digits', { type: 'textSize', width: '2', height: 1, ...at }],
    ['a barcode height of Infinity', { type: 'barcode', symbology: 'code128', data: '1', dataStart: 0, height: Infinity, module: 2, text: 'below', ...at }],
  ])('refuses %s', (_, node) => {
    const { ops, diagnostics } = lower(doc(node), 5);
    expect(diagnostics.map((d) => d.code)).toEqual(['lower/invalid-node']);
    expect(ops).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['999 columns', { columns: 999 }, '999'],
    ['one share', { share: 1 }, '1*'],
    ['999 shares', { share: 999 }, '999*'],
    ['one column', { columns: 1 }, '1'],
  ])('takes a cell width of %s, and lays the row out as the tag with that width', (_, width, attribute) => {
    // compile(), which never checks a node it made itself, is the reference (lower(parse(…)) is checked as a hand-built one).
    const hand = lower(doc(row(cell(width), cell({ share: 1 }))), 5);
    const compiled = compile(`<row><cell width="${attribute}">a</cell><cell width="*">a</cell></row>`, { printer: 5 });
    expect(hex(emit(hand.ops, 5).bytes)).toBe(hex(compiled.bytes));
    expect(hand.diagnostics.map((d) => d.message)).toEqual(compiled.diagnostics.map((d) => d.message));
  });

  it('takes cell pieces (text as written and escapes, each with its start), and lays the row out as the tag', () => {
    const pieced = { ...cell({ columns: 3 }), text: 'a<b', textEnd: 9, pieces: [{ text: 'a', start: 0 }, { text: '<', start: 1 }, { text: 'b', start: 5 }] };
    const hand = lower(doc(row(pieced, cell({ share: 1 }))), 5);
    const compiled = compile('<row><cell width="3">a&lt;b</cell><cell width="*">a</cell></row>', { printer: 5 });
    expect(hand.diagnostics).toEqual([]);
    expect(hex(emit(hand.ops, 5).bytes)).toBe(hex(compiled.bytes));
  });
});

describe('an op a checked field refuses, whatever else it holds', () => {
  // Any op with one field made wrong is refused, with that field named, on every template.
  const good: Record<string, Record<string, unknown>> = {
    condensed: { on: true },
    style: { style: 'bold', on: false },
    size: { width: 2, height: 2 },
    text: { text: 'a' },
    cut: { partial: true },
    feed: { lines: 2 },
    qr: { data: 'x', size: 4, ecc: 'M' },
    barcode: { symbology: 'code128', data: '1', height: 80, module: 2, text: 'below' },
  };
  const wrongValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant(Number.NaN), fc.constant(-1), fc.constant(1.5), fc.constant('zz'), fc.constant([]), fc.constant({}), fc.constant(true));
  it('names the wrong field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(good)), fc.nat(), wrongValue, fc.integer({ min: 0, max: 6 }), (name, k, value, printer) => {
        const fields = good[name]!;
        const keys = Object.keys(fields);
        const field = keys[k % keys.length]!;
        // Skip a value of the kind the field takes: any string is a text op's text or a QR code's
        // data, any boolean an `on` or `partial`, and a QR code's size and ecc may be left out.
        const kind = typeof fields[field];
        fc.pre(!(typeof value === kind && (kind === 'boolean' || field === 'text' && name === 'text' || field === 'data')));
        fc.pre(!(value === undefined && name === 'qr' && field !== 'data'));
        const out = emitted([{ op: name, ...fields, [field]: value, ...at }], printer);
        expect(out.bytes.length).toBe(0);
        expect(said(out)).toEqual([expect.stringContaining(`op 0 has an invalid ${field}:`)]);
      }),
      { numRuns: 200 },
    );
  });
});
