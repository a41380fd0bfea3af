// CODE39: digits, capital letters, space and - . $ / + %, between the start/stop character `*`
// (added here, never part of the data). Each character is 9 elements, 3 of them wide, and
// characters are parted by a narrow space. No check character (it is optional in the standard).
import { badCharacter, invalid, widthsOf, type Encoded } from './symbol.js';

const CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%*';
/** Per character of CHARS: its 9 elements, bar first, 1 = wide. */
const PATTERNS = [
  '000110100', '100100001', '001100001', '101100000', '000110001', '100110000', '001110000', '000100101', '100100100', '001100100',
  '100001001', '001001001', '101001000', '000011001', '100011000', '001011000', '000001101', '100001100', '001001100', '000011100',
  '100000011', '001000011', '101000010', '000010011', '100010010', '001010010', '000000111', '100000110', '001000110', '000010110',
  '110000001', '011000001', '111000000', '010010001', '110010000', '011010000', '010000101', '110000100', '011000100', '010101000',
  '010100010', '010001010', '000101010', '010010100',
].map((bits) => bits.replace(/1/g, '2').replace(/0/g, '1'));
const STAR = PATTERNS[CHARS.indexOf('*')]!;
const GAP = '1';

export function encodeCode39(data: string): Encoded {
  if (data.length === 0) return invalid('CODE39 needs at least one character');
  const bad = badCharacter(data, /[0-9A-Z\-. $/+%]/, 'CODE39', 'digits, capital letters, space and - . $ / + %');
  if (bad) return bad;
  const patterns = [STAR];
  for (const ch of data) patterns.push(GAP, PATTERNS[CHARS.indexOf(ch)]!);
  patterns.push(GAP, STAR);
  return { ok: true, symbol: { text: data, widths: widthsOf(patterns), wide: true, quiet: 10 } };
}
