// The plain-JavaScript UTF-8 count (src/text/utf8.ts, used where there is no Buffer) at the edges of
// each byte length, held to Node's own count: kept because mutants of src/text survived without it
// (`npm run mutation`, bench/MUTATION.md). test/compile/properties.test.ts holds it to Node's count
// for any string.
import { describe, expect, it } from 'vitest';
import { countUtf8 } from '../../src/text/utf8.js';

describe('countUtf8', () => {
  it.each([
    ['\x7f', 1],
    ['\x80', 2],
    ['\u07ff', 2],
    ['\u0800', 3],
    ['\ud7ff\udc00', 6], // below the high surrogates, then a lone low one
    ['\ud800\udc00', 4],
    ['\udbff\udfff', 4],
    ['\udc00\udc00', 6], // two lone low surrogates: 3 bytes each (U+FFFD)
    ['\ud800', 3],
    ['\ud800a', 4],
    ['\ud800é', 5], // a lone high surrogate, then a two-byte character
    ['a\ud800', 4],
    ['\ud800\ud800\udc00', 7],
    ['x😀y€', 9],
  ])('counts %j as %i bytes, as Node does', (text, bytes) => {
    expect(countUtf8(text)).toBe(bytes);
    expect(Buffer.byteLength(text, 'utf8')).toBe(bytes);
  });
});
