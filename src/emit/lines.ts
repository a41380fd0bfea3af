// Source spans of printed lines, for records: a text op covers several source lines, and each
// line it prints gets a record of its own. Sanitising keeps line breaks one for one (CR, CRLF and
// LF each become one LF), so the k-th printed line comes from the k-th source line of the op.

/** The lines of source [start, end) as spans; an op with more printed lines than that gets the rest. */
export class SourceLines {
  private readonly ends: number[] = [];

  constructor(
    source: string,
    readonly start: number,
    readonly end: number,
  ) {
    // Spans past the source (ops built by hand) end with it.
    for (let i = start, stop = Math.min(end, source.length); i < stop; i++) {
      const c = source.charCodeAt(i);
      if (c === 10 || (c === 13 && source.charCodeAt(i + 1) !== 10)) this.ends.push(i + 1);
    }
  }

  /**
   * The lines of `start`…`end` of one source: `last` again when it is of the same span (each line of
   * a row is an op spanning the whole row: scanning the span again for each was quadratic).
   */
  static of(last: SourceLines | undefined, source: string, start: number, end: number): SourceLines {
    return last !== undefined && last.start === start && last.end === end ? last : new SourceLines(source, start, end);
  }

  /** Where printed line `k` (0-based) starts in the source. */
  lineStart(k: number): number {
    return k === 0 ? this.start : Math.min(this.ends[k - 1] ?? this.end, this.end);
  }

  /** Where printed line `k` ends in the source: just past its line break, or the op's end. */
  lineEnd(k: number): number {
    return Math.min(this.ends[k] ?? this.end, this.end);
  }
}
