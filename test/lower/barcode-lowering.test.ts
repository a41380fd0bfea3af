// <barcode> lowering, emit, disassembly and preview, for every symbology on every template: native
// where the profile's command takes the symbol, a raster image otherwise, and either way a preview
// (drawn from the emitted bytes) that zbarimg reads back as exactly the data.
import { describe, expect, it } from 'vitest';
import { emit } from '../../src/emit/index.js';
import { epsonCode128 } from '../../src/emit/barcode-native.js';
import { compile, disassemble, listProfiles, loadProfile, renderPage, renderPng, type Op, type Profile, type ProfileInput } from '../../src/index.js';
import escposBase from '../../src/profiles/builtin/escpos-base.json' with { type: 'json' };
import { code128FromEpson } from '../../src/inspect/barcode-draw.js';
import { code128Values, SHIFT, START } from '../../src/lower/barcode/code128.js';
import { SYMBOLOGIES, type Symbology } from '../../src/lower/barcode/index.js';
import { OutputBudget, OutputLimitReached } from '../../src/limits.js';
import { lowerBarcode } from '../../src/lower/barcode.js';
import type { BarcodeNode } from '../../src/parse/ast.js';
import { lowerContext } from '../support/lower-context.js';
import { bitmapPng, haveZbar, zbarDecode, zbarReads } from '../support/zbar.js';
import fc from 'fast-check';

const KEY = '35200714200166000187650010000000051000000029';
import { hexSpaced as hex } from '../support/hex.js';

/** One sample per symbology, and the text a scanner reads from it. */
const SAMPLES: Record<Symbology, [data: string, text: string]> = {
  ean13: ['789100031550', '7891000315507'],
  ean8: ['9638507', '96385074'],
  upca: ['03600029145', '036000291452'],
  code39: ['BOBINA-39', 'BOBINA-39'],
  code128: ['Bobina 128: 0123456789', 'Bobina 128: 0123456789'],
  itf: ['12345678', '12345678'],
  codabar: ['A40156B', 'A40156B'],
};

function lower(node: Partial<BarcodeNode> & { symbology: Symbology; data: string }, printer: Profile, budget?: OutputBudget) {
  const ctx = lowerContext(printer, budget ? { budget } : {}, [{ op: 'align', align: 'center', start: 0, end: 0 }]);
  lowerBarcode({ type: 'barcode', height: 80, module: 2, text: 'below', dataStart: 20, start: 0, end: 40, ...node }, ctx);
  return { ops: ctx.out, diagnostics: ctx.diagnostics };
}

const escpos = listProfiles().filter((p) => p.output === 'escpos');

