// <qrcode size ecc>: the module size and error correction of one QR code, native and raster;
// without them the ops, and so the bytes, are exactly what they were.
import { describe, expect, it } from 'vitest';
import { emit } from '../../src/emit/index.js';
import { loadProfile, type Op, type Profile } from '../../src/index.js';
import { OutputBudget, OutputLimitReached } from '../../src/limits.js';
import { lowerQr } from '../../src/lower/qr.js';
import type { QrCodeNode } from '../../src/parse/ast.js';
import { lowerContext } from '../support/lower-context.js';

import { hexSpaced as hex } from '../support/hex.js';

function lower(node: Partial<QrCodeNode>, printer: Profile, budget?: OutputBudget) {
  const ctx = lowerContext(printer, budget ? { budget } : {});
  lowerQr({ type: 'qrcode', data: 'https://example.com/r/123', dataStart: 8, start: 0, end: 43, ...node }, ctx);
  return { ops: ctx.out, diagnostics: ctx.diagnostics };
}

describe('<qrcode size ecc>', () => {
  it('without them: the op has neither, as before', () => {
    // Strictly: no size or ecc key at all, not one that is undefined.
    expect(lower({}, loadProfile('MAKER4I9')).ops).toStrictEqual([{ op: 'qr', data: 'https://example.com/r/123', start: 0, end: 43 }]);
    expect(lower({ size: 4 }, loadProfile('MAKER4I9')).ops).toStrictEqual([{ op: 'qr', data: 'https://example.com/r/123', size: 4, start: 0, end: 43 }]);
    expect(lower({ ecc: 'Q' }, loadProfile('MAKER4I9')).ops).toStrictEqual([{ op: 'qr', data: 'https://example.com/r/123', ecc: 'Q', start: 0, end: 43 }]);
  });

  it('native GS ( k takes the size and the error correction of the tag (Epson: 31 43 n, 31 45 30+e)', () => {
    const i9 = loadProfile('MAKER4I9');
    const { ops } = lower({ size: 8, ecc: 'H' }, i9);
    expect(ops[0]).toMatchObject({ size: 8, ecc: 'H' });
    const bytes = hex(emit(ops, i9, { prologue: false }).bytes);
    expect(bytes).toContain('1D 28 6B 03 00 31 43 08');
    expect(bytes).toContain('1D 28 6B 03 00 31 45 33');
  });

  it("native GS ( k takes either alone, and the profile's value for the other", () => {
    const i9 = loadProfile('MAKER4I9');
    const bytes = (node: Partial<QrCodeNode>) => hex(emit(lower(node, i9).ops, i9, { prologue: false }).bytes);
    const { moduleSize, ecc } = i9.qr;
    const sizeOf = (n: number) => `1D 28 6B 03 00 31 43 0${n}`;
    const eccOf = (e: string) => `1D 28 6B 03 00 31 45 3${'LMQH'.indexOf(e)}`;
    expect(moduleSize).not.toBe(8);
    expect(ecc).not.toBe('H');
    expect(bytes({ size: 8 })).toContain(`${sizeOf(8)} ${eccOf(ecc)}`);
    expect(bytes({ ecc: 'H' })).toContain(`${sizeOf(moduleSize)} ${eccOf('H')}`);
  });

  it("a native size outside the command's range is clamped into it (Daruma ESC 0x81: 3..7), and says so", () => {
    const dr800 = loadProfile({ extends: 'MAKER3DR800', qr: { command: 'daruma-esc-81' } });
    const { ops, diagnostics } = lower({ size: 12, ecc: 'Q' }, dr800);
    expect(hex(emit(ops, dr800, { prologue: false }).bytes.subarray(0, 6))).toBe('1B 81 1B 00 07 51');
    expect(diagnostics.map((d) => [d.code, d.message, d.start, d.end])).toEqual([
      ['lower/qr-option-changed', "Daruma DR800's QR command (daruma-esc-81) takes module sizes 3–7: printed at 7 dots, not 12", 0, 43],
    ]);
    expect(lower({ size: 5 }, dr800).diagnostics).toEqual([]);
  });

  it('a native command that has no such option sends what it has instead, and says so (Daruma: no ECC L; Bematech GS k Q: no size)', () => {
    const dr800 = loadProfile({ extends: 'MAKER3DR800', qr: { command: 'daruma-esc-81' } });
    const daruma = lower({ ecc: 'L', size: 4 }, dr800);
    expect(daruma.diagnostics.map((d) => d.message)).toEqual(["Daruma DR800's QR command (daruma-esc-81) has no error correction L: printed at M"]);
    expect(hex(emit(daruma.ops, dr800, { prologue: false }).bytes.subarray(0, 6))).toBe('1B 81 1B 00 04 4D');
    const mp4200 = loadProfile({ extends: 'MAKER1MP4200', qr: { command: 'bematech-gs-k-q' } });
    expect(lower({ size: 4, ecc: 'L' }, mp4200).diagnostics.map((d) => d.message)).toEqual([
      "Bematech MP-4200 TH's QR command (bematech-gs-k-q) takes no module size (its profile's qr.params set it): size=\"4\" is not used",
    ]);
    // The Epson command takes both: nothing to say.
    expect(lower({ size: 16, ecc: 'L' }, loadProfile('MAKER4I9')).diagnostics).toEqual([]);
  });

  it('raster: dots per module and the symbol follow the tag', () => {
    const t20 = loadProfile('MAKER5T20');
    const image = (node: Partial<QrCodeNode>) => (lower(node, t20).ops[0] as Extract<Op, { op: 'image' }>).bitmap.width;
    expect(image({})).toBe((25 + 8) * 6); // version 2 (25 modules) at ECC M, 6 dots: the profile's
    expect(image({ size: 3 })).toBe((25 + 8) * 3);
    expect(image({ ecc: 'H' })).toBe((33 + 8) * 6); // version 4 at ECC H
    expect(lower({ size: 16, ecc: 'L' }, t20).diagnostics[0]!.message).toMatch(/25×25 modules, 16 dots each/);
  });

  it("raster: the symbol spends from the job's output budget the bytes of its image, quiet zone included: a bit per dot", () => {
    const t20 = loadProfile('MAKER5T20');
    const bytes = Math.ceil(((25 + 8) * 6) ** 2 / 8); // 198 × 198 dots
    expect((lower({}, t20).ops[0] as Extract<Op, { op: 'image' }>).bitmap).toMatchObject({ width: 198, height: 198 });
    // Spent to 0 by exactly those bytes: the next element still goes on. One byte less is past the limit.
    const exact = new OutputBudget(bytes);
    lower({}, t20, exact);
    expect(() => exact.check(1, 2)).not.toThrow();
    const under = new OutputBudget(bytes - 1);
    lower({}, t20, under);
    expect(() => under.check(1, 2)).toThrow(OutputLimitReached);
  });

  it('a payload printed as text is not marked Latin-1 when it is not, and prints through the code page', () => {
    // '─' (U+2500) is byte C4 of the TM-T20's CP850; marked Latin-1, its low byte (00) would be written.
    const asText = loadProfile({ extends: 'MAKER5T20', qr: { command: 'text' } });
    expect(lower({ data: 'a─b' }, asText).ops).toEqual([{ op: 'text', text: 'a─b\n', start: 0, end: 43 }]);
    expect(hex(emit(lower({ data: 'a─b' }, asText).ops as Op[], asText, { prologue: false }).bytes)).toBe('61 C4 62 0A');
    expect(lower({ data: 'ação ✓' }, loadProfile('GENERICA')).ops).toEqual([{ op: 'text', text: 'ação ✓\n', start: 0, end: 43 }]);
  });

  it('the capacity checked is that of the ecc asked for', () => {
    const i9 = loadProfile('MAKER4I9');
    const data = 'x'.repeat(1300);
    expect(lower({ data }, i9).diagnostics).toEqual([]);
    expect(lower({ data, ecc: 'H' }, i9).diagnostics.map((d) => d.message)).toEqual(['QR payload of 1300 bytes is more than a QR code holds at error correction H (1273 bytes)']);
    // As a raster, the level asked is the level drawn: the message names it alone.
    expect(lower({ data, ecc: 'H' }, loadProfile('MAKER5T20')).diagnostics.map((d) => d.message)).toEqual(['QR payload of 1300 bytes is more than a QR code holds at error correction H (1273 bytes)']);
  });

  it("the capacity checked is that of the level the command sends: Daruma's ESC 0x81 sends M for L", () => {
    const dr800 = loadProfile({ extends: 'MAKER3DR800', qr: { command: 'daruma-esc-81' } });
    // 2331 bytes is what version 40 holds at M: sent as M (ESC 0x81, nL nH = 2331 + 2, size 6, ECC "M"), with the warning that L is not.
    const fits = lower({ data: 'a'.repeat(2331), ecc: 'L' }, dr800);
    expect(fits.ops).toMatchObject([{ op: 'qr', ecc: 'L' }]);
    expect(hex(emit(fits.ops, dr800, { prologue: false }).bytes)).toMatch(/^1B 81 1D 09 06 4D 61 /);
    expect(fits.diagnostics.map((d) => d.code)).toEqual(['lower/qr-option-changed']);
    // One more byte would fit at L, which is not sent: refused, naming the level sent.
    const over = lower({ data: 'a'.repeat(2332), ecc: 'L' }, dr800);
    expect(over.ops).toEqual([]);
    expect(over.diagnostics.map((d) => [d.code, d.message, d.start, d.end])).toEqual([
      ['lower/qr-too-long', "QR payload of 2332 bytes is more than a QR code holds at error correction M, the level Daruma DR800's QR command sends for L (2331 bytes)", 0, 43],
    ]);
    // The level asked for when the command has it: H holds 1273 bytes, on Daruma's command too.
    expect(lower({ data: 'a'.repeat(1274), ecc: 'H' }, dr800).diagnostics.map((d) => d.message)).toEqual(['QR payload of 1274 bytes is more than a QR code holds at error correction H (1273 bytes)']);
  });
});
