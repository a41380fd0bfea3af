// The disassembly as text: one line per instruction — offset, hex (long data abbreviated),
// mnemonic, name and decoded arguments; text runs quoted as decoded in the printer's code page.
import type { ArgValue, Instruction } from './types.js';

const HEX_SHOWN = 12;

function hex(bytes: Uint8Array): string {
  const shown = Array.from(bytes.subarray(0, HEX_SHOWN), (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ');
  return bytes.length > HEX_SHOWN ? `${shown} … (${bytes.length} bytes)` : shown;
}

function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function formatArgs(args: Record<string, ArgValue>): string {
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === 'string' ? quote(v.length > 60 ? v.slice(0, 60) + '…' : v) : v}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** One line per instruction: `offset  hex  mnemonic  name (args)`. */
export function formatDisassembly(bytes: Uint8Array, instructions: readonly Instruction[]): string {
  const lines = instructions.map((ins) => {
    const at = ins.offset.toString(16).padStart(6, '0');
    const raw = hex(bytes.subarray(ins.offset, ins.offset + ins.length));
    if (ins.kind === 'text') return `${at}  ${raw.padEnd(38)}  text        ${quote(ins.effect?.type === 'text' ? ins.effect.text : '')}`;
    const label = ins.kind === 'command' ? ins.name : `${ins.kind.toUpperCase()}: ${ins.name}`;
    return `${at}  ${raw.padEnd(38)}  ${ins.mnemonic.padEnd(10)}  ${label}${formatArgs(ins.args)}`;
  });
  return lines.join('\n') + (lines.length ? '\n' : '');
}
