// UTF-8 byte length of a string without encoding it: QR headers carry the payload's byte count
// before the payload is written. Node's native `Buffer.byteLength` where there is one (found by a
// feature check, not imported: a JS loop costs ~8% of a receipt with a QR code), a count elsewhere.

type ByteLength = (text: string, encoding: 'utf8') => number;
const nodeByteLength = (globalThis as { Buffer?: { byteLength: ByteLength } }).Buffer?.byteLength;

/** Bytes `text` takes as UTF-8; a lone surrogate counts 3, as the U+FFFD that replaces it. */
export function utf8Length(text: string): number {
  // Stryker disable next-line StringLiteral: Buffer.byteLength's default encoding is UTF-8, so an empty name counts the same
  return nodeByteLength ? nodeByteLength(text, 'utf8') : countUtf8(text);
}

/** The same count in plain JavaScript (exported for the test that holds it to Node's). */
export function countUtf8(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    // A high surrogate before a low one adds nothing: the pair's 4 bytes are its 2 code units and
    // the 2 the low one adds. (Past the end, charCodeAt is NaN, which is no low surrogate.)
    else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) continue;
    else n += 2;
  }
  return n;
}
