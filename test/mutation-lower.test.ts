// Tests written for mutants of src/lower that survived `npm run mutation` (bench/MUTATION.md): the
// IR that the public lower() returns.
import { describe, expect, it } from 'vitest';
import { lower, parse } from '../src/index.js';

describe('lower()', () => {
  it('marks clean text for a one-byte code page as Latin-1, and not for UTF-8 output', () => {
    expect(lower(parse('ab').ast, 5).ops).toEqual([{ op: 'text', text: 'ab', start: 0, end: 2, latin1: true }]);
    expect(lower(parse('ab').ast, 0).ops).toEqual([{ op: 'text', text: 'ab', start: 0, end: 2 }]);
  });
});