// fast-check runs, previews and zbarimg processes are CPU-bound: timeouts that hold on a loaded machine.
describe('bytes per model, as the sources give them', { timeout: 60_000 }, () => {
  it('Epson GS h / GS w / GS H / GS k, EAN-13 without its check digit (TM-T88III spec, ACBr ComandoCodBarrasEscPosEpson)', () => {
    const t20 = loadProfile('MAKER5T20');
    const { ops, diagnostics } = lower({ symbology: 'ean13', data: '7891000315507' }, t20);
    expect(diagnostics).toEqual([]);
    expect(ops[1]).toMatchObject({ op: 'barcode', symbology: 'ean13', data: '7891000315507', height: 80, module: 2, text: 'below' });
    const bytes = emit(ops, t20, { prologue: false }).bytes;
    expect(hex(bytes)).toBe('1B 61 01 1D 68 50 1D 77 02 1D 48 02 1D 6B 43 0C 37 38 39 31 30 30 30 33 31 35 35 30');
  });

  it('the access key as CODE128 set C: {C and 22 bytes 0–99 (ACBr Code128c)', () => {
    const t20 = loadProfile('MAKER5T20');
    const { ops } = lower({ symbology: 'code128', data: KEY, text: 'none' }, t20);
    const bytes = emit(ops, t20, { prologue: false }).bytes;
    expect(hex(bytes.subarray(3))).toBe('1D 68 50 1D 77 02 1D 48 00 1D 6B 49 18 7B 43 23 14 07 0E 14 01 42 00 01 57 41 00 0A 00 00 00 05 0A 00 00 00 1D');
  });

  it('Daruma ESC b type width height text data NUL (ACBr ACBrEscDaruma.pas ComandoCodBarras)', () => {
    const dr800 = loadProfile('MAKER3DR800');
    const { ops, diagnostics } = lower({ symbology: 'ean8', data: '9638507', height: 60, module: 3 }, dr800);
    expect(diagnostics).toEqual([]);
    expect(hex(emit(ops, dr800, { prologue: false }).bytes)).toBe('1B 6A 01 1B 62 02 03 3C 01 39 36 33 38 35 30 37 00');
  });

  it("Daruma's native CODE128 (ESC b 5, which the self-test tries) takes the data as ASCII, the printer choosing the code sets", () => {
    const bytes = compile('<barcode type="code128" text="none">Ab{12</barcode>', { printer: { extends: 'MAKER3DR800', barcode: { types: { code128: 5 } } } }).bytes;
    expect(hex(bytes)).toBe('1B 40 1B 62 05 02 50 00 41 62 7B 31 32 00');
  });

  it('the disassembler names each command and reads the barcode back', () => {
    const t20 = loadProfile('MAKER5T20');
    const bytes = emit(lower({ symbology: 'code39', data: 'AB-1', text: 'both' }, t20).ops, t20, { prologue: false }).bytes;
    const listing = disassemble(bytes, { printer: t20 }).map((i) => [i.mnemonic, i.name, i.args]);
    expect(listing.slice(1)).toEqual([
      ['GS h', 'barcode height', { n: 80 }],
      ['GS w', 'barcode width', { n: 2 }],
      ['GS H', 'HRI character position', { n: 3, text: 'both' }],
      ['GS k', 'print barcode', { m: 69, type: 'CODE39', length: 4, data: 'AB-1' }],
    ]);
    const dr800 = loadProfile('MAKER3DR800');
    const daruma = disassemble(emit(lower({ symbology: 'itf', data: '1234' }, dr800).ops, dr800, { prologue: false }).bytes, { printer: dr800 });
    expect(daruma[1]).toMatchObject({ mnemonic: 'ESC b', name: 'print barcode (Daruma)', args: { n: 4, type: 'ITF', width: 2, height: 80, text: 'below', data: '1234' } });
  });

  it("Epson's CODE128 form reads back to the same values, for any printable data", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 30 }), (data) => {
        const values = code128Values(data);
        expect(code128FromEpson(Uint8Array.from(epsonCode128(values)))).toEqual({ values, text: data });
      }),
    );
    expect(epsonCode128(code128Values('a{b'))).toEqual([0x7b, 0x42, 0x61, 0x7b, 0x7b, 0x62]);
    // 98 is a shift in sets A and B, two digits in set C.
    expect(epsonCode128(code128Values('9812'))).toEqual([0x7b, 0x43, 98, 12]);
  });

  it("Epson's CODE128 form of set A and shifts, which only values given by hand have (the encoder writes sets B and C)", () => {
    const { A, B } = START;
    // Set A: "A" (33), NUL (64), TAB (73), "_" (63); {S shifts one value to set B ("a", 65).
    expect(epsonCode128([A, 33, 64, 73, 63, SHIFT, 65, 33])).toEqual([0x7b, 0x41, 0x41, 0x00, 0x09, 0x5f, 0x7b, 0x53, 0x61, 0x41]);
    // Set B: {S shifts one value to set A (TAB, 73).
    expect(epsonCode128([B, 65, SHIFT, 73, 65])).toEqual([0x7b, 0x42, 0x61, 0x7b, 0x53, 0x09, 0x61]);
    for (const values of [[A, 33, 64, 73, 63, SHIFT, 65, 33], [B, 65, SHIFT, 73, 65]]) expect(code128FromEpson(Uint8Array.from(epsonCode128(values)))?.values).toEqual(values);
  });
});

