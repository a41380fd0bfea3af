// Tests written for mutants of src/text that survived `npm run mutation` (bench/MUTATION.md): the
// plain-JavaScript UTF-8 count (used where there is no Buffer) at the edges of each byte length,
// held to Node's own count; code page names and a code page's undefined bytes.
import { describe, expect, it } from 'vitest';
import { compile } from '../src/index.js';
import { countUtf8 } from '../src/text/utf8.js';

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

describe('code pages', () => {
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

  it('takes "utf-8" as UTF-8 output, as "utf8"', () => {
    const dashed = compile('é€', { printer: { extends: 'GENERICA', codepage: { encoding: 'utf-8' } } });
    expect(dashed.diagnostics).toEqual([]);
    expect(hex(dashed.bytes)).toBe(hex(compile('é€', { printer: 0 }).bytes));
  });

  it('never prints U+FFFD as a byte the code page leaves undefined', () => {
    // CP1252 leaves 81, 8D, 8F, 90 and 9D undefined: U+FFFD is not in it, so it is replaced.
    const r = compile('\ufffd', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'cp1252', select: '1B 74 10' } } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['text/replaced']);
    expect(hex(r.bytes)).toBe('1b401b74103f0a');
  });
});

describe('plain-text output', () => {
  it('prints a lone combining mark above the surrogates (U+FE20) as itself, not as a lone surrogate', () => {
    const { bytes, diagnostics } = compile('\ufe20x', { printer: 0 });
    expect(diagnostics).toEqual([]);
    expect(new TextDecoder().decode(bytes).startsWith('\ufe20x')).toBe(true);
  });
});
