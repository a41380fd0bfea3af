// Tests written for mutants of src/lower that survived `npm run mutation` (bench/MUTATION.md): the
// IR that the public lower() returns, the message for a tag no data covers, and internal failures
// on text and tags (test/lower-failure.test.ts makes the QR encoder fail).
import { afterEach, describe, expect, it } from 'vitest';
import { clearCaches } from '../src/caches.js';
import { compile, loadProfile, lower, parse, type ProfileInput } from '../src/index.js';
import { codepage } from '../src/text/codepage.js';

describe('lower()', () => {
  it('marks clean text for a one-byte code page as Latin-1, and not for UTF-8 output', () => {
    expect(lower(parse('ab').ast, 5).ops).toEqual([{ op: 'text', text: 'ab', start: 0, end: 2, latin1: true }]);
    expect(lower(parse('ab').ast, 0).ops).toEqual([{ op: 'text', text: 'ab', start: 0, end: 2 }]);
  });
});

describe('a tag the printer cannot do, with no fallback in its data', () => {
  it('is lower/command-unsupported, naming the printer and the tag, and prints nothing for it', () => {
    // The generic template's data without its "missing" entries: a plain-text printer that says so.
    const { caps: _c, bytes: _b, missing: _m, ...data } = loadProfile(0);
    const printer = loadProfile(structuredClone(data) as ProfileInput);
    const { bytes, diagnostics } = compile('a<cashDrawerOpen>b<paperCutFull>', { printer });
    expect(new TextDecoder().decode(bytes)).toBe('ab\n');
    expect(diagnostics.map((d) => [d.code, d.message, d.span.start.offset, d.span.end.offset])).toEqual([
      ['lower/command-unsupported', `${printer.printer} has no cash drawer command: <cashDrawerOpen> is ignored`, 1, 17],
      ['lower/command-unsupported', `${printer.printer} has no paper cutter: <paperCutFull> is ignored`, 18, 32],
    ]);
  });
});

describe('an internal failure while lowering text or a tag', () => {
  afterEach(() => clearCaches());

  it('is lower/internal-error naming the text it hit, and the rest still prints', () => {
    // The code page's suspect test fails, as a bug there would.
    (codepage('cp850') as { suspect: unknown }).suspect = {
      test() {
        throw new RangeError('bad table');
      },
    };
    const { diagnostics } = compile('é<paperCutFull>', { printer: 5 });
    expect(diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])).toEqual([['lower/internal-error', 0, 1]]);
    expect(diagnostics[0]!.message).toMatch(/^internal error while lowering text \(RangeError: bad table\)/);
  });

  it('is lower/internal-error naming the tag it hit', () => {
    const t20 = loadProfile(5);
    // A profile whose capability set cannot be read, as a broken one would be.
    const broken = new Proxy(t20, {
      get(target, key) {
        if (key === 'caps') throw new TypeError('caps is gone');
        return Reflect.get(target, key);
      },
    });
    const { diagnostics } = lower(parse('x<paperCutFull>').ast, broken);
    expect(diagnostics.map((d) => [d.code, d.span.start.offset, d.span.end.offset])).toEqual([['lower/internal-error', 1, 15]]);
    expect(diagnostics[0]!.message).toMatch(/^internal error while lowering <paperCutFull> \(TypeError: caps is gone\)/);
    expect(() => lower(parse('x').ast, broken)).not.toThrow();
  });
});

describe('text the sanitiser removes entirely', () => {
  it('leaves no text op, so a cut after it needs no line feed first', () => {
    // A control character alone (removed, with a warning) or a zero-width space alone (removed).
    for (const s of ['\x01<paperCutFull>', '\u200b<paperCutFull>']) {
      expect(lower(parse(s).ast, 5).ops.map((o) => o.op)).toEqual(['cut']);
      const { bytes } = compile(s, { printer: 5 });
      expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from(compile('<paperCutFull>', { printer: 5 }).bytes).toString('hex'));
    }
  });
});
