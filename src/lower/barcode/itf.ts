// ITF (interleaved 2 of 5): an even number of digits, taken in pairs, the first of each pair in
// the bars and the second in the spaces; narrow start (4 elements) and wide-narrow-narrow stop.
import { badCharacter, invalid, type Encoded } from './symbol.js';

/** Per digit: its 5 elements, 1 = narrow, 2 = wide (two of them wide). */
const DIGITS = ['11221', '21112', '12112', '22111', '11212', '21211', '12211', '11122', '21121', '12121'];

export function encodeItf(data: string): Encoded {
  const bad = badCharacter(data, /[0-9]/, 'ITF', 'digits only');
  if (bad) return bad;
  if (data.length === 0 || data.length % 2 !== 0) return invalid(`ITF takes an even number of digits (at least 2); this is ${data.length}`);
  const widths = new Uint8Array(4 + data.length * 5 + 3);
  widths.set([1, 1, 1, 1]);
  let k = 4;
  for (let i = 0; i < data.length; i += 2) {
    const bars = DIGITS[data.charCodeAt(i) - 48]!;
    const spaces = DIGITS[data.charCodeAt(i + 1) - 48]!;
    for (let e = 0; e < 5; e++) {
      widths[k++] = bars.charCodeAt(e) - 48;
      widths[k++] = spaces.charCodeAt(e) - 48;
    }
  }
  widths.set([2, 1, 1], k);
  return { ok: true, symbol: { text: data, widths, wide: true, quiet: 10 } };
}
