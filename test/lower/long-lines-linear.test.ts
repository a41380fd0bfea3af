// The line measure does work in proportion to the text: a line of many escapes (each joins the
// text op before it, and only the piece that joins is measured) or a text of many short lines,
// with or without wrap. Measured as work done, never as wall time, for a text and one four times
// longer (linear: 4 times the work; it was 13 to 16 times, quadratic), with the String and RegExp
// methods lowering calls spied on while it runs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from '../../src/index.js';
import { lowerRaw } from '../../src/lower/index.js';
import { loadProfile } from '../../src/profiles/index.js';

/**
 * What a call costs: `strings`, the length of the string it is called on (a search or read of a
 * text joined piece by piece flattens all of it first; a slice copies what it returns); `scan`,
 * the characters a search passes over from where it starts (a read is one).
 */
type Measure = 'strings' | 'scan';

function work(source: string, printer: number, wrap: 'none' | 'word', measure: Measure): number {
  const { ast } = parse(source);
  const profile = loadProfile(printer);
  let chars = 0;
  const spy = <K extends 'indexOf' | 'lastIndexOf' | 'charCodeAt' | 'slice' | 'split'>(name: K, cost: (s: string, args: unknown[], result: unknown) => number) => {
    const original = String.prototype[name] as (...args: unknown[]) => unknown;
    vi.spyOn(String.prototype, name).mockImplementation(function (this: string, ...args: unknown[]) {
      const result = original.apply(this, args);
      chars += cost(this, args, result);
      return result;
    } as never);
  };
  const scan = measure === 'scan';
  spy('indexOf', (s, [, from = 0], r) => (scan ? ((r as number) < 0 ? s.length : (r as number) + 1) - (from as number) : s.length));
  spy('lastIndexOf', (s, [, from = s.length], r) => (scan ? (from as number) - (r as number) : s.length));
  spy('charCodeAt', (s) => (scan ? 1 : s.length));
  spy('slice', (_s, _args, r) => (r as string).length);
  spy('split', (s) => s.length);
  const exec = RegExp.prototype.exec;
  vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, input: string) {
    const from = this.lastIndex;
    const result = exec.call(this, input);
    chars += scan ? (result ? result.index + result[0].length : input.length) - from : input.length;
    return result;
  });
  try {
    lowerRaw(ast, profile, [], { wrap });
  } finally {
    vi.restoreAllMocks();
  }
  return chars;
}

afterEach(() => vi.restoreAllMocks());

describe('the line measure', () => {
  it.each([
    ['“&lt;', 0, 'none'],
    ['Ω&lt;', 0, 'none'],
    ['é&lt;', 5, 'word'],
    ['é&lt;', 3, 'word'],
    ['é &lt;', 5, 'word'],
    ['ab\t&lt;', 0, 'word'],
  ] as const)('measures only the piece each escape joins: %j on one line (printer %i, wrap %s)', (unit, printer, wrap) => {
    const small = work(unit.repeat(250), printer, wrap, 'strings');
    const large = work(unit.repeat(1000), printer, wrap, 'strings');
    expect(large / small).toBeLessThan(5);
  });

  it.each([
    ['ab\n', 0],
    ['ab\n', 5],
    ['abc d\n', 5],
  ] as const)('looks for a break point only on its own line: %j repeated in one text (printer %i, wrap word)', (unit, printer) => {
    const small = work(unit.repeat(250), printer, 'word', 'scan');
    const large = work(unit.repeat(1000), printer, 'word', 'scan');
    expect(large / small).toBeLessThan(5);
  });
});