describe('native or raster', () => {
  it('falls back to a raster image, with an info saying why, for each reason', () => {
    const t20 = loadProfile('MAKER5T20');
    const dr800 = loadProfile('MAKER3DR800');
    const reason = (node: Parameters<typeof lower>[0], p: Profile) => lower(node, p).diagnostics.map((d) => [d.code, d.message]);
    expect(reason({ symbology: 'code128', data: 'ABC' }, dr800)).toEqual([['lower/barcode-raster-fallback', 'CODE128 printed as a raster image on Daruma DR800: its profile has no native CODE128 command']]);
    expect(reason({ symbology: 'ean8', data: '9638507', module: 1 }, t20)[0]![1]).toMatch(/module 1 is outside the 2–6 dots/);
    expect(reason({ symbology: 'ean8', data: '9638507', height: 40 }, dr800)[0]![1]).toMatch(/height 40 is outside the 50–200 dots/);
    expect(reason({ symbology: 'ean8', data: '9638507', text: 'above' }, dr800)[0]![1]).toMatch(/cannot print the text above the bars/);
    expect(reason({ symbology: 'code39', data: 'ABCDEFGHIJK', module: 3 }, t20)[0]![1]).toMatch(/at 3 dots per module the bars are 582 dots, wider than the paper \(576\), at 2 dots per module to fit the paper$/);
    const raster = lower({ symbology: 'code128', data: 'ABC', text: 'both' }, dr800).ops.map((o) => o.op);
    expect(raster).toEqual(['align', 'text', 'image', 'text']);
  });

  it("spends from the job's output budget the bytes of the raster it draws, quiet zones included: a bit per dot", () => {
    // CODE128 on the DR800 is a raster: its bars and a quiet zone of 10 modules each side, 80 rows.
    const dr800 = loadProfile('MAKER3DR800');
    const node = { symbology: 'code128', data: 'ABC' } as const;
    const { bitmap } = lower(node, dr800).ops[1] as Extract<Op, { op: 'image' }>;
    expect([bitmap.width, bitmap.height]).toEqual([136 + 2 * 20, 80]); // 68 modules (start, 3 symbols, check, stop) at 2 dots
    const bytes = Math.ceil((bitmap.width * bitmap.height) / 8);
    // A budget of exactly those bytes is spent to 0: the next element still goes on. One byte less is past the limit.
    const exact = new OutputBudget(bytes);
    lower(node, dr800, exact);
    expect(() => exact.check(1, 2)).not.toThrow();
    const under = new OutputBudget(bytes - 1);
    lower(node, dr800, under);
    expect(() => under.check(1, 2)).toThrow(OutputLimitReached);
  });

  it('makes the bars narrower to fit the paper, down to 2 dots per module, else an error', () => {
    const mp = loadProfile('MAKER1MP4200');
    // The access key is 831 dots wide at 3 dots per module, 554 at 2: wider than the MP-4200's 512.
    const wide = lower({ symbology: 'code128', data: KEY, module: 3 }, mp);
    expect(wide.diagnostics.map((d) => d.code)).toEqual(['lower/barcode-too-wide']);
    expect(wide.ops).toHaveLength(1);
    const t20 = loadProfile('MAKER5T20');
    const fits = lower({ symbology: 'code128', data: KEY, module: 3 }, t20);
    expect(fits.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/at 2 dots per module to fit the paper$/)]);
    expect((fits.ops[1] as Extract<Op, { op: 'image' }>).bitmap.width).toBeLessThanOrEqual(576);
  });

  it('reports data the symbology cannot hold at the data, or at the character at fault', () => {
    const t20 = loadProfile('MAKER5T20');
    expect(lower({ symbology: 'ean13', data: '78910003' }, t20).diagnostics).toEqual([
      { code: 'lower/barcode-invalid', message: 'invalid EAN-13 data: EAN-13 takes 12 digits, or 13 with the check digit; this is 8', start: 20, end: 28 },
    ]);
    expect(lower({ symbology: 'code128', data: 'Pão' }, t20).diagnostics[0]).toMatchObject({ start: 21, end: 22 });
  });

  it('prints the data as a line on the generic template', () => {
    const generic = loadProfile('GENERICA');
    expect(lower({ symbology: 'ean13', data: '789100031550' }, generic).ops[1]).toMatchObject({ op: 'text', text: '7891000315507\n' });
  });

  it("marks the data line on the generic template as within Latin-1, which a barcode's data always is", () => {
    // The IR's latin1 mark: lowering knows the text a scanner reads is ASCII (its encoders take nothing else).
    const generic = loadProfile('GENERICA');
    expect(lower({ symbology: 'code128', data: 'Bobina 128: 0123456789' }, generic).ops.slice(1)).toEqual([{ op: 'text', text: 'Bobina 128: 0123456789\n', start: 0, end: 40, latin1: true }]);
  });

  it('prints a raster barcode\'s human-readable line through the code page: an ASCII character the page reads as another is replaced, with a warning at it in the data', () => {
    // ISO646-CN reads 0x24 as ¥: "$" written as itself would print ¥ under the bars. CODE39 takes "$"; the DR800's barcode command takes modules 2–5.
    const cn = { extends: 'MAKER3DR800', codepage: { encoding: 'iso646cn', select: '1B 74 10' } } as const;
    const r = compile('<barcode type="code39" module="6" text="both">A$B</barcode>', { printer: cn });
    // One warning for the text printed twice (above and below), at the "$" of the data.
    expect(r.diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])).toEqual([['lower/barcode-raster-fallback', 0, 59], ['text/replaced', 47, 48]]);
    const bytes = Buffer.from(r.bytes).toString('latin1');
    expect(bytes.split('A?B\n').length - 1).toBe(2);
    expect(bytes).not.toContain('$');
    // A native barcode's text is the printer's to print (in its own font): no warning.
    expect(compile('<barcode type="code39" module="2">A$B</barcode>', { printer: cn }).diagnostics).toEqual([]);
    // No text asked: none printed, no warning.
    expect(compile('<barcode type="code39" module="6" text="none">A$B</barcode>', { printer: cn }).diagnostics.map((d) => d.code)).toEqual(['lower/barcode-raster-fallback']);
    // The plain-text template's data line, on the same page.
    const plain = compile('<barcode type="code39">A$B</barcode>', { printer: { extends: 'GENERICA', codepage: { encoding: 'iso646cn' } } });
    expect(plain.diagnostics.map((d) => [d.code, d.span.start.offset])).toEqual([['text/replaced', 24]]);
    expect(Buffer.from(plain.bytes).toString('latin1')).toBe('A?B\n');
    // A page that keeps ASCII: the line as the data, marked within Latin-1, with no warning.
    const t20 = loadProfile('MAKER5T20');
    expect(lower({ symbology: 'code39', data: 'A$B', module: 7 }, t20).ops.filter((o) => o.op === 'text')).toEqual([{ op: 'text', text: 'A$B\n', start: 0, end: 40, latin1: true }]);
  });

  it('starts the data line on the generic template on a line of its own, and measures it', () => {
    const text = (s: string) => Buffer.from(compile(s, { printer: 0 }).bytes).toString('utf8');
    expect(text('abc<barcode type="ean8">1234567</barcode>def')).toBe('abc\n12345670\ndef\n');
    expect(text('<rule/><barcode type="ean8">1234567</barcode>')).toBe(`${'-'.repeat(48)}\n12345670\n`);
    const long = compile(`<barcode type="code128">${'A'.repeat(50)}</barcode>`, { printer: 0 });
    expect(long.diagnostics.map((d) => d.code)).toEqual(['text/line-too-long']);
  });
});

