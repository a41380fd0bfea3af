// Tests written for mutants of src/emit that survived `npm run mutation` (bench/MUTATION.md): the
// bytes, the records' `op` keys and spans, and what every record must carry, where no other test
// looked. Record labels are for people: tests match on `op`, never on the label text.
import { describe, expect, it } from 'vitest';
import { WEB_WRITERS } from '../src/emit/writer.js';
import { compile, emit, loadProfile, lower, listProfiles, mnemonic, parse, type Op, type PrinterRef } from '../src/index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const lowered = (s: string, printer: PrinterRef) => lower(parse(s).ast, printer).ops;
const ops = (printer: PrinterRef, s: string) => compile(s, { printer, records: true }).records!.map((r) => r.op);

/** Every tag and a QR code, so each printer's emitter writes every kind of record it has. */
const EVERYTHING = '<textAlignCenter><textCondensedOn>um\n<qrcode>x</qrcode>dois<paperFeed><cashDrawerOpen><paperCutPartial><textAlignRight>três<paperCutFull>';
const MP4200_GS_K_Q = { extends: 'MAKER1MP4200', qr: { command: 'bematech-gs-k-q' } } as const;
const MP4200_GS_PAREN_K = { extends: 'MAKER1MP4200', qr: { command: 'epson-gs-k' } } as const;
const DR800_ESC_81 = { extends: 'MAKER3DR800', qr: { command: 'daruma-esc-81' } } as const;
const PRINTERS: [string, PrinterRef][] = [
  ...listProfiles().map((p) => [p.code, p.code] as [string, PrinterRef]),
  ['MP-4200 with its bracketed GS k Q', MP4200_GS_K_Q],
  ['MP-4200 with GS ( k', MP4200_GS_PAREN_K],
  ['DR800 with ESC 0x81', DR800_ESC_81],
];

describe('emit records', () => {
  it.each(PRINTERS)('give every command of %s a label for people', (_name, printer) => {
    const { records } = compile(EVERYTHING, { printer, records: true });
    expect(records!.length).toBeGreaterThanOrEqual(5);
    expect(records!.filter((r) => r.label.trim() === '')).toEqual([]);
  });

  it.each(PRINTERS)('cover the bytes of %s end to end, one record after the other', (_name, printer) => {
    const { bytes, records } = compile(EVERYTHING, { printer, records: true });
    let at = 0;
    for (const r of records!) {
      expect(r.offset).toBe(at);
      at += r.length;
    }
    expect(at).toBe(bytes.length);
  });

  it('name each command by its op key, on each kind of emitter', () => {
    expect(ops(0, EVERYTHING)).toEqual(['line', 'line', 'line', 'feed', 'line']);
    expect(ops('MAKER4I9', EVERYTHING)).toEqual([
      'init', 'codepage', 'alignCenter', 'text', 'qrModel', 'qrSize', 'qrEcc', 'qrStore', 'qrPrint', 'text', 'feed', 'drawer', 'cutPartial', 'alignRight', 'text', 'lineFeed', 'cutFull',
    ]);
    // The mode switch around GS k Q resets the printer: code page, alignment and condensed again.
    expect(ops(MP4200_GS_K_Q, EVERYTHING)).toEqual([
      'init', 'codepage', 'alignCenter', 'condensedOn', 'text', 'qrEnter', 'alignCenter', 'qr', 'qrLeave', 'codepage', 'alignCenter', 'condensedOn',
      'text', 'feed', 'drawer', 'cutPartial', 'alignRight', 'text', 'lineFeed', 'cutFull',
    ]);
    // GS ( k on the same printer needs no bracket: the bracket is only for its own command.
    expect(ops(MP4200_GS_PAREN_K, EVERYTHING)).toEqual([
      'init', 'codepage', 'alignCenter', 'condensedOn', 'text', 'qrModel', 'qrSize', 'qrEcc', 'qrStore', 'qrPrint', 'text', 'feed', 'drawer', 'cutPartial', 'alignRight', 'text', 'lineFeed', 'cutFull',
    ]);
    expect(ops(DR800_ESC_81, EVERYTHING)).toEqual([
      'init', 'alignCenter', 'condensedOn', 'text', 'qr', 'text', 'feed', 'drawer', 'feed', 'cutFull', 'alignRight', 'text', 'lineFeed', 'feed', 'cutFull',
    ]);
  });

  it('send nothing back after the GS k Q bracket that was not in force before it', () => {
    expect(ops(MP4200_GS_K_Q, '<qrcode>x</qrcode>')).toEqual(['init', 'codepage', 'qrEnter', 'qr', 'qrLeave', 'codepage']);
  });

  it('place the final line feed at the end of the last op', () => {
    const { records } = compile('ab<textAlignCenter>', { printer: 5, records: true });
    expect(records!.at(-1)).toMatchObject({ op: 'lineFeed', start: 19, end: 19 });
    expect(records!.at(-1)!.label).not.toBe('');
  });

  it('are absent unless asked for', () => {
    expect(Object.keys(compile('ab', { printer: 5 }))).toEqual(['bytes', 'diagnostics']);
    expect(Object.keys(emit(lowered('ab', 5), 5))).toEqual(['bytes', 'diagnostics']);
  });

  it('name text ops `text` also without the source (one record per op)', () => {
    const { records } = emit(lowered('um\ndois', 5), 5, { records: true });
    expect(records!.map((r) => r.op)).toEqual(['init', 'codepage', 'text', 'lineFeed']);
    expect(records!.filter((r) => r.label === '')).toEqual([]);
  });
});

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

