// The records compile() and emit() give on request: every command named by its op key (the label
// is for people: tests match on `op`, never on the label text), with spans, covering the bytes end
// to end; kept because mutants of src/emit survived without them (`npm run mutation`, bench/MUTATION.md).
import { describe, expect, it, vi } from 'vitest';
import { compile, emit, listProfiles, lower, parse, type PrinterRef } from '../../src/index.js';

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
    // Under a style and a size, sent again after the GS k Q bracket; and a barcode: Epson's four
    // commands (GS h, GS w, GS H, GS k) or Daruma's ESC b.
    const { records } = compile(`<textBoldOn><textSize width="2">${EVERYTHING}<barcode type="ean8">9638507</barcode>`, { printer, records: true });
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

  it.each<[string, PrinterRef, string[]]>([
    ['the generic template', 0, ['line 0-3', 'line 3-25']],
    ['an ESC/POS profile that prints QR codes as text', { extends: 'MAKER5T20', qr: { command: 'text' } }, ['init 0-0', 'codepage 0-0', 'text 0-3', 'text 3-3', 'text 3-25']],
  ])('give a QR payload printed as a line after text the span of its tag, on %s', (_name, printer, spans) => {
    // The line break before it and the payload's line are two ops that start at the tag: the
    // payload's line is the whole tag, not the empty span of the break (SourceLines.of).
    const { records } = compile('abc<qrcode>hello</qrcode>', { printer, records: true });
    expect(records!.map((r) => `${r.op} ${r.start}-${r.end}`)).toEqual(spans);
  });

  it.each([0, 5])("read a row's source once for all its printed lines, on printer %i", (printer) => {
    // Every printed line of a row is an op spanning the whole row: its source lines are found once,
    // not once per line (a 120,000-character cell took minutes that way). Counted as the source's
    // characters read while emitting, never as time: each once, where per line it was 100 times as many.
    const source = `<row><cell width="1">${'a'.repeat(100)}</cell><cell>x</cell></row>`;
    const { ops } = lower(parse(source).ast, printer);
    expect(ops.filter((op) => op.op === 'text')).toHaveLength(100);
    const charCodeAt = String.prototype.charCodeAt;
    let reads = 0;
    vi.spyOn(String.prototype, 'charCodeAt').mockImplementation(function (this: string, i: number) {
      if (String(this) === source) reads++;
      return charCodeAt.call(this, i);
    });
    try {
      emit(ops, printer, { records: true, source });
    } finally {
      vi.restoreAllMocks();
    }
    expect(reads).toBe(source.length);
  });
});
