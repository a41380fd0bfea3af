// The stages one by one, for an AST or IR built by hand: lower() and emit() check what they are
// given and lower it as compile lowers its own (lower/hand-built.ts), so neither throws on anything
// their types allow: what a printer cannot do, or a malformed node or op, is a diagnostic.
import { resolveDiagnostics, type Diagnostic, type RawDiagnostic } from './diagnostics.js';
import { emitWithin, type EmitOptions, type EmitRecord } from './emit/index.js';
import { OutputLimitReached, outputTooLarge } from './limits.js';
import { lowerDocument, lowerOps } from './lower/hand-built.js';
import type { ImageSources } from './lower/image.js';
import type { Op } from './lower/index.js';
import type { Document } from './parse/ast.js';
import { loadProfile, type PrinterRef } from './profiles/index.js';

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
  // A whole job, whatever the options say (epilogue is compile's alone).
  const emitted = emitWithin(checked, profile, { ...options, records, source, epilogue: true });
  const over = emitted instanceof OutputLimitReached;
  if (over) raw.push(outputTooLarge(options.maxBytes!, emitted.start, emitted.end));
  const out = over ? { bytes: new Uint8Array(0), ...(records && { records: [] }) } : emitted;
  const diagnostics = resolveDiagnostics(source ?? '', raw);
  return out.records ? { bytes: out.bytes, diagnostics, records: out.records } : { bytes: out.bytes, diagnostics };
}
