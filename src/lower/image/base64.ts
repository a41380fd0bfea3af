// Base64 (RFC 4648, with or without padding; whitespace ignored) → bytes, without atob or Buffer:
// the core runs where neither exists (a bare V8 context).
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/** The bytes, or undefined when the text is not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  const clean = text.replace(/[\t\n\f\r ]+/g, '').replace(/={1,2}$/, '');
  if (clean.length % 4 === 1) return undefined;
  const out = new Uint8Array((clean.length * 3) >> 2);
  let bits = 0;
  let acc = 0;
  let k = 0;
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    const v = c < 128 ? VALUES[c]! : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[k++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
