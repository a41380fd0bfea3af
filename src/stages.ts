// The stages one by one, for an AST or IR built by hand: lower() and emit() check what they are
// given and lower it as compile lowers its own (lower/hand-built.ts), so neither throws on anything
// their types allow: what a printer cannot do, or a malformed node or op, is a diagnostic.
import { resolveDiagnostics, type Diagnostic, type RawDiagnostic } from './diagnostics.js';
import { emit as emitOps, limitWithRecords, type EmitOptions, type EmitRecord } from './emit/index.js';
import { OutputLimitReached, outputTooLarge } from './limits.js';
import { lowerDocument, lowerOps } from './lower/hand-built.js';
import type { ImageSources } from './lower/image.js';
import type { Op } from './lower/index.js';
import type { Document } from './parse/ast.js';
import { loadProfile, type PrinterRef, type Profile } from './profiles/index.js';

export interface LowerOptions {
  /** Images `<image src="name">` nodes may name (as compile's `images`). */
  images?: ImageSources;
}

/**
 * Lowers a parsed (or hand-built) document for a printer: the IR and the diagnostics of the
 * lowering. A node whose fields its type does not allow is an error (`lower/invalid-node`).
 *
 * @example
 * const { ops } = lower(parse('<textAlignCenter>Olá').ast, 'MAKER5T20');
 */
export function lower(ast: Document, printer: PrinterRef, options: LowerOptions = {}): { ops: Op[]; diagnostics: Diagnostic[] } {
  const profile = loadProfile(printer);
  const raw: RawDiagnostic[] = [];
  const ops = lowerDocument(ast, profile, raw, options.images ? { images: options.images } : {});
  return { ops, diagnostics: resolveDiagnostics(typeof ast?.source === 'string' ? ast.source : '', raw) };
}

export interface EmitResult {
  /** The bytes for the printer (none when the output passes `maxBytes`). */
  bytes: Uint8Array;
  /** What the ops became on this printer: degraded, sanitised, or refused (`emit/invalid-op`). */
  diagnostics: Diagnostic[];
  /** Present when `records: true` was asked for. */
  records?: EmitRecord[];
}

/**
 * Emits IR for a printer; with `records` (and the `source` the ops came from, for per-line spans)
 * also the byte → source map. Ops are lowered again as compile lowers the constructs they stand for:
 * text is sanitised for the code page, a command the printer lacks has compile's outcome (a QR code
 * as a raster image, a partial cut as a full one, condensed dropped), with the same diagnostics.
 *
 * @example
 * const { bytes, diagnostics } = emit([{ op: 'text', text: 'Olá\n', start: 0, end: 4 }], 'MAKER5T20');
 */
export function emit(ops: readonly Op[], printer: PrinterRef, options: EmitOptions = {}): EmitResult {
  const profile = loadProfile(printer);
  const raw: RawDiagnostic[] = [];
  const source = typeof options.source === 'string' ? options.source : undefined;
  const checked = lowerOps(ops, profile, raw);
  const records = options.records === true;
  const out = emitWithin(checked, profile, { ...options, records, source }, raw);
  const diagnostics = resolveDiagnostics(source ?? '', raw);
  return out.records ? { bytes: out.bytes, diagnostics, records: out.records } : { bytes: out.bytes, diagnostics };
}

/** The bytes (and records) of the ops, or none and the diagnostic when the output passes `maxBytes`. */
function emitWithin(ops: readonly Op[], profile: Profile, options: EmitOptions, raw: RawDiagnostic[]): { bytes: Uint8Array; records?: EmitRecord[] } {
  let at: { start: number; end: number };
  try {
    const out = emitOps(ops, profile, options);
    // The emitter checks the limit where it marks a command: the bytes after the last mark only here.
    if (!(out.bytes.length > options.maxBytes!)) return out;
    const last = ops[ops.length - 1];
    at = { start: last?.start ?? 0, end: last?.end ?? 0 };
  } catch (error) {
    if (!(error instanceof OutputLimitReached)) throw error;
    at = error;
  }
  // The span records give, kept or not (as compile() does): without them a text op is checked once, not per printed line.
  if (!options.records && options.source !== undefined) at = limitWithRecords(ops, profile, options) ?? at;
  raw.push(outputTooLarge(options.maxBytes!, at.start, at.end));
  return { bytes: new Uint8Array(0), ...(options.records && { records: [] }) };
}
