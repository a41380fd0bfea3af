// emit: IR → bytes for a profile (ESC/POS or plain text), optionally with command records.
import type { Op } from '../lower/ir.js';
import type { Profile } from '../profiles/index.js';
import { emitEscPos } from './escpos.js';
import { emitText } from './generic.js';
import { ByteWriter, type EmitRecord } from './writer.js';

export interface EmitOptions {
  /** Keep one record per command (for listings and byte → source maps). */
  records?: boolean;
}

export interface EmitResult {
  bytes: Uint8Array;
  records?: EmitRecord[];
}

const EMITTERS = { escpos: emitEscPos, text: emitText } as const;

export function emit(ops: readonly Op[], profile: Profile, options: EmitOptions = {}): EmitResult {
  const out = new ByteWriter(sizeHint(ops), options.records === true);
  EMITTERS[profile.output](ops, profile, out);
  const bytes = out.finish();
  return out.records ? { bytes, records: out.records } : { bytes };
}

/**
 * A first guess at the output size, so the buffer is allocated once instead of doubling from a
 * small start (a long report used to grow 1 KB → 32 KB in five copies). Text is about one byte
 * per character in a single-byte code page; the writer still grows if the guess is short.
 */
function sizeHint(ops: readonly Op[]): number {
  let n = 64;
  for (const op of ops) {
    if (op.op === 'text') n += op.text.length;
    else if (op.op === 'qr') n += op.data.length * 3 + 48;
    else if (op.op === 'image') n += op.bitmap.bits.length + 64;
    else n += 8;
  }
  return n;
}

export type { EmitRecord } from './writer.js';
export { formatListing, mnemonic } from './listing.js';
