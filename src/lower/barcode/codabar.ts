// CODABAR: a start character A–D, digits and - $ : / . +, and a stop character A–D; the data is
// written with its start and stop (as printers and scanners show it). Each character is 7
// elements; characters are parted by a narrow space.
import { badCharacter, invalid, widthsOf, type Encoded } from './symbol.js';

const CHARS = '0123456789-$:/.+ABCD';
/** Per character of CHARS: its 7 elements, bar first, 1 narrow and 2 wide. */
const PATTERNS = [
  '1111122', '1111221', '1112112', '2211111', '1121121', '2111121', '1211112', '1211211', '1221111', '2112111',
  '1112211', '1122111', '2111212', '2121112', '2121211', '1121212', '1122121', '1212112', '1112122', '1112221',
];

export function encodeCodabar(data: string): Encoded {
  const bad = badCharacter(data, /[0-9\-$:/.+A-D]/, 'CODABAR', 'digits, - $ : / . + and the start/stop letters A–D');
  if (bad) return bad;
  if (data.length < 3 || !/^[A-D]/.test(data) || !/[A-D]$/.test(data)) {
    return invalid('CODABAR data starts and ends with a start/stop letter A–D, with at least one character between (as in A40156B)');
  }
  const inner = data.slice(1, -1).search(/[A-D]/);
  if (inner >= 0) return invalid('CODABAR takes the letters A–D only as its first and last character', inner + 1);
  const patterns: string[] = [];
  for (let i = 0; i < data.length; i++) {
    if (i > 0) patterns.push('1');
    patterns.push(PATTERNS[CHARS.indexOf(data[i]!)]!);
  }
  return { ok: true, symbol: { text: data, widths: widthsOf(patterns), wide: true, quiet: 10 } };
}
