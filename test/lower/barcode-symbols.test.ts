// The symbology encoders against their standards, element by element: the data each takes at the
// edges of its rules (and the message and place of what it refuses), the bars of short symbols,
// and CODE128's code sets checked by a decoder and a shortest-encoding count written here, apart
// from the encoder.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barsBitmap, barsWidth, ENCODERS, type Encoded, type Symbology } from '../../src/lower/barcode/index.js';
import { checkValue, code128Values, PATTERNS } from '../../src/lower/barcode/code128.js';

const problem = (r: Encoded) => (r.ok ? undefined : r.invalid);

function widths(s: Symbology, data: string): string {
  const r = ENCODERS[s](data);
  if (!r.ok) throw new Error(`${s} ${JSON.stringify(data)}: ${r.invalid.message}`);
  return r.symbol.widths.join('');
}

/** CODE128 symbol values (start code on, no check or stop) read as ISO/IEC 15417 says. */
function decode128(values: readonly number[]): string {
  let set = ({ 103: 'A', 104: 'B', 105: 'C' } as Record<number, 'A' | 'B' | 'C'>)[values[0]!];
  if (!set) throw new Error(`no start code: ${values[0]}`);
  let text = '';
  let shift = false;
  for (const v of values.slice(1)) {
    const reading: 'A' | 'B' | 'C' = shift ? (set === 'A' ? 'B' : 'A') : set;
    shift = false;
    if (reading === 'C') {
      if (v < 100) text += String(v).padStart(2, '0');
      else if (v === 100) set = 'B';
      else if (v === 101) set = 'A';
      else throw new Error(`value ${v} in set C`);
    } else if (v === 98 && !shift && reading === set) shift = true;
    else if (v === 99) set = 'C';
    else if (v === 100 && set === 'A') set = 'B';
    else if (v === 101 && set === 'B') set = 'A';
    else if (v < 96) text += String.fromCharCode(reading === 'B' || v < 64 ? v + 32 : v - 64);
    else throw new Error(`value ${v} in set ${reading}`);
  }
  return text;
}

/** The fewest symbol characters (start included) any CODE128 encoding of printable data takes. */
function fewest128(data: string): number {
  const n = data.length;
  const cost = Array.from({ length: n + 1 }, () => ({ A: Infinity, B: Infinity, C: Infinity }));
  cost[0] = { A: 1, B: 1, C: 1 };
  const digit = (i: number) => i < n && data[i]! >= '0' && data[i]! <= '9';
  for (let i = 0; i <= n; i++) {
    const c = cost[i]!;
    for (let k = 0; k < 2; k++) for (const s of ['A', 'B', 'C'] as const) for (const t of ['A', 'B', 'C'] as const) c[t] = Math.min(c[t], c[s] + 1);
    if (i === n) break;
    const code = data.charCodeAt(i);
    const next = cost[i + 1]!;
    for (const s of ['A', 'B'] as const) {
      const here = s === 'A' ? code < 96 : code >= 32;
      next[s] = Math.min(next[s], c[s] + (here ? 1 : 2));
    }
    if (digit(i) && digit(i + 1)) cost[i + 2]!.C = Math.min(cost[i + 2]!.C, c.C + 1);
  }
  return Math.min(cost[n]!.A, cost[n]!.B, cost[n]!.C);
}