describe('the generic template', () => {
  const text = (s: string) => Buffer.from(compile(s, { printer: 0 }).bytes).toString('utf8');

  it('ends the pending line before a feed', () => {
    // GENERICA feeds 3 lines (its feedLines).
    expect(text('a<paperFeed>b')).toBe(`a\n${'\n'.repeat(loadFeedLines())}b\n`);
  });

  it('aligns a line as the alignment in force where it starts', () => {
    const right = text('<textAlignRight>x\n').indexOf('x');
    expect(right).toBeGreaterThan(0);
    expect(text('ab<textAlignRight>cd\nef')).toBe(`abcd\n${' '.repeat(right - 1)}ef\n`);
  });

  it('ignores hand-made ops it has no use for (cut, drawer, condensed), writing and recording nothing', () => {
    const at = { start: 0, end: 0 };
    const made: Op[] = [{ op: 'text', text: 'a', ...at }, { op: 'cut', partial: false, ...at }, { op: 'drawer', ...at }, { op: 'condensed', on: true, ...at }, { op: 'text', text: 'b\n', ...at }];
    const out = emit(made, 0, { records: true });
    expect(Buffer.from(out.bytes).toString('utf8')).toBe('ab\n');
    expect(out.records!.map((r) => r.op)).toEqual(['line']);
  });

  it('keeps records without the source (one span per op)', () => {
    const out = emit([{ op: 'text', text: 'a\nb', start: 3, end: 6 }], 0, { records: true });
    expect(out.records!.map((r) => [r.op, r.start, r.end])).toEqual([
      ['line', 3, 6],
      ['line', 3, 6],
    ]);
  });
});

function loadFeedLines(): number {
  return listProfiles()[0]!.feedLines;
}

describe('mnemonic', () => {
  it.each([
    [[], ''],
    [[0x1b, 0x40], 'ESC @'],
    [[0x1d, 0x56, 0x42, 0x00], 'GS V 66 0'],
    [[0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43, 0x06], 'GS ( k 3 0 49 67 6'],
    [[0x1d, 0x28, 0x20], 'GS ( 32'],
    [[0x10, 0x04, 0x01], 'DLE 4 1'],
    [[0x1c, 0x2e], 'FS .'],
    [[0x0a], 'LF'],
    [[0x12], 'DC2'],
    [[0x0f], 'SI'],
    [[0x1b, 0x1b], 'ESC 27'],
    [[0x1b, 0x21, 0x21], 'ESC ! 33'],
    [[0x1b, 0x20], 'ESC 32'],
    [[0x1b, 0x7e], 'ESC ~'],
    [[0x1b, 0x7f], 'ESC 127'],
    [[0x41, 0x42], '0x41 B'],
    [[0x05], '0x05'],
    [[0xab, 0x0a], '0xAB 10'],
    [Array(12).fill(0x30), '0x30 0 48 48 48 48 48 48 48 48 48 48'],
    [Array(13).fill(0x30), '0x30 0 48 48 48 48 48 48 48 48 48 48 …'],
  ])('names %j as %j', (bytes, expected) => {
    expect(mnemonic(Uint8Array.from(bytes))).toBe(expected);
  });
});

describe('the byte writer without Node\'s Buffer (browsers, workers)', () => {
  // Node's own writers are the reference: the same bytes at the same offset, the same count.
  const node = (encoding: 'latin1' | 'utf8', text: string, offset: number, length: number) => {
    const buf = Buffer.alloc(16, 0xee);
    const n = buf.write(text, offset, length, encoding);
    return [n, hex(buf)];
  };
  const web = (encoding: 'latin1' | 'utf8', text: string, offset: number, length: number) => {
    const buf = new Uint8Array(16).fill(0xee);
    const n = WEB_WRITERS[encoding].call(buf, text, offset, length);
    return [n, hex(buf)];
  };

  it.each([
    ['latin1', 'aé\u00ff', 3],
    ['utf8', 'aé€😀', 2],
    ['utf8', 'a\ud800b', 0],
  ] as const)('writes %s %j as Node does', (encoding, text, offset) => {
    expect(web(encoding, text, offset, 16 - offset)).toEqual(node(encoding, text, offset, 16 - offset));
  });

  it('writes UTF-8 only within the room given', () => {
    expect(web('utf8', 'abcdef', 4, 3)).toEqual(node('utf8', 'abcdef', 4, 3));
    expect(web('utf8', 'xy', 1, 2)).toEqual(node('utf8', 'xy', 1, 2));
  });
});

describe('ASCII on a code page that has another character at an ASCII byte', () => {
  // CP864 has U+066A (Arabic percent sign) at 0x25 and no U+0025: the table maps "%" nowhere. ASCII
  // is printed as its own byte on every page, whether the text goes byte by byte (within Latin-1)
  // or character by character (here with "─", CP864 0x85), and at every position of a 4-byte word.
  const cp864 = { extends: 'MAKER5T20', codepage: { encoding: 'cp864' } } as const;
  const text = (s: string) => hex(compile(s, { printer: cp864 }).bytes).slice('1b401b7402'.length, -'0a'.length);

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
