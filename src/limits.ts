// Compile limits: how much one job may produce (output bytes, QR symbols) and how many diagnostics
// it keeps. Each is checked before the work it bounds, so no input can cost minutes or gigabytes.
import { shown } from './shown.js';
import { DIAGNOSTIC_CODES, type RawDiagnostic, type Severity } from './diagnostics.js';
import type { Document } from './parse/ast.js';

/** What one compile may produce. Pass `Infinity` to lift a limit. */
export interface CompileLimits {
  /** Most bytes one job may produce; a job past it is an error (`limit/output-too-large`) with no bytes. */
  maxOutputBytes: number;
  /** Most `<qrcode>` tags in one job, counted before any symbol is built (`limit/too-many-qrcodes`). */
  maxQrCodes: number;
  /** Most diagnostics listed; the rest become one `limit/diagnostics-truncated` with their count. */
  maxDiagnostics: number;
  /** Most `<image>` tags in one job, counted before any image is decoded (`limit/too-many-images`). */
  maxImages: number;
  /** Most pixels of one image, as given and as printed, checked from its header before decoding (`limit/image-too-large`). */
  maxImagePixels: number;
}

/**
 * The limits compile() applies when none are given. A long receipt is tens of KiB with one or two
 * QR codes; these leave room for 50 such receipts in one job.
 *
 * @example
 * compile(conteudo, { printer: 5, limits: { ...DEFAULT_LIMITS, maxQrCodes: 4 } });
 */
export const DEFAULT_LIMITS: Readonly<CompileLimits> = Object.freeze({
  maxOutputBytes: 1024 * 1024,
  maxQrCodes: 16,
  maxDiagnostics: 100,
  maxImages: 16,
  maxImagePixels: 4 * 1024 * 1024,
});

export function resolveLimits(given: Partial<CompileLimits> | undefined): Readonly<CompileLimits> {
  if (given === undefined) return DEFAULT_LIMITS;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new TypeError(`compile(): limits must be an object such as { maxQrCodes: 4 }, not ${shown(given)}`);
  const limits = { ...DEFAULT_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !(value >= 0) || (!Number.isInteger(value) && value !== Infinity)) throw new TypeError(`compile(): limits.${name} must be a whole number ≥ 0 or Infinity, not ${shown(value)}`);
  }
  return limits;
}

/** Thrown by the byte writer when a job's output passes `maxOutputBytes`; compile() catches it. */
export class OutputLimitReached extends Error {
  constructor(readonly start: number, readonly end: number) {
    super('output limit reached');
  }
}

/**
 * The output a job may still produce, as lowering spends it. What can multiply its input — a raster
 * image (a barcode or QR code drawn as one, an `<image>`), each line of a row or rule laid out to
 * the paper — spends the fewest bytes it can print as, a raster before it is drawn (an image, which
 * may turn out unreadable and print nothing, checks before it is decoded and spends once it is). The
 * first to spend once the job is past `maxOutputBytes` throws, and lowering stops there (lowerRaw):
 * what passed the limit is built, so the emitter finds the place in it, as it would with every
 * element built (compile.ts), and nothing after it is. A lower bound only: emit counts every byte.
 */
export class OutputBudget {
  /** Where lowering stopped, once the job is past the limit. */
  over: OutputLimitReached | undefined;
  constructor(private left: number) {}

  /** Throws OutputLimitReached if the job is already past the limit: lowering stops at the element at [start, end). */
  check(start: number, end: number): void {
    if (this.left < 0) throw (this.over = new OutputLimitReached(start, end));
  }

  /** Spends `bytes` for the element at [start, end), after check(). */
  spend(bytes: number, start: number, end: number): void {
    this.check(start, end);
    this.left -= bytes;
  }

  /** A 1-bit image of width × height dots: at least a bit per dot, whatever the command (GS v 0 rows, ESC * bands). */
  raster(width: number, height: number, start: number, end: number): void {
    this.spend(Math.ceil((width * height) / 8), start, end);
  }

  /** The most lines of at least `columns` characters worth making: those that fit, the one past the limit and the one that stops. */
  lines(columns: number): number {
    return Math.floor(Math.max(0, this.left) / columns) + 2;
  }
}

export const outputTooLarge = (limit: number, start: number, end: number): RawDiagnostic => ({
  code: 'limit/output-too-large',
  message: `the job's output passes ${limit} bytes (the limit maxOutputBytes) before this point: nothing is printed`,
  start,
  end,
});

