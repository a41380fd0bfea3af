// <barcode> lowering at the edges of what the native command and the paper take: a module width,
// height or data length at either end of the command's range, a symbol exactly as wide as the
// paper, the quiet zones of a raster symbol, and where its text goes. Each case is the op a printer
// gets (native command or image) and the bitmap's dots, on a printer loaded inside the test.
import { describe, expect, it } from 'vitest';
import { loadProfile, lower as lowerStage, parse, type Bitmap, type Op, type Profile } from '../../src/index.js';
import { code128Values } from '../../src/lower/barcode/code128.js';
import { lowerBarcode } from '../../src/lower/barcode.js';
import { barsWidth, ENCODERS, type Symbology } from '../../src/lower/barcode/index.js';
import type { BarcodeNode } from '../../src/parse/ast.js';
import escposBase from '../../src/profiles/builtin/escpos-base.json' with { type: 'json' };
import { lowerContext } from '../support/lower-context.js';

type Node = Partial<BarcodeNode> & { symbology: Symbology; data: string };

function lower(node: Node, printer: Profile, before: Op[] = [], state: { bold?: boolean } = {}) {
  const ctx = lowerContext(printer, {}, [...before]);
  Object.assign(ctx.state, state);
  lowerBarcode({ type: 'barcode', height: 80, module: 2, text: 'below', dataStart: 20, start: 0, end: 40, ...node }, ctx);
  return { ops: ctx.out.slice(before.length), diagnostics: ctx.diagnostics };
}

/** What the printer gets: `native`, `image`, or nothing (an error). */
const printedAs = (r: ReturnType<typeof lower>) => (r.ops.some((o) => o.op === 'barcode') ? 'native' : r.ops.some((o) => o.op === 'image') ? 'image' : 'nothing');
const image = (r: ReturnType<typeof lower>) => (r.ops.find((o) => o.op === 'image') as Extract<Op, { op: 'image' }>).bitmap;
const why = (r: ReturnType<typeof lower>) => r.diagnostics.map((d) => d.message);

/** The x of every black dot of a bitmap's first row. */
function blackDots(b: Bitmap): number[] {
  const xs: number[] = [];
  for (let x = 0; x < b.width; x++) if (b.bits[x >> 3]! & (0x80 >> (x & 7))) xs.push(x);
  return xs;
}

function barsOf(s: Symbology, data: string) {
  const r = ENCODERS[s](data);
  if (!r.ok) throw new Error(r.invalid.message);
  return r.symbol;
}

describe('the native command takes a symbol at either end of its ranges', () => {
  it('module widths and heights at the ends of the range print natively, one past them as an image saying which', () => {
    const dr800 = loadProfile('MAKER3DR800'); // module 2–5, height 50–200, text none or below
    const ean8 = (node: Partial<Node>) => lower({ symbology: 'ean8', data: '9638507', ...node }, dr800);
    for (const node of [{ module: 2 }, { module: 5 }, { height: 50 }, { height: 200 }]) expect(printedAs(ean8(node)), JSON.stringify(node)).toBe('native');
    expect(why(ean8({ module: 6 }))).toEqual(['EAN-8 printed as a raster image on Daruma DR800: module 6 is outside the 2–5 dots its barcode command takes']);
    expect(why(ean8({ height: 49 }))).toEqual(['EAN-8 printed as a raster image on Daruma DR800: height 49 is outside the 50–200 dots its barcode command takes']);
    expect(why(ean8({ height: 201 }))).toEqual(['EAN-8 printed as a raster image on Daruma DR800: height 201 is outside the 50–200 dots its barcode command takes']);
    expect(why(ean8({ text: 'both' }))).toEqual(['EAN-8 printed as a raster image on Daruma DR800: its barcode command cannot print the text above and below the bars']);
    const t20 = loadProfile('MAKER5T20'); // module 2–6
    expect(printedAs(lower({ symbology: 'ean8', data: '9638507', module: 6 }, t20))).toBe('native');
    expect(why(lower({ symbology: 'ean8', data: '9638507', module: 7 }, t20))).toEqual([expect.stringMatching(/module 7 is outside the 2–6 dots/)]);
  });

  it('a symbol exactly as wide as the paper prints natively; one dot less of paper makes it an image at a narrower module', () => {
    // EAN-8 is 67 modules: 402 dots at 6 dots per module, 335 at 5.
    expect(barsWidth(barsOf('ean8', '9638507'), 6)).toBe(402);
    const exact = loadProfile({ extends: 'MAKER5T20', image: { widthDots: 402 } });
    expect(printedAs(lower({ symbology: 'ean8', data: '9638507', module: 6 }, exact))).toBe('native');
    const short = loadProfile({ extends: 'MAKER5T20', image: { widthDots: 401 } });
    const r = lower({ symbology: 'ean8', data: '9638507', module: 6 }, short);
    expect(why(r)).toEqual(['EAN-8 printed as a raster image on Epson TM-T20: at 6 dots per module the bars are 402 dots, wider than the paper (401), at 5 dots per module to fit the paper']);
    // 335 dots of bars, and of the 55-dot quiet zones what the paper has: 33 dots each side.
    expect(image(r).width).toBe(401);
    expect(blackDots(image(r))[0]).toBe(33);
  });

  it('the data of one command: 255 bytes at most, counted as sent (two per CODE128 value in Epson\'s code-set form)', () => {
    const wide = { image: { widthDots: 4096 } };
    // As text: a byte per character.
    const asText = loadProfile({ extends: 'MAKER5T20', ...wide, barcode: { code128: 'text' } });
    expect(printedAs(lower({ symbology: 'code128', data: '1'.repeat(255), text: 'none' }, asText))).toBe('native');
    const long = lower({ symbology: 'code128', data: '1'.repeat(256), text: 'none' }, asText);
    expect(why(long)).toEqual(['CODE128 printed as a raster image on Epson TM-T20: its data is longer than one barcode command carries']);
    // Epson's form: {C and two bytes per digit pair, so 254 digits (start and 127 pairs) take 256 bytes.
    const sets = loadProfile({ extends: 'MAKER5T20', ...wide });
    expect(printedAs(lower({ symbology: 'code128', data: '1'.repeat(252), text: 'none' }, sets))).toBe('native');
    expect(why(lower({ symbology: 'code128', data: '1'.repeat(254), text: 'none' }, sets))).toEqual([expect.stringMatching(/its data is longer than one barcode command carries$/)]);
  });
});

