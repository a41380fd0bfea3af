// The generic template's plain-text emitter: line ends, alignment, ops it has no use for, records;
// kept because mutants of src/emit survived without them (`npm run mutation`, bench/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { emit as emitOps } from '../../src/emit/index.js';
import { compile, emit, listProfiles, loadProfile, lower, parse, type Op } from '../../src/index.js';
import type { OutputLimitReached } from '../../src/limits.js';

describe('the generic template', () => {
  const text = (s: string) => Buffer.from(compile(s, { printer: 0 }).bytes).toString('utf8');

  it('ends the pending line before a feed', () => {
    // GENERICA feeds 3 lines (its feedLines).
    expect(text('a<paperFeed>b')).toBe(`a\n${'\n'.repeat(loadFeedLines())}b\n`);
  });

  it('aligns a line with tabs by its width to the tab stops, writing its tabs as the spaces they take', () => {
    // A tab goes to the next stop of 8 columns from the line's start (README), as the line measure counts it.
    expect(text('<textAlignRight>\tabc')).toBe(`${' '.repeat(37)}${' '.repeat(8)}abc\n`);
    expect(text('<textAlignCenter>\t\t\tabc')).toBe(`${' '.repeat(10)}${' '.repeat(24)}abc\n`);
    expect(text('<textAlignRight>ab\tc')).toBe(`${' '.repeat(39)}ab      c\n`);
    // Left-aligned lines keep their tabs: their stops are where plain text has them.
    expect(text('ab\tc')).toBe('ab\tc\n');
    for (const align of ['Right', 'Center']) {
      for (const line of ['\tabc', '\t\t\tabc', 'a\tbcdefghij\tk', '\t'.repeat(5) + 'x'.repeat(7)]) {
        const r = compile(`<textAlign${align}>${line}`, { printer: 0 });
        const printed = Buffer.from(r.bytes).toString('utf8').replace(/\n$/, '');
        expect(printed).not.toContain('\t');
        expect(printed.length).toBeLessThanOrEqual(48);
        if (align === 'Right') expect(printed.length).toBe(48);
        expect(r.diagnostics).toEqual([]);
      }
    }
  });

  it('aligns a line as the alignment in force where it starts', () => {
    const right = text('<textAlignRight>x\n').indexOf('x');
    expect(right).toBeGreaterThan(0);
    expect(text('ab<textAlignRight>cd\nef')).toBe(`abcd\n${' '.repeat(right - 1)}ef\n`);
  });

  it('ignores hand-made ops it has no use for (cut, drawer, condensed), writing and recording nothing', () => {
    const at = { start: 0, end: 0 };
    const made: Op[] = [{ op: 'text', text: 'a', ...at }, { op: 'cut', partial: false, ...at }, { op: 'drawer', ...at }, { op: 'condensed', on: true, ...at }, { op: 'text', text: 'b\n', ...at }];
    const out = emit(made, 0, { records: true });
    expect(Buffer.from(out.bytes).toString('utf8')).toBe('ab\n');
    expect(out.records!.map((r) => r.op)).toEqual(['line']);
    // The emitter itself, where emit() has not dropped them: no line ends at them either.
    expect(Buffer.from(emitOps(made, loadProfile(0)).bytes).toString('utf8')).toBe('ab\n');
  });

  it('checks the output limit once per text op without records: per-line spans are work done only for records', () => {
    // compile() and emit() then take the span from a pass with records (test/stages-safety.test.ts).
    const source = 'aaaaaaaaaa\nbbbbbbbbbb\ncc';
    const ops = lower(parse(source).ast, 0).ops;
    const span = (records: boolean) => {
      try {
        emitOps(ops, loadProfile(0), { source, maxBytes: 5, records });
      } catch (error) {
        return [(error as OutputLimitReached).start, (error as OutputLimitReached).end];
      }
    };
    expect(span(false)).toEqual([0, 24]);
    expect(span(true)).toEqual([11, 22]);
  });

  it('keeps records without the source (one span per op)', () => {
    const out = emit([{ op: 'text', text: 'a\nb', start: 3, end: 6 }], 0, { records: true });
    expect(out.records!.map((r) => [r.op, r.start, r.end])).toEqual([
      ['line', 3, 6],
      ['line', 3, 6],
    ]);
  });
});

function loadFeedLines(): number {
  return listProfiles()[0]!.feedLines;
}
