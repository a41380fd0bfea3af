// EAN-13, EAN-8 and UPC-A: digits only, taken with or without the check digit (computed, or
// checked when given), drawn as guard bars and 7-module digit codes (sets L, G and R).
import { badCharacter, invalid, widthsOf, type Encoded } from './symbol.js';

/** Set L digit codes, space first; set R has the same widths bar first, set G the reverse. */
const L = ['3211', '2221', '2122', '1411', '1132', '1231', '1114', '1312', '1213', '3112'];
const G = L.map((p) => [...p].reverse().join(''));
/** EAN-13: the first digit is not drawn, but chooses which of the left six use set G. */
const PARITY = ['LLLLLL', 'LLGLGG', 'LLGGLG', 'LLGGGL', 'LGLLGG', 'LGGLLG', 'LGGGLL', 'LGLGLG', 'LGLGGL', 'LGGLGL'];
const GUARD = '111';
const MIDDLE = '11111';

/** The GS1 check digit of `digits` (the data without it): weights 3, 1, 3… from the right. */
export function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += (digits.charCodeAt(i) - 48) * w;
  return (10 - (sum % 10)) % 10;
}

const NAMES = { 13: 'EAN-13', 8: 'EAN-8', 12: 'UPC-A' } as const;

/** `length` digits with the check digit: 13 (EAN-13), 8 (EAN-8) or 12 (UPC-A). */
function complete(data: string, length: 13 | 8 | 12): string | Encoded {
  const name = NAMES[length];
  const bad = badCharacter(data, /[0-9]/, name, 'digits only');
  if (bad) return bad;
  if (data.length === length - 1) return data + checkDigit(data);
  if (data.length !== length) return invalid(`${name} takes ${length - 1} digits, or ${length} with the check digit; this is ${data.length}`);
  const want = checkDigit(data.slice(0, -1));
  if (data.charCodeAt(length - 1) - 48 !== want) return invalid(`wrong ${name} check digit ${data[length - 1]}: for ${data.slice(0, -1)} it is ${want}`, length - 1);
  return data;
}

function ean(full: string, text: string): Encoded {
  const parity = full.length === 13 ? PARITY[full.charCodeAt(0) - 48]! : 'LLLL';
  const left = full.length === 13 ? full.slice(1, 7) : full.slice(0, 4);
  const right = full.slice(full.length === 13 ? 7 : 4);
  const patterns = [GUARD];
  for (let i = 0; i < left.length; i++) patterns.push((parity[i] === 'G' ? G : L)[left.charCodeAt(i) - 48]!);
  patterns.push(MIDDLE);
  for (let i = 0; i < right.length; i++) patterns.push(L[right.charCodeAt(i) - 48]!);
  patterns.push(GUARD);
  return { ok: true, symbol: { text, widths: widthsOf(patterns), wide: false, quiet: 11 } };
}

export function encodeEan13(data: string): Encoded {
  const full = complete(data, 13);
  return typeof full === 'string' ? ean(full, full) : full;
}

export function encodeEan8(data: string): Encoded {
  const full = complete(data, 8);
  return typeof full === 'string' ? ean(full, full) : full;
}

/** UPC-A is EAN-13 with a leading 0 (all of set L on the left); its text is the 12 digits. */
export function encodeUpcA(data: string): Encoded {
  const full = complete(data, 12);
  return typeof full === 'string' ? ean('0' + full, full) : full;
}
