// The symbology encoders: what data each takes (and why not, where), check digits, the CODE128
// code-set choice, and bars that a real decoder (zbarimg) reads back as exactly the data.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barsBitmap, barsWidth, ENCODERS, SYMBOLOGIES, type Encoded, type Symbology } from '../../src/lower/barcode/index.js';
import { checkValue, code128Values, PATTERNS } from '../../src/lower/barcode/code128.js';
import { checkDigit } from '../../src/lower/barcode/ean-upc.js';
import { bitmapPng, haveZbar, zbarDecode, zbarReads } from '../support/zbar.js';

function symbol(s: Symbology, data: string) {
  const r = ENCODERS[s](data);
  if (!r.ok) throw new Error(`${s} ${JSON.stringify(data)}: ${r.invalid.message}`);
  return r.symbol;
}

const problem = (r: Encoded) => (r.ok ? undefined : r.invalid);

/** Data each symbology takes, by generator (the text a scanner reads is computed separately). */
const DATA: Record<Symbology, fc.Arbitrary<string>> = {
  ean13: fc.stringMatching(/^[0-9]{12}$/),
  ean8: fc.stringMatching(/^[0-9]{7}$/),
  upca: fc.stringMatching(/^[0-9]{11}$/),
  code39: fc.stringMatching(/^[0-9A-Z\-. $/+%]{1,12}$/),
  code128: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 24 }),
  itf: fc.stringMatching(/^(?:[0-9]{2}){1,8}$/),
  codabar: fc.tuple(fc.constantFrom('A', 'B', 'C', 'D'), fc.stringMatching(/^[0-9\-$:/.+]{1,10}$/), fc.constantFrom('A', 'B', 'C', 'D')).map(([a, b, c]) => a + b + c),
};

// fast-check runs and zbarimg processes are CPU-bound: timeouts that hold on a loaded 2-core machine.
describe('data each symbology takes', { timeout: 60_000 }, () => {
  it('EAN-13, EAN-8 and UPC-A compute the check digit, or check the one given', () => {
    expect(checkDigit('789100031550')).toBe(7);
    expect(symbol('ean13', '789100031550').text).toBe('7891000315507');
    expect(symbol('ean13', '7891000315507').text).toBe('7891000315507');
    expect(symbol('ean8', '9638507').text).toBe('96385074');
    expect(symbol('upca', '03600029145').text).toBe('036000291452');
    expect(problem(ENCODERS.ean13('7891000315508'))).toEqual({ message: 'wrong EAN-13 check digit 8: for 789100031550 it is 7', at: 12, length: 1 });
    expect(problem(ENCODERS.upca('036000291453'))?.message).toMatch(/wrong UPC-A check digit 3/);
  });

  it('says what is wrong, and where when one character is', () => {
    expect(problem(ENCODERS.ean13('78910003'))?.message).toBe('EAN-13 takes 12 digits, or 13 with the check digit; this is 8');
    expect(problem(ENCODERS.ean8('12a4567'))).toEqual({ message: 'EAN-8 cannot hold "a": it takes digits only', at: 2, length: 1 });
    expect(problem(ENCODERS.code39('abc'))).toMatchObject({ at: 0, message: expect.stringMatching(/CODE39 cannot hold "a"/) });
    expect(problem(ENCODERS.code39('A*B'))).toMatchObject({ at: 1 });
    expect(problem(ENCODERS.code39(''))?.message).toMatch(/at least one/);
    expect(problem(ENCODERS.code128('Pão'))).toMatchObject({ at: 1, message: expect.stringMatching(/CODE128 cannot hold "ã"/) });
    expect(problem(ENCODERS.code128('a\tb'))).toMatchObject({ at: 1, message: expect.stringMatching(/U\+0009/) });
    expect(problem(ENCODERS.code128('x😀'))).toMatchObject({ at: 1, length: 2 });
    expect(problem(ENCODERS.itf('12345'))?.message).toBe('ITF takes an even number of digits (at least 2); this is 5');
    expect(problem(ENCODERS.itf(''))?.message).toMatch(/even number/);
    expect(problem(ENCODERS.codabar('40156'))?.message).toMatch(/starts and ends with a start\/stop letter/);
    expect(problem(ENCODERS.codabar('A4B56B'))).toMatchObject({ at: 2 });
    expect(problem(ENCODERS.codabar('A4E6B'))).toMatchObject({ at: 2 });
  });

  it('never throws, whatever the data', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SYMBOLOGIES), fc.string({ unit: 'binary', maxLength: 40 }), (s, data) => {
        const r = ENCODERS[s](data);
        if (r.ok) expect(r.symbol.widths.length).toBeGreaterThan(0);
        else if (r.invalid.at !== undefined) expect(r.invalid.at + (r.invalid.length ?? 1)).toBeLessThanOrEqual(data.length);
      }),
    );
  });
});

