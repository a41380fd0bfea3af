// The whole-source scan (src/text/scan.ts) against the regex it stands in for: for any source and
// any code page, the offsets it finds are exactly those where the page's suspect class matches.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawDiagnostic } from '../../src/diagnostics.js';
import { loadProfile, parse } from '../../src/index.js';
import { lowerRaw, sourceScan } from '../../src/lower/index.js';
import { codepage } from '../../src/text/codepage.js';
import { PACKED_CODEPAGES } from '../../src/text/codepages.generated.js';
import { scanSource } from '../../src/text/scan.js';
import { LineIndex } from '../../src/diagnostics.js';

/** What the scan must find: each offset the page's global suspect regex matches, each LF, each tab. */
function byRegex(source: string, page: ReturnType<typeof codepage>) {
  const all = (re: RegExp) => [...source.matchAll(re)].map((m) => m.index);
  return { suspects: all(new RegExp(page.findSuspect.source, 'g')), lineFeeds: all(/\n/g), tabs: all(/\t/g), cr: source.includes('\r') };
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
        expect(scanSource(source, page)).toEqual(byRegex(source, page));
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
            expect(scanSource(source, page)).toEqual(byRegex(source, page));
          }
        }
      }
    }
  });

  it('leaves UTF-8 output to the regex', () => {
    expect(scanSource('abc', codepage('utf8'))).toBeUndefined();
  });

  it('gives lowering the same ops and diagnostics as each text tested alone', () => {
    // Escapes (whose value is shorter than their span) next to suspect characters and clean text.
    const source = 'a&lt;\u0007b\u2014c&amp;é\r\nñ\u0301x<textAlignCenter>\u00a0y\n<textAlignLeft>ok\n';
    const { ast } = parse(source);
    const lowered = (scanned: boolean) => {
      const raw: RawDiagnostic[] = [];
      return { ops: lowerRaw(ast, loadProfile(5), raw, { scan: scanned ? sourceScan(source, loadProfile(5)) : undefined }), raw };
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
        const lowered = (scanned: boolean) => {
          const raw: RawDiagnostic[] = [];
          const profile = loadProfile(printer);
          return { ops: lowerRaw(ast, profile, raw, { scan: scanned ? sourceScan(ast.source, profile) : undefined }), raw };
        };
        expect(lowered(true)).toEqual(lowered(false));
      }),
      { numRuns: 300 },
    );
  });

  it('lowers long lines, tabs and wrapped text as the text-by-text search does', () => {
    const word = fc.oneof(fc.constantFrom('\t', '\n', ' ', '<textCondensedOn>', '<textCondensedOff>', '<textSize width="2">', '&lt;', 'ação'), fc.string({ minLength: 1, maxLength: 30 }));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 40 }), fc.constantFrom('none', 'word') as fc.Arbitrary<'none' | 'word'>, (words, wrap) => {
        const { ast } = parse(words.join(''));
        const lowered = (scanned: boolean) => {
          const raw: RawDiagnostic[] = [];
          const profile = loadProfile('MAKER5T20');
          return { ops: lowerRaw(ast, profile, raw, { wrap, scan: scanned ? sourceScan(ast.source, profile) : undefined }), raw };
        };
        expect(lowered(true)).toEqual(lowered(false));
      }),
      { numRuns: 300 },
    );
  });

  it('places diagnostics by its line feeds as by a search of the source', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '\n', 'é', '\u2014', 'xyz'), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, at) => {
        const source = parts.join('');
        const scan = scanSource(source, codepage('cp850'))!;
        const byScan = new LineIndex(source, scan.lineFeeds);
        const bySearch = new LineIndex(source);
        for (const a of at) expect(byScan.position(a % (source.length + 2))).toEqual(bySearch.position(a % (source.length + 2)));
      }),
    );
  });
});