/** The tags counted per job before any of them is built: node type, limit, code, and what they are. */
const COUNTED = [
  { type: 'qrcode', limit: 'maxQrCodes', code: 'limit/too-many-qrcodes', what: 'QR codes' },
  { type: 'image', limit: 'maxImages', code: 'limit/too-many-images', what: 'images' },
] as const;

/**
 * An error at the first `<qrcode>` (or `<image>`) past its limit, or undefined; a scan of the AST,
 * before any QR or image work.
 */
export function tagCountError(ast: Document, limits: Readonly<CompileLimits>): RawDiagnostic | undefined {
  // One pass over the document, counting every kind at once (this runs for every receipt).
  const counts = [0, 0];
  const firsts: Array<{ start: number; end: number } | undefined> = [undefined, undefined];
  for (const node of ast.children) {
    const k: number = node.type === 'qrcode' ? 0 : node.type === 'image' ? 1 : -1;
    if (k < 0) continue;
    if (++counts[k]! === limits[COUNTED[k]!.limit] + 1) firsts[k] = node;
  }
  for (let k = 0; k < COUNTED.length; k++) {
    const first = firsts[k];
    if (!first) continue;
    const { limit: name, code, what } = COUNTED[k]!;
    return { code, message: `${counts[k]} ${what} in one job; at most ${limits[name]} are allowed (the limit ${name}): nothing is printed`, start: first.start, end: first.end };
  }
  return undefined;
}

/**
 * The diagnostics list of one compile, keeping at most `cap` entries and only counting the rest.
 * Passes just `push`. An error always finds room (it takes the place of a kept warning or info),
 * so a job with an error still shows one. `finish()` adds the summary of what was left out.
 */
export class DiagnosticSink extends Array<RawDiagnostic> {
  static override get [Symbol.species]() {
    return Array;
  }

  private readonly cap: number;
  private kept = { error: 0, warning: 0, info: 0 };
  private left = { error: 0, warning: 0, info: 0 };
  private leftFrom = Infinity;
  private leftTo = 0;
  private forced: RawDiagnostic[] = [];

  constructor(cap: number) {
    super();
    this.cap = cap;
  }

  override push(...items: RawDiagnostic[]): number {
    for (const d of items) this.add(d);
    return this.length;
  }

  /** Lists `d` whatever the cap (a limit's own error). */
  force(d: RawDiagnostic): void {
    this.forced.push(d);
  }

  /** The kept diagnostics, the forced ones, and one summary of those left out. */
  finish(): RawDiagnostic[] {
    const dropped = this.left.error + this.left.warning + this.left.info;
    if (dropped === 0 && this.forced.length === 0) return this;
    const out = [...this, ...this.forced];
    if (dropped > 0) {
      const parts = (['error', 'warning', 'info'] as const).filter((s) => this.left[s] > 0).map((s) => `${this.left[s]} ${s}${this.left[s] === 1 ? '' : 's'}`);
      out.push({
        code: 'limit/diagnostics-truncated',
        message: `${dropped} more diagnostic${dropped === 1 ? '' : 's'} not listed (${parts.join(', ')}): only ${this.cap} are kept (the limit maxDiagnostics${this.cap < this.length ? ', and the first error' : ''})`,
        start: this.leftFrom,
        end: this.leftTo,
      });
    }
    return out;
  }

  private add(d: RawDiagnostic): void {
    const severity = DIAGNOSTIC_CODES[d.code];
    if (this.length < this.cap) {
      super.push(d);
      this.kept[severity]++;
      return;
    }
    if (severity === 'error' && this.kept.error < this.length) {
      // Make room: the last kept non-error is counted instead.
      for (let i = this.length - 1; i >= 0; i--) {
        const old = this[i]!;
        const was = DIAGNOSTIC_CODES[old.code];
        if (was === 'error') continue;
        this.leave(old, was);
        this.kept[was]--;
        this.kept.error++;
        this[i] = d;
        return;
      }
    }
    if (severity === 'error' && this.kept.error === 0) {
      // A cap of 0 keeps nothing to make room in: the first error is listed all the same, so that
      // hasErrors() still says the job has one (and nobody prints it thinking it has none).
      super.push(d);
      this.kept.error++;
      return;
    }
    this.leave(d, severity);
  }

  private leave(d: RawDiagnostic, severity: Severity): void {
    this.left[severity]++;
    if (d.start < this.leftFrom) this.leftFrom = d.start;
    if (d.end > this.leftTo) this.leftTo = d.end;
  }
}
