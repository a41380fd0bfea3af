// A command's bytes as a short mnemonic (`GS V 66 0`). The compile listing itself is the
// disassembler's (inspect/listing.ts), so compile listings and `bobina disasm` name commands alike.

const NAMES: Record<number, string> = { 0x1b: 'ESC', 0x1d: 'GS', 0x10: 'DLE', 0x1c: 'FS', 0x0a: 'LF', 0x12: 'DC2', 0x0f: 'SI' };
const HEAD_BYTES = 12;

/** `1D 56 42 00` → `GS V 66 0`, `1D 28 6B …` → `GS ( k …`: the command's letters as letters, arguments in decimal. */
export function mnemonic(chunk: Uint8Array): string {
  const words: string[] = [];
  const n = Math.min(chunk.length, HEAD_BYTES);
  for (let i = 0; i < n; i++) {
    const b = chunk[i]!;
    const name = NAMES[b];
    if (i === 0 && name) words.push(name);
    else if ((i === 1 || (i === 2 && chunk[1] === 0x28)) && b >= 0x21 && b < 0x7f) words.push(String.fromCharCode(b)); // GS ( k: function families
    else if (i === 0) words.push(`0x${b.toString(16).toUpperCase().padStart(2, '0')}`);
    else words.push(String(b));
  }
  if (chunk.length > n) words.push('…');
  return words.join(' ');
}
