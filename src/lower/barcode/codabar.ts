// CODABAR: a start character A–D, digits and - $ : / . +, and a stop character A–D; the data is
// written with its start and stop (as printers and scanners show it). Each character is 7
// elements; characters are parted by a narrow space.
import { badCharacter, invalid, widthsOf, type Encoded } from './symbol.js';

const CHARS = '0123456789-$:/.+ABCD';
/** Per character of CHARS: its 7 elements, bar first, 1 = wide. */
const PATTERNS = [
  '0000011', '0000110', '0001001', '1100000', '0010010', '1000010', '0100001', '0100100', '0110000', '1001000',
  '0001100', '0011000', '1000101', '1010001', '1010100', '0010101', '0011010', '0101001', '0001011', '0001110',
].map((bits) => bits.replace(/1/g, '2').replace(/0/g, '1'));

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
