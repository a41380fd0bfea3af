// Bytes as text, for comparing with the hex a test writes out: one helper for every test.

/** Lower-case hex, no separators ("1b401b7402"): how most tests write expected bytes. */
export function hex(bytes: ArrayLike<number>): string {
  return Buffer.from(Uint8Array.from(bytes)).toString('hex');
}

/** Upper-case hex bytes with a space between them ("1B 40 1B 74 02"): how docs/printers.md writes commands. */
export function hexSpaced(bytes: ArrayLike<number>): string {
  return Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
}