describe('a raster symbol', () => {
  it('is how a printer with raster images and no barcode command prints every symbology', () => {
    const { barcode: _, $comment: __, ...base } = escposBase;
    const rasterOnly = loadProfile({ ...base, id: 90, code: 'RASTERONLY', nome: 'Raster only', isGeneric: false, printer: 'Raster only' } as Parameters<typeof loadProfile>[0]);
    expect(rasterOnly.barcode).toBeUndefined();
    const r = lower({ symbology: 'itf', data: '1234' }, rasterOnly);
    expect(printedAs(r)).toBe('image');
    expect(why(r)).toEqual(['ITF printed as a raster image on Raster only: its profile has no native ITF command']);
  });

  it('on paper wider than it has its whole quiet zones, and a symbol as wide as the paper none', () => {
    const raster = loadProfile({ extends: 'MAKER5T20', barcode: { types: { ean8: null } } });
    // EAN-8: 67 modules of bars and 11 of quiet zone each side; at 2 dots per module 134 + 2 × 22.
    const r = lower({ symbology: 'ean8', data: '9638507' }, raster);
    expect(printedAs(r)).toBe('image');
    expect(image(r).width).toBe(178);
    const dots = blackDots(image(r));
    expect([dots[0], dots.at(-1)]).toEqual([22, 155]);
    const exact = loadProfile({ extends: 'MAKER5T20', image: { widthDots: 402 }, barcode: { types: { ean8: null } } });
    const full = lower({ symbology: 'ean8', data: '9638507', module: 6 }, exact);
    expect(why(full)).toEqual(['EAN-8 printed as a raster image on Epson TM-T20: its profile has no native EAN-8 command']);
    expect(image(full).width).toBe(402);
    expect(blackDots(image(full))[0]).toBe(0);
  });

  it('wider than the paper even at 2 dots per module is an error naming its size', () => {
    const mp = loadProfile('MAKER1MP4200');
    const r = lower({ symbology: 'code128', data: '35200714200166000187650010000000051000000029', module: 3 }, mp);
    expect(r.ops).toEqual([]);
    expect(r.diagnostics).toEqual([
      { code: 'lower/barcode-too-wide', message: 'CODE128 symbol of 44 characters is 554 dots wide at 2 dots per module, wider than the 512 dots of Bematech MP-4200 TH', start: 0, end: 40 },
    ]);
  });

  it('has its text as a line above, below, both or neither, in the plain font', () => {
    const dr800 = loadProfile('MAKER3DR800'); // no native CODE128
    const kinds = (text: BarcodeNode['text']) => lower({ symbology: 'code128', data: 'AB', text }, dr800).ops.map((o) => (o.op === 'text' ? o.text : o.op));
    expect(kinds('none')).toEqual(['image']);
    expect(kinds('above')).toEqual(['AB\n', 'image']);
    expect(kinds('below')).toEqual(['image', 'AB\n']);
    expect(kinds('both')).toEqual(['AB\n', 'image', 'AB\n']);
    // Bold is switched off around each line of text and on again after it.
    const bold = lower({ symbology: 'code128', data: 'AB', text: 'both' }, dr800, [], { bold: true }).ops;
    expect(bold.map((o) => (o.op === 'style' ? `bold ${o.on}` : o.op))).toEqual(['bold false', 'text', 'bold true', 'image', 'bold false', 'text', 'bold true']);
  });

  it('starts its text above on a line of its own after text that has not ended its line', () => {
    const dr800 = loadProfile('MAKER3DR800');
    const text = (t: string): Op => ({ op: 'text', text: t, start: 0, end: 0 });
    const after = (before: Op[]) => lower({ symbology: 'code128', data: 'AB', text: 'above' }, dr800, before).ops[0];
    expect(after([text('Total')])).toMatchObject({ op: 'text', text: '\nAB\n' });
    expect(after([text('Total\n')])).toMatchObject({ op: 'text', text: 'AB\n' });
    expect(after([{ op: 'align', align: 'center', start: 0, end: 0 }])).toMatchObject({ op: 'text', text: 'AB\n' });
    expect(after([])).toMatchObject({ op: 'text', text: 'AB\n' });
  });
});

describe('the native barcode op of the stage API', () => {
  it('carries the data a scanner reads, and for CODE128 the symbol values lowering chose', () => {
    const ops = (source: string) => lowerStage(parse(source).ast, 'MAKER5T20').ops.filter((o) => o.op === 'barcode');
    expect(ops('<barcode type="code128" height="60">AB1234</barcode>')).toEqual([
      { op: 'barcode', symbology: 'code128', data: 'AB1234', values: code128Values('AB1234'), height: 60, module: 2, text: 'below', start: 0, end: 52 },
    ]);
    const [ean] = ops('<barcode type="ean13">789100031550</barcode>');
    expect(ean).toMatchObject({ op: 'barcode', data: '7891000315507' });
    expect(ean).not.toHaveProperty('values');
  });
});
