// The pipeline as one call, and each stage with resolved diagnostics: parse → lower → emit.
import { shown } from './shown.js';
import { resolveDiagnostics, type Diagnostic } from './diagnostics.js';
import { emitWithin, type EmitRecord } from './emit/index.js';
import { formatListing } from './inspect/listing.js';
import { DiagnosticSink, OutputBudget, OutputLimitReached, outputTooLarge, resolveLimits, tagCountError, type CompileLimits } from './limits.js';
import type { ImageSources } from './lower/image.js';
import { lowerRaw, type LowerOptions } from './lower/index.js';
import type { Document } from './parse/ast.js';
import { parseRaw, tagSet } from './parse/index.js';
import type { TagSet } from './parse/tags.js';
import { loadProfile, type PrinterRef, type Profile } from './profiles/index.js';

export interface CompileOptions {
  /** Template id (5, "5"), code ("MAKER5T20") or a profile object. */
  printer: PrinterRef;
  /** Also return one record per emitted command (for listings and byte → source maps). */
  records?: boolean;
  /** Output bytes, QR codes, images and diagnostics allowed per job; unset fields take DEFAULT_LIMITS. */
  limits?: Partial<CompileLimits>;
  /**
   * Which tags are commands: `'all'` (the default), or `'partner'`: only the partner's eight; every
   * other tag prints as written, with a warning. For text the integration does not control.
   */
  tags?: TagSet;
  /**
   * Images `<image src="name"/>` may name: PNG file bytes, or a 1-bit bitmap.
   *
   * @example
   * compile('<image src="logo"/>', { printer: 5, images: { logo: readFileSync('logo.png') } });
   */
  images?: ImageSources;
  /**
   * Printed lines wider than the paper (for the font in force): `'none'` (the default) leaves them
   * to the printer, which breaks them wherever the paper ends, with an info `text/line-too-long`
   * naming each; `'word'` wraps them at spaces instead (a word longer than a line is broken).
   */
  wrap?: 'none' | 'word';
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
 * only for an unknown or invalid printer, and a TypeError for other invalid options (usage errors).
 *
 * @example
 * const { bytes, diagnostics } = compile('<textAlignCenter>Olá!\n<paperCutPartial>', { printer: 'MAKER5T20' });
 */
export function compile(conteudo: string, options: CompileOptions): CompileResult {
  if (typeof options !== 'object' || options === null) throw new TypeError(`compile(): options must be an object such as { printer: 5 }, not ${shown(options)}`);
  const profile = loadProfile(options.printer);
  if (typeof conteudo !== 'string') throw new TypeError('compile(conteudo): conteudo must be a string');
  const limits = resolveLimits(options.limits);
  const tags = tagSet(options.tags);
  const wrap = wrapOption(options.wrap);
  const raw = new DiagnosticSink(limits.maxDiagnostics);
  const ast = parseRaw(conteudo, raw, tags);
  const { bytes, records } = lowerAndEmit(ast, profile, raw, limits, options.records === true, conteudo, wrap, options.images);
  const diagnostics = resolveDiagnostics(conteudo, raw.finish());
  return records ? { bytes, diagnostics, records } : { bytes, diagnostics };
}

/** The wrap option checked: a usage error throws, as an unknown printer does. */
function wrapOption(wrap: unknown): 'none' | 'word' {
  if (wrap === undefined || wrap === 'none' || wrap === 'word') return wrap ?? 'none';
  throw new TypeError(`wrap must be 'none' or 'word', not ${JSON.stringify(wrap) ?? String(wrap)}`);
}

/**
 * A job over a limit stops where the limit is found: that limit's error, and no bytes. Past
 * maxOutputBytes, lowering stops at the first element to spend its budget after that
 * (OutputBudget); what it built is emitted all the same, as the start of a job, so that the error
 * names the command the emitter finds past the limit, as with every element built, or else the
 * element lowering stopped at, whose command comes next.
 */
function lowerAndEmit(ast: Document, profile: Profile, raw: DiagnosticSink, limits: Readonly<CompileLimits>, records: boolean, source: string, wrap: LowerOptions['wrap'], images: LowerOptions['images']): { bytes: Uint8Array; records?: EmitRecord[] } {
  const refused = () => ({ bytes: new Uint8Array(0), ...(records ? { records: [] } : {}) });
  const tooMany = tagCountError(ast, limits);
  if (tooMany) {
    raw.force(tooMany);
    return refused();
  }
  // The options as one literal of one shape (no spread: this runs for every receipt).
  const budget = new OutputBudget(limits.maxOutputBytes);
  const ops = lowerRaw(ast, profile, raw, { limits, images, wrap, budget });
  const stopped = budget.over;
  const out = emitWithin(ops, profile, { records, source, maxBytes: limits.maxOutputBytes, epilogue: stopped === undefined });
  if (!(out instanceof OutputLimitReached) && stopped === undefined) return out;
  const at = out instanceof OutputLimitReached ? out : stopped!;
  raw.force(outputTooLarge(limits.maxOutputBytes, at.start, at.end));
  return refused();
}

/**
 * The readable listing of a compile: one line per command or printed line — source span, hex,
 * mnemonic, name and arguments — split and named as `bobina disasm` does.
 */
export function listing(conteudo: string, options: Omit<CompileOptions, 'records'>): { listing: string; diagnostics: Diagnostic[] } {
  const { bytes, diagnostics, records } = compile(conteudo, { ...options, records: true });
  return { listing: formatListing(bytes, records!, conteudo, { printer: options.printer }), diagnostics };
}
