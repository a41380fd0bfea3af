// Hex strings from profile data ("10 04 01") to bytes and back, for status queries and replies.

/** "10 04 01" → Uint8Array [0x10, 0x04, 0x01]. The schema has already checked the form. */
export function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.split(' ').filter(Boolean), (word) => parseInt(word, 16));
}

/** Uint8Array → "10 04 01", for messages and logs. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
}

/** Whether `haystack` has `needle` at `at`. */
export function bytesAt(haystack: Uint8Array, needle: Uint8Array, at = 0): boolean {
  if (at < 0 || at + needle.length > haystack.length) return false;
  for (let i = 0; i < needle.length; i++) if (haystack[at + i] !== needle[i]) return false;
  return true;
}

/** The first offset ≥ `from` where `needle` starts in `haystack`, or -1. */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  if (needle.length === 0) return Math.min(from, haystack.length);
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength), from);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
