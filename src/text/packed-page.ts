// How the built-in code pages are stored (codepages.generated.ts, written by scripts/codepages.ts):
// the 128 characters of bytes 0x80–0xFF (the low half is ASCII in every page built in), each as its
// distance from the one before, in one printable ASCII character where that distance is small
// (`P` is +0, `Q` +1, …), and as `~` and four hex digits where it is not. A page's long runs of
// consecutive characters (cp1252's Latin-1 half, cp866's Cyrillic) become runs of one letter, and
// no character needs a `\uXXXX` escape in a bundle: the eight pages are ~0.5 KB smaller gzipped
// than as plain strings. Unpacked once per page, when a profile first uses it.

/** The character a distance of 0 is written as. */
const ZERO = 80;
/** The escape before an absolute code unit (four hex digits). */
const ABSOLUTE = '~';

/** A distance writable as one character: printable ASCII below the escape `~`, but not `"` or `\`. */
function writable(code: number): boolean {
  return code >= 0x20 && code < 0x7e && code !== 0x22 && code !== 0x5c;
}

/** The high half of a page (128 code units), packed. */
export function packHigh(high: string): string {
  let prev = 0x7f;
  let out = '';
  for (let i = 0; i < high.length; i++) {
    const c = high.charCodeAt(i);
    const code = ZERO + c - prev;
    out += writable(code) ? String.fromCharCode(code) : ABSOLUTE + c.toString(16).padStart(4, '0');
    prev = c;
  }
  return out;
}

/** The 256 characters of a page from its packed high half. */
export function unpackPage(packed: string): string {
  let prev = 0x7f;
  const codes: number[] = [];
  for (let i = 0; i < 128; i++) codes.push(i);
  for (let i = 0; i < packed.length; i++) {
    if (packed[i] === ABSOLUTE) {
      prev = parseInt(packed.slice(i + 1, i + 5), 16);
      i += 4;
    } else {
      prev += packed.charCodeAt(i) - ZERO;
    }
    codes.push(prev);
  }
  return String.fromCharCode(...codes);
}
