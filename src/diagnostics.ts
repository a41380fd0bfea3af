// Diagnostics as values: the one catalogue of codes, and spans turned from offsets into
// line/column on demand (passes carry offsets only; see STYLE.md §8–9).

/** A position in the source: 0-based UTF-16 offset, 1-based line and column. */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

/** A half-open source range [start, end). */
export interface Span {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

/** What went wrong or was changed, where, and how bad it is. */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  span: Span;
}

/** Every diagnostic code bobina emits, with its severity. Codes are stable: add, never rename. */
export const DIAGNOSTIC_CODES = {
  'parse/unknown-tag': 'warning',
  'parse/unclosed-qrcode': 'error',
  'parse/stray-closing-tag': 'error',
  'parse/unclosed-tag': 'error',
  'parse/attribute-unknown': 'warning',
  'parse/attribute-invalid': 'error',
  'parse/attribute-missing': 'error',
  'parse/attribute-duplicate': 'error',
  'parse/misplaced-content': 'error',
  'parse/tag-disabled': 'warning',
  'lower/partial-cut-fallback': 'warning',
  'lower/condensed-unsupported': 'warning',
  'lower/command-unsupported': 'warning',
  'lower/qr-raster-fallback': 'info',
  'lower/qr-empty': 'warning',
  'lower/qr-too-long': 'error',
  'lower/qr-too-wide': 'error',
  'lower/qr-option-changed': 'warning',
  'lower/internal-error': 'error',
  'lower/barcode-invalid': 'error',
  'lower/barcode-raster-fallback': 'info',
  'lower/barcode-too-wide': 'error',
  'lower/image-unknown': 'error',
  'lower/image-unreadable': 'error',
  'lower/image-too-wide': 'warning',
  'lower/image-unsupported': 'warning',
  'lower/style-unsupported': 'warning',
  'lower/text-size-clamped': 'warning',
  'text/control-removed': 'warning',
  'text/transliterated': 'warning',
  'text/replaced': 'warning',
  'limit/output-too-large': 'error',
  'limit/too-many-qrcodes': 'error',
  'limit/too-many-images': 'error',
  'limit/image-too-large': 'error',
  'limit/diagnostics-truncated': 'info',
  'text/normalized': 'info',
  'text/marks-removed': 'warning',
  'text/line-too-long': 'info',
  'lower/row-too-wide': 'warning',
  'lower/invalid-node': 'error',
  'emit/invalid-op': 'error',
} as const satisfies Record<string, Severity>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** A diagnostic before its offsets are resolved to lines and columns. */
export interface RawDiagnostic {
  code: DiagnosticCode;
  message: string;
  start: number;
  end: number;
}

/** Maps offsets to 1-based line/column; built lazily, only when a diagnostic needs it. */
export class LineIndex {
  private starts: number[] | undefined;
  constructor(private readonly source: string) {}

  position(offset: number): Position {
    const starts = (this.starts ??= lineStarts(this.source));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { offset, line: lo + 1, column: offset - starts[lo]! + 1 };
  }

  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(end) };
  }
}

/** Line starts after LF, CRLF or a lone CR, found by native scans rather than a character loop. */
function lineStarts(source: string): number[] {
  const starts = [0];
  if (source.indexOf('\r') < 0) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  const breaks = /\r\n?|\n/g;
  for (let m = breaks.exec(source); m !== null; m = breaks.exec(source)) starts.push(breaks.lastIndex);
  return starts;
}

/**
 * Resolves raw diagnostics against their source, in source order; the summary of those left out
 * (limit/diagnostics-truncated) comes last, wherever its span starts (a diagnostic found late,
 * such as a long line's, may be left out although it starts early).
 */
export function resolveDiagnostics(source: string, raw: readonly RawDiagnostic[]): Diagnostic[] {
  if (raw.length === 0) return [];
  const index = new LineIndex(source);
  return [...raw]
    .sort((a, b) => lastIfSummary(a) - lastIfSummary(b) || a.start - b.start)
    .map((d) => ({
      code: d.code,
      severity: DIAGNOSTIC_CODES[d.code],
      message: d.message,
      span: index.span(d.start, d.end),
    }));
}

function lastIfSummary(d: RawDiagnostic): number {
  return d.code === 'limit/diagnostics-truncated' ? 1 : 0;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