describe('CODE128 code sets', { timeout: 60_000 }, () => {
  it('has 107 patterns, each of 11 modules but the 13-module stop, all different', () => {
    expect(PATTERNS).toHaveLength(107);
    expect(new Set(PATTERNS).size).toBe(107);
    for (const [v, p] of PATTERNS.entries()) expect([...p].reduce((a, d) => a + Number(d), 0)).toBe(v === 106 ? 13 : 11);
  });

  it('writes a 44-digit access key in set C alone: start C and 22 pairs', () => {
    const key = '35200714200166000187650010000000051000000029';
    const values = code128Values(key);
    expect(values[0]).toBe(105);
    expect(values).toHaveLength(23);
    expect(values.slice(1)).toEqual(key.match(/../g)!.map(Number));
  });

  it('switches to C for a run of digits where that is shorter, and shifts for one character of the other set', () => {
    expect(code128Values('AB123456')).toEqual([104, 33, 34, 99, 12, 34, 56]);
    expect(code128Values('12')).toEqual([105, 12]);
    expect(code128Values('1')).toEqual([104, 17]);
    expect(code128Values('123')).toEqual([104, 17, 18, 19]);
    // Five characters either way: the tie goes to set B first.
    expect(code128Values('12345')).toEqual([104, 17, 99, 23, 45]);
  });

  it('is never longer than writing the data in set B alone, nor than the best single switch to C', () => {
    fc.assert(
      fc.property(DATA.code128, fc.stringMatching(/^[0-9]{0,12}$/), fc.stringMatching(/^[ -~]{0,6}$/), (a, digits, b) => {
        const data = a + digits + b;
        const n = code128Values(data).length;
        expect(n).toBeLessThanOrEqual(1 + data.length);
        expect(checkValue(code128Values(data))).toBeLessThan(103);
      }),
    );
  });
});

describe.skipIf(!haveZbar)('bars read back by zbarimg', { timeout: 120_000 }, () => {
  // From 2 dots per module: one dot (0.125 mm at 203 dpi) is below what scanners read reliably.
  it.each(SYMBOLOGIES)('%s: every kind of data decodes to exactly its text, at 2 and 3 dots per module', (s) => {
    fc.assert(
      fc.property(DATA[s], fc.integer({ min: 2, max: 3 }), (data, module) => {
        const sym = symbol(s, data);
        expect(zbarDecode(bitmapPng(barsBitmap(sym, module, 40)))).toEqual([zbarReads(s, sym.text)]);
      }),
      { numRuns: 12 },
    );
  });

  it('the access key in set C fits 576 dots at 2 dots per module', () => {
    const sym = symbol('code128', '35200714200166000187650010000000051000000029');
    expect(barsWidth(sym, 2)).toBe(554);
    expect(zbarDecode(bitmapPng(barsBitmap(sym, 2, 60)))).toEqual(['CODE-128:35200714200166000187650010000000051000000029']);
  });

  it('a symbol drawn wrong does not decode (the decoder is a real check)', () => {
    const sym = symbol('ean13', '789100031550');
    sym.widths[5] = 4; // one digit code made 13 modules wide
    expect(zbarDecode(bitmapPng(barsBitmap(sym, 2, 40)))).not.toContain('EAN-13:7891000315507');
  });
});
