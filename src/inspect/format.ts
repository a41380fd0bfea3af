// The one listing format: one line per instruction — where it is (a byte offset for a
// disassembly, the source span for a compile listing), hex (long data abbreviated, with a hash so
// the line still pins every byte), mnemonic, name and decoded arguments; text runs quoted as
// decoded in the printer's code page, one line of paper per line of listing.
import type { ArgValue, Instruction } from './types.js';

const HEX_SHOWN = 12;

function hex(bytes: Uint8Array, kind: Instruction['kind']): string {
  const shown = Array.from(bytes.subarray(0, HEX_SHOWN), (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ');
  if (bytes.length <= HEX_SHOWN) return shown;
  // Text is pinned by its quoted form; a long command by a hash of all its bytes.
  return kind === 'text' ? `${shown} … (${bytes.length} bytes)` : `${shown} … (${bytes.length} bytes, fnv ${fnv64(bytes)})`;
}

/** FNV-1a, 64 bits (two 32-bit halves): a fingerprint of long data, not a security hash. */
function fnv64(bytes: Uint8Array): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (const b of bytes) {
    lo ^= b;
    // × 0x100000001b3, the 64-bit FNV prime, in 32-bit halves.
    const loMul = Math.imul(lo, 0x1b3);
    const carry = Math.floor(((lo >>> 0) * 0x1b3) / 0x100000000);
    hi = (Math.imul(hi, 0x1b3) + Math.imul(lo, 0x100) + carry) >>> 0;
    lo = loMul >>> 0;
  }
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function formatArgs(args: Record<string, ArgValue>): string {
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? quote(v.length > 60 ? v.slice(0, 60) + '…' : v) : v}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** One instruction as a line; `lead` is its first column (offset or span). */
export function formatInstruction(bytes: Uint8Array, ins: Instruction, lead: string): string {
  const raw = hex(bytes.subarray(ins.offset, ins.offset + ins.length), ins.kind);
  if (ins.kind === 'text') return `${lead}  ${raw.padEnd(48)}  text        ${quote(ins.effect?.type === 'text' ? ins.effect.text : '')}`;
  const label = ins.kind === 'command' ? ins.name : `${ins.kind.toUpperCase()}: ${ins.name}`;
  return `${lead}  ${raw.padEnd(48)}  ${ins.mnemonic.padEnd(10)}  ${label}${formatArgs(ins.args)}`;
}

/** One line per instruction: `offset  hex  mnemonic  name (args)`. */
export function formatDisassembly(bytes: Uint8Array, instructions: readonly Instruction[]): string {
  const lines = instructions.map((ins) => formatInstruction(bytes, ins, ins.offset.toString(16).padStart(6, '0')));
  return lines.join('\n') + (lines.length ? '\n' : '');
}
