// A native barcode command redrawn as the printer would print it: the data read back from the
// command's bytes and encoded again with bobina's own symbology encoders (CODE128 in the code
// sets the bytes chose, for Epson's {A {B {C form), bars module by module.
import { barsBitmap, ENCODERS, type BarSymbol, type Symbology } from '../lower/barcode/index.js';
import { CODE, code128Symbol, SHIFT, START } from '../lower/barcode/code128.js';
import type { Bitmap } from '../lower/ir.js';

type CodeSet = 'A' | 'B' | 'C';
const BRACE = 0x7b;

/** Epson's CODE128 data ({A {B {C, {S, {{) → symbol values and the text they hold, or undefined if malformed. */
export function code128FromEpson(data: Uint8Array): { values: number[]; text: string } | undefined {
  let set = String.fromCharCode(data[1] ?? 0) as CodeSet;
  if (data[0] !== BRACE || !(set in START)) return undefined;
  const values: number[] = [START[set]];
  let text = '';
  let shifted = false;
  for (let i = 2; i < data.length; i++) {
    const b = data[i]!;
    if (b === BRACE && data[i + 1] !== BRACE) {
      const to = String.fromCharCode(data[++i] ?? 0);
      if (to === 'S' && set !== 'C') {
        values.push(SHIFT);
        shifted = true;
      } else if (to in CODE && to !== set) {
        values.push(CODE[to as CodeSet]);
        set = to as CodeSet;
      } else return undefined;
      continue;
    }
    if (b === BRACE) i++; // {{ is one {
    const reading = shifted ? (set === 'A' ? 'B' : 'A') : set;
    shifted = false;
    if (reading === 'C') {
      if (b > 99) return undefined;
      values.push(b);
      text += String(b).padStart(2, '0');
    } else if (reading === 'A' ? b < 96 : b >= 32 && b < 128) {
      values.push(reading === 'A' && b < 32 ? b + 64 : b - 32);
      text += String.fromCharCode(b);
    } else return undefined;
  }
  return values.length > 1 ? { values, text } : undefined;
}

/** The symbol a native command prints for `data`, or why it cannot be drawn. */
export function nativeSymbol(symbology: Symbology, data: Uint8Array): BarSymbol | string {
  if (symbology === 'code128' && data[0] === BRACE) {
    const read = code128FromEpson(data);
    return read ? code128Symbol(read.values, read.text) : 'CODE128 data with a code-set prefix bobina cannot read';
  }
  const r = ENCODERS[symbology](String.fromCharCode(...data));
  return r.ok ? r.symbol : r.invalid.message;
}

/** The bars, no quiet zone: the printer adds none, the paper around is the quiet zone. */
export function nativeBars(symbol: BarSymbol, module: number, height: number): Bitmap {
  return barsBitmap(symbol, module, height, 0);
}
