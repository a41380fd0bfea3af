// Text as people send it: any Unicode normalization form, compatibility characters, zero-width
// characters. The same Portuguese text prints the same bytes whatever form it arrives in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, listProfiles } from '../src/index.js';

const cp850 = listProfiles().flatMap((p) => (p.codepage.encoding === 'cp850' ? [p.code] : []));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const printed = (s: string, printer: Parameters<typeof compile>[1]['printer'] = 5) => {
  const { bytes, diagnostics } = compile(s, { printer });
  return { hex: hex(bytes), diagnostics: diagnostics.map((d) => `${d.severity} ${d.code}@${d.span.start.column}-${d.span.end.column}`) };
};

const LETTERS = 'áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÜÇ';

describe('decomposed accents', () => {
  it.each([...LETTERS])('print %s written as a letter and a combining mark exactly as the precomposed letter, with no diagnostic', (letter) => {
    const nfd = letter.normalize('NFD');
    expect(nfd.length).toBe(2);
    expect(printed(`Promo${nfd}o`)).toEqual(printed(`Promo${letter}o`));
    expect(printed(`Promo${nfd}o`).diagnostics).toEqual([]);
  });

  it('compose on the generic template too, so plain text is aligned by letters', () => {
    expect(printed('<textAlignRight>Ação'.normalize('NFD'), 0)).toEqual(printed('<textAlignRight>Ação', 0));
  });

  it('fall back like the precomposed letter when the code page has no such letter', () => {
    const { diagnostics } = compile('ệ'.normalize('NFD'), { printer: 5 });
    expect(printed('ệ'.normalize('NFD')).hex).toBe(printed('ệ').hex);
    expect(diagnostics.map((d) => [d.code, d.span.start.column, d.span.end.column])).toEqual([['text/transliterated', 1, 4]]);
  });

  it('print a stray combining mark with no letter before it as "?", with a warning', () => {
    expect(printed('\u0301a')).toEqual({ hex: '1b401b74023f610a', diagnostics: ['warning text/replaced@1-2'] });
  });
});

describe('compatibility characters', () => {
  it.each([
    ['a no-break space', 'a\u00a0b', 'a b'],
    ['thin, em and ideographic spaces', 'a\u2009b\u2003c\u3000d', 'a b c d'],
    ['full-width letters and digits', 'Ｔｏｔａｌ １２', 'Total 12'],
    ['ligatures', 'ﬁm ﬂor', 'fim flor'],
    ['superscripts CP850 lacks', 'm⁴', 'm4'],
    ['fractions CP850 lacks', '⅓ kg', '1/3 kg'],
  ])('print %s as their nearest CP850 form, with an info where the form changed', (_what, sent, expected) => {
    const { hex: got, diagnostics } = printed(sent);
    expect(got).toBe(printed(expected).hex);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.every((d) => d.startsWith('info text/normalized@'))).toBe(true);
  });

  it('keep the ordinal indicators, superscripts and fractions CP850 has, unchanged and silent', () => {
    expect(printed('1º 2ª ½ ¼ m² m³')).toEqual({ hex: '1b401b740231a72032a620ab20ac206dfd206dfc0a', diagnostics: [] });
  });

  it('print the ordinal indicators as letters on a code page without them, with an info', () => {
    const latin2 = { extends: 'MAKER5T20', codepage: { encoding: 'iso-8859-2', select: null } };
    expect(printed('1º 2ª', latin2)).toEqual({ hex: '31 6f 20 32 61 0a'.replace(/ /g, '').replace(/^/, '1b40'), diagnostics: ['info text/normalized@2-3', 'info text/normalized@5-6'] });
  });
});

describe('zero-width characters', () => {
  it.each([
    ['zero-width space', '\u200b'],
    ['zero-width joiner', '\u200d'],
    ['word joiner', '\u2060'],
    ['byte order mark', '\ufeff'],
  ])('remove a %s silently, on every template', (_what, ch) => {
    for (const p of listProfiles()) expect(printed(`${ch}ab${ch}c`, p)).toEqual(printed('abc', p));
  });
});

/** Portuguese text: letters with their accents, digits, ordinals, punctuation, spaces, lines. */
const portuguese = fc.string({
  unit: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...'abcdefghijlmnopqrstuvxzABCDEFGHIJLMNOPQRSTUVXZ') },
    { weight: 3, arbitrary: fc.constantFrom(...LETTERS) },
    { weight: 2, arbitrary: fc.constantFrom(...'0123456789 .,;:!?-/()$%ºª') },
    fc.constant('\n'),
  ),
  maxLength: 80,
});

/** Compatibility variants CP850 lacks for a character: NFKC maps each one back to it. */
const FULL_WIDTH = (ch: string) => (ch > ' ' && ch <= '~' ? [String.fromCharCode(ch.charCodeAt(0) + 0xfee0)] : []);
const VARIANTS: Readonly<Record<string, readonly string[]>> = {
  ' ': ['\u00a0', '\u2002', '\u2009', '\u202f', '\u3000'],
  '4': ['⁴', '₄'],
  '5': ['⁵'],
};

