// The ESC/POS emitter's bytes where no golden file looks: the job start, line ends around a cut,
// ASCII on every code page, raster bands (GS v 0 and ESC *) at their edges; kept because mutants of src/emit survived without them (`npm run mutation`, bench/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { compile, emit, loadProfile, lower, parse, type Op, type PrinterRef } from '../../src/index.js';
import { emit as emitOps } from '../../src/emit/index.js';
import { OutputLimitReached } from '../../src/limits.js';
import { hex } from '../support/hex.js';

const lowered = (s: string, printer: PrinterRef) => lower(parse(s).ast, printer).ops;

describe('ESC/POS bytes', () => {
  it('writes a character above Latin-1 through the code page, with or without records', () => {
    // "─" U+2500 is byte C4 in CP850 (Epson TM-T20): ESC @, ESC t 2, C4, LF.
    expect(hex(compile('─', { printer: 5 }).bytes)).toBe('1b401b7402c40a');
    expect(hex(compile('─', { printer: 5, records: true }).bytes)).toBe('1b401b7402c40a');
    expect(hex(compile('a─é\nb─', { printer: 5, records: true }).bytes)).toBe('1b401b740261c4820a62c40a');
  });

  it('ends a pending line once before a cut, and not again after it', () => {
    // ESC @, ESC t 2, "a", LF, GS V 0, GS V 0 (TM-T20 full cut), no final LF.
    const full = hex(compile('', { printer: 5 }).bytes);
    const cut = hex(compile('<paperCutFull>', { printer: 5 }).bytes).slice(full.length);
    expect(hex(compile('a<paperCutFull><paperCutFull>', { printer: 5 }).bytes)).toBe(`${full}610a${cut}${cut}`);
  });

  it('leaves out the job start when emitting ops that continue a job (prologue: false)', () => {
    expect(hex(emit(lowered('ab', 5), 5, { prologue: false }).bytes)).toBe('61620a');
    expect(hex(emit(lowered('ab', 5), 5).bytes)).toBe('1b401b740261620a');
    // Text first, with nothing before it: "é" is still mapped through CP850 (0x82).
    expect(hex(emit(lowered('é', 5), 5, { prologue: false }).bytes)).toBe('820a');
  });

  it('leaves the last line open when emitting ops a job goes on after (epilogue: false): no final line feed, and the bytes after the last command not held to maxBytes', () => {
    const t20 = loadProfile(5);
    expect(hex(emitOps(lowered('ab', 5), t20, { prologue: false, epilogue: false }).bytes)).toBe('6162');
    expect(hex(emitOps(lowered('ab', 5), t20, { prologue: false }).bytes)).toBe('61620a');
    // Past 6 bytes only after the text's command: what lowering built before it stopped, emitted as the start of a job.
    expect(hex(emitOps(lowered('abcdef', 5), t20, { epilogue: false, maxBytes: 6 }).bytes)).toBe('1b401b7402616263646566');
    expect(() => emitOps(lowered('abcdef', 5), t20, { maxBytes: 6 })).toThrow(OutputLimitReached);
    // The generic template writes a line once it ends: the last one, with no line break, is left pending.
    const generic = loadProfile(0);
    expect(hex(emitOps(lowered('ab\ncd', 0), generic, { epilogue: false }).bytes)).toBe('61620a');
    expect(hex(emitOps(lowered('ab\ncd', 0), generic).bytes)).toBe('61620a63640a');
  });
});

describe('ASCII on a code page that has another character at an ASCII byte', () => {
  // CP864 has U+066A (Arabic percent sign) at 0x25 and no U+0025: the table maps "%" nowhere, and
  // lowering replaces it (test/text/codepages.test.ts). The emitter maps only bytes from 0x80 up:
  // ASCII in an op is written as its own byte, never looked up (a lookup would give 0xFF here),
  // whether the text goes byte by byte (within Latin-1) or character by character (here with "─",
  // CP864 0x85), and at every position of a 4-byte word. Ops given to the emitter as they are (the
  // stage emit() would sanitise them first).
  const cp864 = loadProfile({ extends: 'MAKER5T20', codepage: { encoding: 'cp864' } });
  const text = (s: string) => hex(emitOps([{ op: 'text', text: s, start: 0, end: s.length }], cp864).bytes).slice('1b401b7402'.length, -'0a'.length);

  it('writes "%" as 0x25 next to a character above Latin-1', () => {
    expect(text('%─%')).toBe('258525');
  });

  it.each([0, 1, 2, 3, 4, 5, 6, 7])('writes "%" as 0x25 around "°" (0x80) in Latin-1 text, %i of them first', (n) => {
    // The text starts at byte 5 (after ESC @ and ESC t), so the "%"s fall before, in and after the
    // 4-byte words that hold a byte from 0x80 up.
    const s = '%'.repeat(n) + '°' + '%'.repeat(7 - n) + '°' + '%'.repeat(n);
    expect(text(s)).toBe('25'.repeat(n) + '80' + '25'.repeat(7 - n) + '80' + '25'.repeat(n));
  });
});