describe.skipIf(!haveZbar)('the access key on 576 dots, native and raster', { timeout: 60_000 }, () => {
  // Its bars are 554 dots at 2 per module: 11 dots each side on the paper, less than the 10-module
  // quiet zone, so it is read as printed on paper with margins (white around the printed dots).
  it.each([73, null])('TM-T20 with CODE128 type %s', (type) => {
    const printer = loadProfile({ extends: 'MAKER5T20', barcode: { types: { code128: type } } });
    const { ops } = lower({ symbology: 'code128', data: KEY, text: 'none' }, printer);
    const page = renderPage(emit(ops, printer).bytes, { printer });
    const bars = page.marks.find((m) => m.kind === 'bitmap')!;
    expect(bars.kind === 'bitmap' && zbarDecode(bitmapPng(bars.bitmap, 40, 1))).toEqual([`CODE-128:${KEY}`]);
  });
});

describe.skipIf(!haveZbar)('every symbology, every template, native and raster: the preview scans to the data', { timeout: 60_000 }, () => {
  const cases = escpos.flatMap((p) => SYMBOLOGIES.map((s) => [p.code, s] as const));
  it.each(cases)('%s %s', (code, s) => {
    const native = loadProfile(code);
    const raster = loadProfile({ extends: code, barcode: { types: { [s]: null } } });
    const [data, text] = SAMPLES[s];
    for (const printer of [native, raster]) {
      const { ops, diagnostics } = lower({ symbology: s, data }, printer);
      expect(diagnostics.filter((d) => d.code !== 'lower/barcode-raster-fallback')).toEqual([]);
      const bytes = emit(ops, printer).bytes;
      expect(zbarDecode(renderPng(bytes, { printer })), `${code} ${s} ${printer === native ? 'native' : 'raster'}`).toEqual([zbarReads(s, text)]);
    }
  });
});

