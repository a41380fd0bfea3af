// The whole-source scan (src/text/scan.ts) against the regex it stands in for: for any source and
// any code page, the offsets it finds are exactly those where the page's suspect class matches.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawDiagnostic } from '../../src/diagnostics.js';
import { loadProfile, parse } from '../../src/index.js';
import { lowerRaw } from '../../src/lower/index.js';
import { codepage } from '../../src/text/codepage.js';
import { PACKED_CODEPAGES } from '../../src/text/codepages.generated.js';
import { suspectOffsets } from '../../src/text/scan.js';

/** What the scan must find: each offset the page's global suspect regex matches. */
function byRegex(source: string, page: ReturnType<typeof codepage>): number[] {
  const find = new RegExp(page.findSuspect.source, 'g');
  return [...source.matchAll(find)].map((m) => m.index);
}

const PAGES = Object.keys(PACKED_CODEPAGES);
/** Characters around every boundary the word test and the class have: controls, DEL, C1, NBSP, Latin-1, beyond. */
const interesting = fc.oneof(
  fc.integer({ min: 0, max: 0x2f }),
  fc.integer({ min: 0x70, max: 0xb0 }),
  fc.integer({ min: 0xb0, max: 0x1ff }),
  fc.constantFrom(0x2014, 0x2500, 0x20ac, 0xd800, 0xdc00, 0xfeff, 0xffff),
  fc.integer({ min: 0x20, max: 0x7e }),
);

describe('the suspect scan of a whole source', () => {
  it.each(PAGES)('finds on %s every character the suspect regex matches, and no other', (name) => {
    const page = codepage(name);
    fc.assert(
      fc.property(fc.array(interesting, { maxLength: 40 }), fc.boolean(), (codes, latin1Only) => {
        const source = String.fromCharCode(...(latin1Only ? codes.map((c) => c & 0xff) : codes));
        expect(suspectOffsets(source, page)).toEqual(byRegex(source, page));
      }),
      { numRuns: 200 },
    );
  });

  it('reads every Latin-1 character alone and at each position of a word', () => {
    for (const name of PAGES) {
      const page = codepage(name);
      for (let c = 0; c < 0x100; c++) {
        for (const pad of ['', 'a', 'ab', 'abc', 'abcd']) {
          for (const wide of ['', '\u2014']) {
            const source = pad + String.fromCharCode(c) + 'xyz' + wide;
            expect(suspectOffsets(source, page)).toEqual(byRegex(source, page));
          }
        }
      }
    }
  });

  it('leaves UTF-8 output to the regex', () => {
    expect(suspectOffsets('abc', codepage('utf8'))).toBeUndefined();
  });

  it('gives lowering the same ops and diagnostics as each text tested alone', () => {
    // Escapes (whose value is shorter than their span) next to suspect characters and clean text.
    const source = 'a&lt;\u0007b\u2014c&amp;é\r\nñ\u0301x<textAlignCenter>\u00a0y\n<textAlignLeft>ok\n';
    const { ast } = parse(source);
    const lowered = (parsed: boolean) => {
      const raw: RawDiagnostic[] = [];
      return { ops: lowerRaw(ast, loadProfile(5), raw, { parsed }), raw };
    };
    const viaScan = lowered(true);
    expect(viaScan).toEqual(lowered(false));
    expect(viaScan.raw.map((d) => d.code)).toEqual(['text/control-removed', 'text/transliterated', 'text/transliterated', 'text/normalized']);
  });

  it('lowers any source as the text-by-text test does', () => {
    const piece = fc.oneof(
      fc.constantFrom('&lt;', '&amp;', '<textAlignCenter>', '<bold>', '</bold>', '\r\n', '\n', '\t', 'é', 'ñ\u0301', '\u2014', '\u00a0', '\u0007', '\u2500'),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.constantFrom(5, 'MAKER5T20', 1, 2, 3, 4), (pieces, printer) => {
        const { ast } = parse(pieces.join(''));
        const lowered = (parsed: boolean) => {
          const raw: RawDiagnostic[] = [];
          return { ops: lowerRaw(ast, loadProfile(printer), raw, { parsed }), raw };
        };
        expect(lowered(true)).toEqual(lowered(false));
      }),
      { numRuns: 300 },
    );
  });
});