describe('CODE128 code sets', { timeout: 60_000 }, () => {
  // Runs of digits of every length next to upper and lower case, punctuation and spaces.
  const piece = fc.oneof(fc.stringMatching(/^[0-9]{1,9}$/), fc.stringMatching(/^[A-Z_`]{1,3}$/), fc.stringMatching(/^[a-z{~]{1,3}$/), fc.stringMatching(/^[ -~]{1,3}$/));
  const data = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(''));

  it('the values read back as exactly the data, in as few symbol characters as any encoding takes', () => {
    fc.assert(
      fc.property(data, (d) => {
        const values = code128Values(d);
        expect(decode128(values)).toBe(d);
        expect(values.length).toBe(fewest128(d));
      }),
      { numRuns: 300 },
    );
  });

  it('takes digit pairs in set C wherever a run of them is long enough to pay for the switch, and breaks ties for set B', () => {
    expect(code128Values('1234')).toEqual([105, 12, 34]);
    expect(code128Values('a1234')).toEqual([104, 65, 99, 12, 34]);
    expect(code128Values('a123')).toEqual([104, 65, 17, 18, 19]);
    expect(code128Values('123456a')).toEqual([105, 12, 34, 56, 100, 65]);
    expect(code128Values('12345a')).toEqual([105, 12, 34, 100, 21, 65]);
    // Eight symbol characters either way (set B alone, or a switch to C and back): set B.
    expect(code128Values('a12345b')).toEqual([104, 65, 17, 18, 19, 20, 21, 66]);
    expect(code128Values('12a')).toEqual([104, 17, 18, 65]);
    // After set C, capitals could go on in set A or B: set B.
    expect(code128Values('1234AB')).toEqual([105, 12, 34, 100, 33, 34]);
    // A digit with none after it (the last character) is never set C; no data is the start code alone.
    expect(code128Values('1')).toEqual([104, 17]);
    expect(code128Values('123')).toEqual([104, 17, 18, 19]);
    expect(code128Values('')).toEqual([104]);
  });
});

describe('CODE128 check value and stop', () => {
  it('weighs each value by its position, the start code by 1, modulo 103', () => {
    const values = code128Values('PJJ123C');
    expect(values).toEqual([104, 48, 42, 42, 17, 18, 19, 35]);
    // 104 + 48·1 + 42·2 + 42·3 + 17·4 + 18·5 + 19·6 + 35·7 = 879 = 8·103 + 55
    expect(checkValue(values)).toBe(55);
    expect(widths('code128', 'PJJ123C')).toBe([...values, 55, 106].map((v) => PATTERNS[v]).join(''));
    expect(checkValue([105, 99, 99, 99])).toBe((105 + 99 * 6) % 103);
  });
});

describe('CODABAR', () => {
  it('takes a start letter, one character or more, and a stop letter', () => {
    expect(widths('codabar', 'A1B')).toBe(['1122121', '1', '1111221', '1', '1212112'].join(''));
    expect(widths('codabar', 'D$C')).toBe(['1112221', '1', '1122111', '1', '1112122'].join(''));
    const rule = 'CODABAR data starts and ends with a start/stop letter A–D, with at least one character between (as in A40156B)';
    for (const data of ['AB', 'A', '', '1A2B', 'A12', '123']) expect(problem(ENCODERS.codabar(data)), data).toEqual({ message: rule });
  });

  it('refuses a start/stop letter inside the data, at that letter', () => {
    const inside = 'CODABAR takes the letters A–D only as its first and last character';
    expect(problem(ENCODERS.codabar('AB1B'))).toEqual({ message: inside, at: 1, length: 1 });
    expect(problem(ENCODERS.codabar('A1D2B'))).toEqual({ message: inside, at: 2, length: 1 });
    expect(problem(ENCODERS.codabar('A12CB'))).toEqual({ message: inside, at: 3, length: 1 });
  });

  it('draws a wide element 2.5 narrow ones wide: the bars of A1B at 2 dots per narrow element', () => {
    const r = ENCODERS.codabar('A1B');
    if (!r.ok) throw new Error(r.invalid.message);
    // 23 elements: 8 wide (5 dots each) and 15 narrow (2 dots each).
    expect(barsWidth(r.symbol, 2)).toBe(8 * 5 + 15 * 2);
    const b = barsBitmap(r.symbol, 2, 1, 0);
    const row = Array.from({ length: b.width }, (_, x) => ((b.bits[x >> 3]! >> (7 - (x & 7))) & 1 ? '#' : '.')).join('');
    // A = bar space wide-bar wide-space bar wide-space bar: 1122121.
    expect(row.slice(0, 23)).toBe('##..#####.....##.....##');
  });
});

describe('bars as a bitmap', () => {
  it('has the symbology\'s quiet zone each side by default, and every row the same', () => {
    const r = ENCODERS.ean8('9638507');
    if (!r.ok) throw new Error(r.invalid.message);
    // 67 modules of bars and 11 of quiet zone each side, at 2 dots per module: 22 + 134 + 22.
    const b = barsBitmap(r.symbol, 2, 3);
    expect([b.width, b.height, b.bytesPerRow, b.bits.length]).toEqual([178, 3, 23, 69]);
    const row = (y: number) => Array.from({ length: b.width }, (_, x) => (b.bits[y * b.bytesPerRow + (x >> 3)]! >> (7 - (x & 7))) & 1).join('');
    expect(row(0).indexOf('1')).toBe(22);
    expect(row(0).lastIndexOf('1')).toBe(155);
    // The guard bars: bar, space, bar of one module each.
    expect(row(0).slice(22, 28)).toBe('110011');
    expect(row(1)).toBe(row(0));
    expect(row(2)).toBe(row(0));
  });
});

describe('CODE39 and ITF', () => {
  it('CODE39 puts the data between start/stop stars, each character parted by a narrow space', () => {
    const star = '121121211';
    expect(widths('code39', 'A')).toBe([star, '1', '211112112', '1', star].join(''));
    expect(widths('code39', '-. $/+%')).toBe([star, '121111212', '221111211', '122111211', '121212111', '121211121', '121112121', '111212121', star].join('1'));
  });

  it('ITF interleaves each pair, bars from the first digit and spaces from the second, between its start and stop', () => {
    // 1 = 21112, 2 = 12112: bars 2 1 1 1 2, spaces 1 2 1 1 2.
    expect(widths('itf', '12')).toBe('1111' + '2112111122' + '211');
    expect(widths('itf', '0000')).toBe('1111' + '1111222211' + '1111222211' + '211');
  });
});

describe('what each symbology refuses, named and placed', () => {
  it('names a control character by its code point and anything else as itself', () => {
    expect(problem(ENCODERS.code128('a\u007fb'))).toEqual({ message: 'CODE128 cannot hold U+007F: it takes printable ASCII (space to ~)', at: 1, length: 1 });
    expect(problem(ENCODERS.code128('\u001f'))).toEqual({ message: 'CODE128 cannot hold U+001F: it takes printable ASCII (space to ~)', at: 0, length: 1 });
    expect(problem(ENCODERS.ean8('12 4567'))).toEqual({ message: 'EAN-8 cannot hold " ": it takes digits only', at: 2, length: 1 });
    expect(problem(ENCODERS.ean8('123~567'))).toEqual({ message: 'EAN-8 cannot hold "~": it takes digits only', at: 3, length: 1 });
    expect(problem(ENCODERS.itf('1\u0080'))).toEqual({ message: 'ITF cannot hold "\u0080": it takes digits only', at: 1, length: 1 });
  });

  it('spans a character outside the BMP whole (two UTF-16 units), one up to U+FFFF', () => {
    expect(problem(ENCODERS.code39('A😀'))).toEqual({ message: 'CODE39 cannot hold "😀": it takes digits, capital letters, space and - . $ / + %', at: 1, length: 2 });
    expect(problem(ENCODERS.code39('A\uffff'))).toEqual({ message: 'CODE39 cannot hold "\uffff": it takes digits, capital letters, space and - . $ / + %', at: 1, length: 1 });
  });

  it('a rule about the whole data has no place', () => {
    expect(problem(ENCODERS.code128(''))).toEqual({ message: 'CODE128 needs at least one character' });
    expect(problem(ENCODERS.itf('123'))).toEqual({ message: 'ITF takes an even number of digits (at least 2); this is 3' });
    expect(problem(ENCODERS.upca('1234567890'))).toEqual({ message: 'UPC-A takes 11 digits, or 12 with the check digit; this is 10' });
  });
});