describe('command bytes from 0x80 up after Latin-1 text', () => {
  // Latin-1 text is mapped through the code page after the commands around it are written (one
  // native write, writer.ts): only the text's own bytes are, wherever it ends in a 4-byte word.
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('are written as the profile gives them, after %i letters', (n) => {
    const letters = '61'.repeat(n);
    // A feed of 200 lines: ESC d C8 (C8 is "È" in Latin-1, D4 in CP850).
    expect(hex(compile(`${'a'.repeat(n)}<paperFeed>`, { printer: { extends: 'MAKER5T20', feedLines: 200 } }).bytes)).toBe(`1b401b7402${letters}1b64c8`);
    expect(hex(compile(`${'a'.repeat(n)}<textBoldOn>`, { printer: { extends: 'MAKER5T20', commands: { boldOn: '80 FF C8' } } }).bytes)).toBe(`1b401b7402${letters}80ffc80a`);
  });
});

describe('raster bands', () => {
  /** Rows of each GS v 0 band (its header's yL yH). */
  const bandRows = (printer: PrinterRef) => {
    const { bytes, records } = compile('<qrcode>abc</qrcode>', { printer, records: true });
    return records!.filter((r) => r.op === 'raster').map((r) => bytes[r.offset + 6]! | (bytes[r.offset + 7]! << 8));
  };

  it('splits GS v 0 at the profile row limit, with no empty band when the height is a multiple of it', () => {
    // "abc" on the TM-T20: 29 modules × 6 dots = 174 rows, one band of 22 × 174 < 4096 bytes.
    expect(bandRows(5)).toEqual([174]);
    expect(bandRows({ extends: 'MAKER5T20', image: { maxBandRows: 174 } })).toEqual([174]);
    expect(bandRows({ extends: 'MAKER5T20', image: { maxBandRows: 87 } })).toEqual([87, 87]);
    expect(bandRows({ extends: 'MAKER5T20', image: { maxBandRows: 50 } })).toEqual([50, 50, 50, 24]);
  });

  it('prints ESC * bands of 24 rows, with no empty band when the height is a multiple of 24', () => {
    // 20 bytes: a 25-module symbol, 33 with the quiet zone, × 8 dots = 264 rows = 11 bands.
    const { records } = compile('<qrcode>abcdefghijklmnopqrst</qrcode>', { printer: { extends: 'MAKER3DR800', qr: { moduleSize: 8 } }, records: true });
    expect(records!.map((r) => r.op)).toEqual(['init', 'bandSpacing', ...Array(11).fill('band'), 'spacingReset']);
  });
});

describe('ESC * bands past the end of the working buffer', () => {
  // DR800 writes a raster image as ESC * 24-dot bands, 3 bytes per column. An output over 1 MiB
  // (the most the writer keeps between emits) crosses the end of its working buffer inside a band,
  // wherever the band starts; three lengths of text before the image move where that is.
  const width = 576;
  const height = 24 * 640;
  const bytesPerRow = width / 8;
  const bitmap = { width, height, bytesPerRow, bits: new Uint8Array(bytesPerRow * height).fill(0xff) };
  const fromHex = (h: string | null | undefined) => (h ? Buffer.from(h.replace(/ /g, ''), 'hex') : Buffer.alloc(0));

  it.each([1, 601, 1201])('holds every dot of every band after %i bytes of text', (before) => {
    const text = 'a'.repeat(before - 1) + '\n';
    const made: Op[] = [
      { op: 'text', text, start: 0, end: 0, latin1: true },
      { op: 'image', bitmap, start: 0, end: 0 },
    ];
    const { bytes } = emit(made, 'MAKER3DR800', { prologue: false });
    const image = loadProfile('MAKER3DR800').image!;
    const band = Buffer.concat([Buffer.from([0x1b, 0x2a, 0x21, width & 0xff, width >> 8]), Buffer.alloc(3 * width, 0xff), fromHex(image.bandEnd)]);
    const expected = Buffer.concat([Buffer.from(text, 'latin1'), fromHex(image.lineSpacing), ...Array.from({ length: height / 24 }, () => band), fromHex(image.lineSpacingReset)]);
    expect(bytes.length).toBe(expected.length);
    expect(Buffer.from(bytes).equals(expected)).toBe(true);
  });
});

describe('a bitmap whose bits hold more rows than its height', () => {
  // The height decides what prints: on ESC * (DR800) the last 24-dot band is padded with blank
  // rows, never filled from bytes past `height` rows; GS v 0 (T20) sends `height` rows.
  const width = 16;
  const bytesPerRow = 2;
  const bitmap = { width, height: 20, bytesPerRow, bits: new Uint8Array(bytesPerRow * 24).fill(0xff) };
  const made: Op[] = [{ op: 'image', bitmap, start: 0, end: 0 }];

  it('prints 20 rows on ESC *: each column is 8 + 8 + 4 dots', () => {
    const bytes = Buffer.from(emit(made, 'MAKER3DR800', { prologue: false }).bytes);
    const header = Buffer.from([0x1b, 0x2a, 0x21, width, 0]);
    const at = bytes.indexOf(header);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(hex(bytes.subarray(at + header.length, at + header.length + 3 * width))).toBe('fffff0'.repeat(width));
  });

  it('prints 20 rows on GS v 0', () => {
    const bytes = Buffer.from(emit(made, 'MAKER5T20', { prologue: false }).bytes);
    expect(hex(bytes)).toBe('1d763000' + '0200' + '1400' + 'ff'.repeat(bytesPerRow * 20));
  });
});
