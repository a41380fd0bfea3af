// The pipeline as one call, and each stage with resolved diagnostics: parse → lower → emit.
import { resolveDiagnostics, type Diagnostic, type RawDiagnostic } from './diagnostics.js';
import { emit as emitOps, formatListing, type EmitRecord } from './emit/index.js';
import { lowerRaw, type Op } from './lower/index.js';
import type { Document } from './parse/ast.js';
import { parseRaw } from './parse/index.js';
import { loadProfile, type PrinterRef } from './profiles/index.js';

export interface CompileOptions {
  /** Template id (5, "5"), code ("MAKER5T20") or a profile object. */
  printer: PrinterRef;
  /** Also return one record per emitted command (for listings and byte → source maps). */
  records?: boolean;
}

export interface CompileResult {
  /** The bytes for the printer: ESC/POS, or UTF-8 text for the generic template. */
  bytes: Uint8Array;
  /** Everything degraded, replaced or wrong, in source order. Errors mean the job is not right. */
  diagnostics: Diagnostic[];
  /** Present when `records: true` was asked for. */
  records?: EmitRecord[];
}

/**
 * Compiles conteudo for one printer. Never throws on any string content; throws ProfileError
 * only for an unknown or invalid printer (a usage error).
 *
 * @example
 * const { bytes, diagnostics } = compile('<textAlignCenter>Olá!\n<paperCutPartial>', { printer: 'MAKER5T20' });
 */
export function compile(conteudo: string, options: CompileOptions): CompileResult {
  const profile = loadProfile(options.printer);
  if (typeof conteudo !== 'string') throw new TypeError('compile(conteudo): conteudo must be a string');
  const raw: RawDiagnostic[] = [];
  const ast = parseRaw(conteudo, raw);
  const ops = lowerRaw(ast, profile, raw);
  const { bytes, records } = emitOps(ops, profile, { records: options.records === true });
  const diagnostics = resolveDiagnostics(conteudo, raw);
  return records ? { bytes, diagnostics, records } : { bytes, diagnostics };
}

/** The readable listing of a compile: one command per line, hex, mnemonic, source span. */
export function listing(conteudo: string, options: Omit<CompileOptions, 'records'>): { listing: string; diagnostics: Diagnostic[] } {
  const { bytes, diagnostics, records } = compile(conteudo, { ...options, records: true });
  return { listing: formatListing(bytes, records!, conteudo), diagnostics };
}

/** Lowers a parsed document for a printer: the IR and the diagnostics of the lowering. */
export function lower(ast: Document, printer: PrinterRef): { ops: Op[]; diagnostics: Diagnostic[] } {
  const profile = loadProfile(printer);
  const raw: RawDiagnostic[] = [];
  const ops = lowerRaw(ast, profile, raw);
  return { ops, diagnostics: resolveDiagnostics(ast.source, raw) };
}

/** Emits IR for a printer. */
export function emit(ops: readonly Op[], printer: PrinterRef, options: { records?: boolean } = {}): { bytes: Uint8Array; records?: EmitRecord[] } {
  return emitOps(ops, loadProfile(printer), options);
}