/** `s` with some characters swapped for compatibility variants and some "fi"s for the ligature. */
function compatible(s: string, picks: readonly number[]): string {
  let k = 0;
  const pick = <T,>(options: readonly T[]) => options[picks[k++ % picks.length]! % options.length];
  return [...s.replace(/fi/g, () => (pick([0, 1]) ? 'ﬁ' : 'fi'))]
    .map((ch) => {
      const base = ch.normalize('NFD');
      const variants = [...(VARIANTS[ch] ?? []), ...FULL_WIDTH(ch), ...(base.length > 1 ? FULL_WIDTH(base[0]!).map((v) => v + base.slice(1)) : [])];
      return variants.length && pick([0, 1]) ? pick(variants)! : ch;
    })
    .join('');
}

describe('the same Portuguese text in any normalization form', () => {
  it('gives identical bytes on every CP850 printer whether sent as NFC, NFD or an NFKC-equivalent', () => {
    fc.assert(
      fc.property(portuguese, fc.array(fc.nat(), { minLength: 1, maxLength: 16 }), fc.constantFrom(...cp850), (text, picks, p) => {
        const nfc = compile(text.normalize('NFC'), { printer: p });
        const nfd = compile(text.normalize('NFD'), { printer: p });
        const variant = compatible(text, picks);
        expect(variant.normalize('NFKC')).toBe(text.normalize('NFKC'));
        const kc = compile(variant, { printer: p });
        expect(hex(nfd.bytes)).toBe(hex(nfc.bytes));
        expect(hex(kc.bytes)).toBe(hex(nfc.bytes));
        expect(nfc.diagnostics).toEqual([]);
        expect(nfd.diagnostics).toEqual([]);
        expect(kc.diagnostics.every((d) => d.severity === 'info' && d.code === 'text/normalized')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('long runs of combining marks', () => {
  /** Every string `normalize` is asked about during `run`, by length in code points. */
  function normalizedLengths(run: () => void): number[] {
    const original = String.prototype.normalize;
    const lengths: number[] = [];
    String.prototype.normalize = function (this: string, form?: string) {
      lengths.push([...this].length);
      return original.call(this, form);
    };
    try {
      run();
    } finally {
      String.prototype.normalize = original;
    }
    return lengths;
  }

  it('keep 30 marks on one letter and drop the rest, with one warning spanning what was dropped', () => {
    for (const p of listProfiles()) {
      const marks = '\u0301\u0327'.repeat(40);
      const { diagnostics } = compile(`x a${marks} y`, { printer: p });
      const removed = diagnostics.filter((d) => d.code === 'text/marks-removed');
      expect(removed.map((d) => [d.severity, d.message, d.span.start.offset, d.span.end.offset])).toEqual([
        ['warning', '50 combining marks past the first 30 on one character removed', 3 + 30, 3 + 80],
      ]);
      // Exactly what the letter with its first 30 marks prints.
      expect(printed(`x a${marks} y`, p).hex).toBe(printed(`x a${marks.slice(0, 30)} y`, p).hex);
    }
  });

  it('keep 30 marks silently: the bound is UAX #15\'s stream-safe one', () => {
    expect(compile(`a${'\u0301'.repeat(30)}`, { printer: 0 }).diagnostics).toEqual([]);
    expect(compile(`a${'\u0301'.repeat(31)}`, { printer: 0 }).diagnostics.map((d) => d.code)).toEqual(['text/marks-removed']);
  });

  it('count an astral mark as one mark', () => {
    const { diagnostics } = compile(`a${'\u{1D167}'.repeat(32)}`, { printer: 0 });
    expect(diagnostics.map((d) => [d.message, d.span.start.offset, d.span.end.offset])).toEqual([
      ['2 combining marks past the first 30 on one character removed', 61, 65],
    ]);
  });

  it('never hand normalize() more than a character and 30 marks, however long the run (so compiling stays linear)', () => {
    // One letter and 64 KiB of alternating marks: normalising the run whole reorders it by
    // insertion sort, which took seconds at 250 KiB.
    const run = `a${'\u0301\u0327'.repeat(16 * 1024)}`;
    for (const printer of [0, 5]) {
      const lengths = normalizedLengths(() => compile(`${run}\n${'\u0301'.repeat(40_000)}`, { printer }));
      expect(lengths.length).toBeGreaterThan(0);
      expect(Math.max(...lengths)).toBeLessThanOrEqual(31);
    }
  });
});

describe('a character the code page lacks, repeated', () => {
  it('gets its own diagnostic at each place it appears, with the same words', () => {
    const { diagnostics } = compile('ŝaŝ\nŝ', { printer: 5 });
    expect(diagnostics.map((d) => [d.code, d.span.start.line, d.span.start.column, d.message])).toEqual([
      ['text/transliterated', 1, 1, 'U+015D "ŝ" is not in CP850 on Epson TM-T20: printed as "s"'],
      ['text/transliterated', 1, 3, 'U+015D "ŝ" is not in CP850 on Epson TM-T20: printed as "s"'],
      ['text/transliterated', 2, 1, 'U+015D "ŝ" is not in CP850 on Epson TM-T20: printed as "s"'],
    ]);
    expect(printed('ŝaŝ\nŝ').hex).toBe(printed('sas\ns').hex);
  });
});
