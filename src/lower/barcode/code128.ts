// CODE128: printable ASCII, in the code sets that make the shortest symbol (a run of digits in set
// C, two digits per symbol character, so a 44-digit access key is one run of set C), then the
// check value (modulo 103) and the stop pattern.
import { badCharacter, invalid, widthsOf, type BarSymbol, type Encoded } from './symbol.js';

/** Symbol values 0–106 (106 is the stop, 7 elements); every other pattern is 6 elements, 11 modules. */
export const PATTERNS = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232', '2331112',
];

export const START = { A: 103, B: 104, C: 105 } as const;
export const SHIFT = 98;
/** The code-set switch values, by the set switched to. */
export const CODE = { A: 101, B: 100, C: 99 } as const;
const STOP = 106;

/**
 * The sets the encoder writes in. Set A adds control characters, which never get here (only
 * printable ASCII does, all of it in set B), so it is never shorter; it is left to the decoders
 * (emit's barcode-native.ts, inspect's barcode-draw.ts), which read values given by hand.
 */
type CodeSet = 'B' | 'C';
const other = (set: CodeSet): CodeSet => (set === 'B' ? 'C' : 'B');

const isDigit = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};

/**
 * stay[i][set]: the fewest symbol characters for data[i…] when the character at i is written in
 * `set` (no switch first). A switch costs one character.
 */
function plan(data: string): Array<Record<CodeSet, number>> {
  const n = data.length;
  // Entries n, n − 1, …, 0 are each written before they are read (the arrays grow as they are).
  // Stryker disable next-line ArrayDeclaration: a first entry given here is overwritten (entry 0 is always written) before anything reads it
  const stay: Array<Record<CodeSet, number>> = [];
  // Stryker disable next-line ArrayDeclaration: as for stay
  const best: Array<Record<CodeSet, number>> = [];
  stay[n] = best[n] = { B: 0, C: 0 };
  for (let i = n - 1; i >= 0; i--) {
    const s: Record<CodeSet, number> = {
      B: 1 + best[i + 1]!.B,
      // Past the end charCodeAt is NaN, no digit: the last character alone is never set C.
      C: isDigit(data, i) && isDigit(data, i + 1) ? 1 + best[i + 2]!.C : Infinity,
    };
    stay[i] = s;
    best[i] = { B: Math.min(s.B, 1 + s.C), C: Math.min(s.C, 1 + s.B) };
  }
  return stay;
}

/** The symbol values, start code first, without check and stop: the shortest for `data` (ties go to set B). */
export function code128Values(data: string): number[] {
  const stay = plan(data);
  let set: CodeSet = stay[0]!.C < stay[0]!.B ? 'C' : 'B';
  const values: number[] = [START[set]];
  for (let i = 0; i < data.length; ) {
    if (stay[i]![set] > 1 + stay[i]![other(set)]) {
      set = other(set);
      values.push(CODE[set]);
    }
    const c = data.charCodeAt(i);
    if (set === 'C') {
      values.push((c - 48) * 10 + data.charCodeAt(i + 1) - 48);
      i += 2;
    } else {
      values.push(c - 32);
      i++;
    }
  }
  return values;
}

export function checkValue(values: readonly number[]): number {
  let sum = values[0]!;
  for (let i = 1; i < values.length; i++) sum += i * values[i]!;
  return sum % 103;
}

/** The symbol of given values (start code on): the check value and the stop are added. */
export function code128Symbol(values: number[], text: string): BarSymbol {
  const patterns = values.map((v) => PATTERNS[v]!);
  patterns.push(PATTERNS[checkValue(values)]!, PATTERNS[STOP]!);
  return { text, widths: widthsOf(patterns), wide: false, quiet: 10, values };
}

export function encodeCode128(data: string): Encoded {
  if (data.length === 0) return invalid('CODE128 needs at least one character');
  const bad = badCharacter(data, /[\x20-\x7e]/, 'CODE128', 'printable ASCII (space to ~)');
  if (bad) return bad;
  return { ok: true, symbol: code128Symbol(code128Values(data), data) };
}
