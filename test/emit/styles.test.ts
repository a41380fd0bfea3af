// The style and size ops in the emitter, built by hand as the stage API allows: bytes from the
// profile, sizes held within 1 and the profile's largest, and nothing (never a throw) for a style
// the printer has no command for. This is the emitter itself (src/emit): the public emit() checks
// hand-built ops first and refuses a malformed one (test/stages-safety.test.ts).
import { describe, expect, it } from 'vitest';
import { emit } from '../../src/emit/index.js';
import { compile, listProfiles, loadProfile, type Op, type PrinterRef, type ProfileInput } from '../../src/index.js';
import escposBase from '../../src/profiles/builtin/escpos-base.json' with { type: 'json' };
import { hexSpaced } from '../support/hex.js';

const body = (ops: Op[], printer: PrinterRef) => hexSpaced(emit(ops, loadProfile(printer), { prologue: false }).bytes);
const at = { start: 0, end: 0 };

describe('style and size ops in the emitter', () => {
  it('writes each style from the profile bytes', () => {
    expect(body([{ op: 'style', style: 'bold', on: true, ...at }, { op: 'style', style: 'invert', on: false, ...at }], 5)).toBe('1B 45 01 1D 42 00');
    expect(body([{ op: 'style', style: 'bold', on: true, ...at }, { op: 'style', style: 'bold', on: false, ...at }], 3)).toBe('1B 45 1B 46');
  });

  it('writes the size template, holding a hand-built size within 1 and the largest', () => {
    expect(body([{ op: 'size', width: 3, height: 2, ...at }], 5)).toBe('1D 21 21');
    expect(body([{ op: 'size', width: 99, height: -4, ...at }], 5)).toBe('1D 21 70');
    expect(body([{ op: 'size', width: 8, height: 1.7, ...at }], 3)).toBe('1B 57 01 1B 77 00');
    expect(body([{ op: 'size', width: Number.NaN, height: 2, ...at }], 3)).toBe('1B 57 00 1B 77 01');
    // A profile with no sizeMax (one that extends nothing) takes ESC/POS's 8 × 8.
    const { sizeMax: _, $comment: __, ...base } = escposBase;
    const noSizeMax = { ...base, id: 91, code: 'NOSIZEMAX', nome: 'No sizeMax', isGeneric: false, printer: 'No sizeMax' } as ProfileInput;
    expect(loadProfile(noSizeMax).sizeMax).toBeUndefined();
    expect(body([{ op: 'size', width: 99, height: 3, ...at }], noSizeMax)).toBe('1D 21 72');
  });

  it('writes nothing for a style the printer lacks, or on plain text, and never throws on any printer', () => {
    expect(body([{ op: 'style', style: 'invert', on: true, ...at }], 3)).toBe('');
    expect(body([{ op: 'style', style: 'bold', on: true, ...at }, { op: 'size', width: 2, height: 2, ...at }], 0)).toBe('');
    expect(body([{ op: 'size', width: 2, height: 2, ...at }], { extends: 'MAKER5T20', commands: { size: null } })).toBe('');
    // Condensed text needs both commands: the I9 has neither, this TM-T20 only the one to turn it on.
    expect(body([{ op: 'condensed', on: true, ...at }], 'MAKER4I9')).toBe('');
    expect(body([{ op: 'condensed', on: true, ...at }], { extends: 'MAKER5T20', commands: { condensedOff: null } })).toBe('');
    const odd = [{ op: 'style', style: 'italic', on: true, ...at }, { op: 'size', width: Infinity, height: Number.NaN, ...at }] as unknown as Op[];
    for (const p of listProfiles()) expect(() => emit(odd, p)).not.toThrow();
  });

  it('sends the styles in force again after a command the profile says resets them (the MP-4200 ESC ! for condensed)', () => {
    const ops: Op[] = [{ op: 'style', style: 'underline', on: true, ...at }, { op: 'size', width: 2, height: 1, ...at }, { op: 'condensed', on: true, ...at }];
    expect(body(ops, 1)).toBe('1B 2D 01 1D 21 10 1B 21 01 1B 2D 01 1D 21 10');
    expect(body(ops, 5)).toBe('1B 2D 01 1D 21 10 1B 4D 01');
  });

  it('sends the styles in force again after the GS k Q bracket, once: after it, the MP-4200\'s condensedOn sends them itself', () => {
    const printer = { extends: 'MAKER1MP4200', qr: { command: 'bematech-gs-k-q' } } as const;
    const after = (s: string) => {
      const ops = compile(s, { printer, records: true }).records!.map((r) => r.op);
      return ops.slice(ops.indexOf('qrLeave') + 1);
    };
    expect(after('<textBoldOn><qrcode>x</qrcode>')).toEqual(['codepage', 'boldOn']);
    expect(after('<textBoldOn><textCondensedOn><qrcode>x</qrcode>')).toEqual(['codepage', 'condensedOn', 'boldOn']);
  });
});
