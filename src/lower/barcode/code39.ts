// CODE39: digits, capital letters, space and - . $ / + %, between the start/stop character `*`
// (added here, never part of the data). Each character is 9 elements, 3 of them wide, and
// characters are parted by a narrow space. No check character (it is optional in the standard).
import { badCharacter, invalid, widthsOf, type Encoded } from './symbol.js';

const CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%*';
/** Per character of CHARS: its 9 elements, bar first, 1 narrow and 2 wide. */
const PATTERNS = [
  '111221211', '211211112', '112211112', '212211111', '111221112', '211221111', '112221111', '111211212', '211211211', '112211211',
  '211112112', '112112112', '212112111', '111122112', '211122111', '112122111', '111112212', '211112211', '112112211', '111122211',
  '211111122', '112111122', '212111121', '111121122', '211121121', '112121121', '111111222', '211111221', '112111221', '111121221',
  '221111112', '122111112', '222111111', '121121112', '221121111', '122121111', '121111212', '221111211', '122111211', '121212111',
  '121211121', '121112121', '111212121', '121121211',
];
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