describe('a barcode op built by hand (the stage API)', () => {
  it('prints nothing for data its symbology cannot hold, and a raster image where the profile has no native command', () => {
    const dr800 = loadProfile('MAKER3DR800');
    const op = (data: string, symbology: Symbology = 'code39'): Op => ({ op: 'barcode', symbology, data, height: 60, module: 2, text: 'none', start: 0, end: 1 });
    // A NUL would end Daruma's ESC b early and let what follows be read as commands.
    expect(emit([op('AB\u0000\u001bp')], dr800, { prologue: false }).bytes).toEqual(new Uint8Array(0));
    expect(hex(emit([op('AB')], dr800, { prologue: false }).bytes)).toBe('1B 62 06 02 3C 00 41 42 00');
    const raster = emit([op('AB', 'code128')], dr800, { prologue: false, records: true });
    expect(raster.records!.map((r) => r.op)).toEqual(['bandSpacing', 'band', 'band', 'band', 'spacingReset']);
    // The check digit and the code sets come from the data, whatever the op says.
    const t20 = loadProfile('MAKER5T20');
    expect(hex(emit([op('789100031550', 'ean13')], t20, { prologue: false }).bytes)).toContain('1D 6B 43 0C');
    // CODE128 values too: none, or wrong ones, in the op.
    expect(hex(emit([op('AB', 'code128')], t20, { prologue: false }).bytes)).toContain('1D 6B 49 04 7B 42 41 42');
    expect(hex(emit([{ ...op('AB', 'code128'), values: [105, 1, 2] } as Op], t20, { prologue: false }).bytes)).toContain('1D 6B 49 04 7B 42 41 42');
  });

  it('prints nothing for a symbology it does not know, and a raster image on a profile with no native barcode command at all', () => {
    const op = (symbology: string): Op => ({ op: 'barcode', symbology: symbology as Symbology, data: '12345678', height: 60, module: 2, text: 'none', start: 0, end: 1 });
    expect(emit([op('upce')], loadProfile('MAKER5T20'), { prologue: false }).bytes).toEqual(new Uint8Array(0));
    const { barcode: _, $comment: __, ...base } = escposBase;
    const rasterOnly = loadProfile({ ...base, id: 90, code: 'RASTERONLY', nome: 'Raster only', isGeneric: false, printer: 'Raster only' } as ProfileInput);
    expect(emit([op('itf')], rasterOnly, { prologue: false, records: true }).records!.map((r) => r.op)).toEqual(['raster']);
  });
});
