// emit: IR → bytes for a profile (ESC/POS or plain text), optionally with command records.
import { OutputLimitReached } from '../limits.js';
import type { Op } from '../lower/ir.js';
import type { Profile } from '../profiles/index.js';
import { emitEscPos } from './escpos.js';
import { emitText } from './generic.js';
import { ByteWriter, type EmitRecord } from './writer.js';

export interface EmitOptions {
  /** Keep one record per command (for listings and byte → source maps). */
  records?: boolean;
  /** Stop with OutputLimitReached once more than this many bytes are written (default: no limit). */
  maxBytes?: number;
  /** The conteudo the ops were lowered from: with `records`, each printed line gets its own record and span. */
  source?: string;
  /** Start with the job's init and code page (default); false for ops that continue a job. */
  prologue?: boolean;
}

/** …and, inside the library only (compile.ts), whether the ops end the job. */
export interface JobEmitOptions extends EmitOptions {
  /**
   * End the job (default): the line feed a pending line needs, and with `maxBytes`, the bytes after
   * the last command checked. False for ops a job goes on after (what lowering built before it
   * stopped): past the limit is then found only where a command starts, as in the whole job. Not
   * the public emit()'s: with it, output past `maxBytes` in the last command would be given.
   */
  epilogue?: boolean;
}

export interface EmitResult {
  bytes: Uint8Array;
  records?: EmitRecord[];
}

const EMITTERS = { escpos: emitEscPos, text: emitText } as const;

export function emit(ops: readonly Op[], profile: Profile, options: JobEmitOptions = {}): EmitResult {
  const out = new ByteWriter(options.records === true, options.maxBytes);
  try {
    EMITTERS[profile.output](ops, profile, out, options.source, options.prologue !== false, options.epilogue !== false);
  } catch (error) {
    out.release();
    throw error;
  }
  const bytes = out.finish();
  return out.records ? { bytes, records: out.records } : { bytes };
}

/**
 * emit() held to `maxBytes`: the bytes (and records), or where the output passes the limit. The
 * emitter checks the limit where it marks a command: once per text op without records, once per
 * printed line with them; the bytes after the last mark are checked here. A job over the limit is
 * emitted again with records (only then, so the common path pays nothing), so that the place is the
 * one listing() names, with records kept or not.
 */
export function emitWithin(ops: readonly Op[], profile: Profile, options: JobEmitOptions): EmitResult | OutputLimitReached {
  let at: OutputLimitReached;
  try {
    const out = emit(ops, profile, options);
    if (options.maxBytes === undefined || out.bytes.length <= options.maxBytes || options.epilogue === false) return out;
    const last = ops[ops.length - 1];
    at = new OutputLimitReached(last?.start ?? 0, last?.end ?? 0);
  } catch (error) {
    if (!(error instanceof OutputLimitReached)) throw error;
    at = error;
  }
  return options.records || options.source === undefined ? at : (limitWithRecords(ops, profile, options) ?? at);
}

/** Where the output limit is found when records are kept. */
function limitWithRecords(ops: readonly Op[], profile: Profile, options: JobEmitOptions): OutputLimitReached | undefined {
  try {
    emit(ops, profile, { ...options, records: true });
  } catch (error) {
    if (error instanceof OutputLimitReached) return error;
    throw error;
  }
  return undefined;
}

export type { EmitRecord, RecordOp } from './records.js';
export { mnemonic } from './listing.js';
