// Text as people send it: any Unicode normalization form, compatibility characters, zero-width
// characters. The same Portuguese text prints the same bytes whatever form it arrives in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, listProfiles } from '../../src/index.js';
import iconv from 'iconv-lite';
import { canonicalForm, compatibilityForm, strippedForm, tableForm } from '../../src/text/transliterate.js';
import { hex } from '../support/hex.js';

const cp850 = listProfiles().flatMap((p) => (p.codepage.encoding === 'cp850' ? [p.code] : []));
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
    ['left-to-right mark', '\u200e'],
    ['right-to-left override', '\u202e'],
    ['arabic letter mark', '\u061c'],
    ['left-to-right isolate', '\u2066'],
    ['right-to-left isolate', '\u2067'],
    ['first strong isolate', '\u2068'],
    ['pop directional isolate', '\u2069'],
  ])('remove a %s silently, on every template', (_what, ch) => {
    for (const p of listProfiles()) expect(printed(`${ch}ab${ch}c`, p)).toEqual(printed('abc', p));
  });

  it('leave the characters around them as they are: U+2065 (unassigned, between the word joiners and the isolates) prints on UTF-8 output', () => {
    // The probe's text on the generic template: "ab" and a line end, nothing said.
    expect(printed('a\u2066b\u2069\u061c', 0)).toEqual({ hex: '61620a', diagnostics: [] });
    expect(printed('\u2065\u061b\u061d', 0)).toEqual({ hex: 'e281a5d89bd89d0a', diagnostics: [] });
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

// The sanitiser and the fallbacks at their exact edges, each kept because a mutant survived without
// it (`npm run mutation`, bench/MUTATION.md): the exact bytes and diagnostics the mutated code changed.
const diags = (r: ReturnType<typeof compile>) => r.diagnostics.map((d) => [d.severity, d.code, d.message, d.span.start.column, d.span.end.column]);

describe('a character the code page lacks, with no table entry and no compatibility form', () => {
  it('prints as its letter without accents, with a warning naming what was printed', () => {
    const r = compile('ŝ ĉ', { printer: 5 });
    // ESC @, ESC t 2 (CP850), "s c", LF.
    expect(hex(r.bytes)).toBe('1b401b74027320630a');
    expect(diags(r)).toEqual([
      ['warning', 'text/transliterated', 'U+015D "ŝ" is not in CP850 on Epson TM-T20: printed as "s"', 1, 2],
      ['warning', 'text/transliterated', 'U+0109 "ĉ" is not in CP850 on Epson TM-T20: printed as "c"', 3, 4],
    ]);
  });

  it('prints the same for its decomposed form (letter + combining mark)', () => {
    expect(hex(compile('s\u0302', { printer: 5 }).bytes)).toBe('1b401b7402730a');
  });
});

describe('the sanitiser, character class by character class (exact bytes and diagnostics)', () => {
  const T20 = 'is not in CP850 on Epson TM-T20';
  // [source, template, bytes after the ESC @ ESC t prelude (CP850 printers) or all bytes (generic), diagnostics]
  const cases: [string, string, number, string, (string | number)[][]][] = [
    ['NBSP is a space; C1 controls U+0080 and U+009F go', 'a\u00a0b\u009fc\u0080d', 5, '61206263640a', [
      ['info', 'text/normalized', 'U+00A0 "\u00a0" is printed as a plain space', 2, 3],
      ['warning', 'text/control-removed', 'control character U+009F removed: text cannot send printer commands', 4, 5],
      ['warning', 'text/control-removed', 'control character U+0080 removed: text cannot send printer commands', 6, 7],
    ]],
    ['an em space is a space', '\u2003', 5, '200a', [['info', 'text/normalized', 'U+2003 "\u2003" is printed as a plain space', 1, 2]]],
    ['zero-width characters and BOMs go silently', '\u200bA\ufeff', 5, '410a', []],
    ['a mark with no letter before it is replaced', '\u0301a', 5, '3f610a', [['warning', 'text/replaced', `U+0301 "\u0301" ${T20}: printed as "?"`, 1, 2]]],
    ['a mark after a line break is not joined to it', '\n\u0301', 5, '0a3f0a', [['warning', 'text/replaced', `U+0301 "\u0301" ${T20}: printed as "?"`, 1, 2]]],
    ['a mark after a tab is not joined to it', '\t\u0301', 5, '093f0a', [['warning', 'text/replaced', `U+0301 "\u0301" ${T20}: printed as "?"`, 2, 3]]],
    ['two marks on one letter go with it', 's\u0302\u0323', 5, '730a', [['warning', 'text/transliterated', `U+0073 U+0302 U+0323 "s\u0302\u0323" ${T20}: printed as "s"`, 1, 4]]],
    ['an accent on a letter that has it already is stripped with it', 'e\u0301\u0301', 5, '650a', [['warning', 'text/transliterated', `U+0065 U+0301 U+0301 "e\u0301\u0301" ${T20}: printed as "e"`, 1, 4]]],
    ['a mark on an astral character stays with it', '😀\u0301x', 5, '3f780a', [['warning', 'text/replaced', `U+1F600 U+0301 "😀\u0301" ${T20}: printed as "?"`, 1, 4]]],
    ['a full-width letter with a combining accent composes', 'ｅ\u0301', 5, '820a', [['info', 'text/normalized', `U+FF45 U+0301 "ｅ\u0301" ${T20}: printed in its compatibility form "é"`, 1, 3]]],
    ['a ligature is its letters; the euro sign is from the table', 'ﬁ€', 5, '66694555520a', [
      ['info', 'text/normalized', `U+FB01 "ﬁ" ${T20}: printed in its compatibility form "fi"`, 1, 2],
      ['warning', 'text/transliterated', `U+20AC "€" ${T20}: printed as "EUR"`, 2, 3],
    ]],
    ['a fraction without its own byte uses a plain slash', '⅓', 5, '312f330a', [['info', 'text/normalized', `U+2153 "⅓" ${T20}: printed in its compatibility form "1/3"`, 1, 2]]],
    ['UTF-8 output: lone surrogates are replaced', '\ud800x\udc00', 0, '3f783f0a', [
      ['warning', 'text/replaced', 'lone surrogate U+D800 replaced by "?"', 1, 2],
      ['warning', 'text/replaced', 'lone surrogate U+DC00 replaced by "?"', 3, 4],
    ]],
    ['UTF-8 output: an astral character and its mark print as they are', '😀\u0301x', 0, 'f09f9880cc81780a', []],
    ['a mark after a removed DEL is not joined to it, so the DEL never comes back', 'x\x7f\u0301', 5, '783f0a', [
      ['warning', 'text/control-removed', 'control character U+007F removed: text cannot send printer commands', 2, 3],
      ['warning', 'text/replaced', `U+0301 "\u0301" ${T20}: printed as "?"`, 3, 4],
    ]],
    ['UTF-8 output: a mark after a removed C1 control is not joined to it', 'x\u0085\u0301', 0, '78cc810a', [
      ['warning', 'text/control-removed', 'control character U+0085 removed: text cannot send printer commands', 2, 3],
    ]],
    ['UTF-8 output: the character before a zero-width one is copied as it is (the ohm sign stays U+2126)', '\u2126\u200b', 0, 'e284a60a', []],
  ];
  it.each(cases)('%s', (_what, source, printer, bytes, expected) => {
    const r = compile(source, { printer });
    const prelude = printer === 0 ? '' : '1b401b7402';
    expect(hex(r.bytes)).toBe(prelude + bytes);
    expect(diags(r)).toEqual(expected);
  });
});

describe('more exact edges', () => {
  it('replaces a character whose compatibility form has a part the code page lacks (ǅ = D + ž), rather than printing part of it', () => {
    const r = compile('ǅ', { printer: 5 });
    expect(hex(r.bytes)).toBe('1b401b74023f0a');
    expect(diags(r)).toEqual([['warning', 'text/replaced', 'U+01C5 "ǅ" is not in CP850 on Epson TM-T20: printed as "?"', 1, 2]]);
  });
});

describe('a code page with combining marks (CP1258, Vietnamese)', () => {
  const cp1258 = { extends: 'MAKER5T20', codepage: { encoding: 'cp1258', select: null } };
  /** The bytes between ESC @ and the closing LF, as hex. */
  const body = (s: string) => {
    const r = compile(s, { printer: cp1258 });
    expect(r.diagnostics).toEqual([]);
    const h = hex(r.bytes);
    expect(h.startsWith('1b40') && h.endsWith('0a')).toBe(true);
    return h.slice(4, -2);
  };

  // Bytes from Microsoft's CP1258 table (as iconv-lite decodes it): E1 á, EA ê, F4 ô, FD ư,
  // CC U+0300 grave, EC U+0301 acute, DE U+0303 tilde, D2 U+0309 hook above, F2 U+0323 dot below.
  it('prints a letter and a mark it has precomposed as the precomposed letter, as on every page: á is E1 whatever form it arrives in', () => {
    expect(body('a\u0301')).toBe('e1');
    expect(body('\u00e1')).toBe('e1');
  });

  it('keeps a mark after a letter it has no precomposed form of: x + U+0301 is 78 EC', () => {
    expect(body('x\u0301')).toBe('78ec');
  });

  it.each([
    ['ạ', '61f2'], ['ệ', 'eaf2'], ['ế', 'eaec'], ['ỗ', 'f4de'], ['ừ', 'fdcc'], ['ử', 'fdd2'],
    ['Việt Nam', '5669eaf274204e616d'],
  ])('writes %s, which it lacks precomposed, as a letter it has and its combining tone marks, silently (%s)', (text, bytes) => {
    expect(body(text)).toBe(bytes);
    expect(body(text.normalize('NFD'))).toBe(bytes);
  });

  it('prints every precomposed Vietnamese letter (U+1EA0 to U+1EF9) as bytes that decode to the same text, with no diagnostic', () => {
    for (let c = 0x1ea0; c <= 0x1ef9; c++) {
      const letter = String.fromCharCode(c);
      const bytes = Buffer.from(body(letter), 'hex');
      expect(iconv.decode(bytes, 'cp1258').normalize('NFC'), letter).toBe(letter);
    }
  });

  it('still transliterates, with its warning, a letter it can write neither way: ŝ (no ŝ, no combining circumflex) as s', () => {
    const r = compile('ŝ', { printer: cp1258 });
    expect(hex(r.bytes)).toBe('1b40730a');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['text/transliterated']);
  });
});

describe('a character above Latin-1 that the page has, whose NFC is another it lacks', () => {
  it('prints as itself: Mac Roman has the ohm sign U+2126 (BD), not its NFC, Greek Ω U+03A9', () => {
    const r = compile('\u2126', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'macroman', select: null } } });
    expect(hex(r.bytes)).toBe('1b40bd0a');
    expect(r.diagnostics).toEqual([]);
  });
});

describe('canonicalForm', () => {
  const cp850Has = (s: string) => [...s].every((ch) => iconv.encode(ch, 'cp850')[0] !== 0x3f || ch === '?');
  it('finds none where the page has no combining marks, and none for a letter with no marks', () => {
    expect(canonicalForm('ŝ', cp850Has)).toBeUndefined();
    expect(canonicalForm('ệ', cp850Has)).toBeUndefined();
    expect(canonicalForm('€', () => true)).toBeUndefined();
  });

  it('composes the most marks it can into the letter: ệ with ê and a combining dot below, not e and two marks', () => {
    expect(canonicalForm('ệ', () => true)).toBe('ệ');
    expect(canonicalForm('ệ', (s) => !s.includes('ệ') && !s.includes('ẹ'))).toBe('ê\u0323');
    expect(canonicalForm('ệ', (s) => !s.includes('ệ') && !s.includes('ê'))).toBe('ẹ\u0302');
    expect(canonicalForm('ệ', (s) => /^[a-z\u0300-\u036f]*$/.test(s))).toBe('e\u0323\u0302');
  });

  it('tries every combination of up to four marks: a with a dot below and three more, on a page that has ạ but no combining dot below', () => {
    const four = 'a\u0323\u0302\u0301\u0308';
    expect(canonicalForm(four.normalize('NFC'), (s) => /^[a-z\u1ea1\u0300-\u0322\u0324-\u036f]*$/.test(s))).toBe('\u1ea1\u0302\u0301\u0308');
  });

  it('never reorders two marks of one class, which would be other text: a + acute + diaeresis is not ä + acute', () => {
    const text = 'a\u0301\u0308'.normalize('NFC');
    expect(canonicalForm(text, (s) => /^[a-z\u00e4\u0300-\u036f]*$/.test(s))).toBe('a\u0301\u0308');
    expect(canonicalForm(text, (s) => /^[a-z\u00e4\u0308]*$/.test(s))).toBeUndefined();
  });

  it('past four marks, tries only the letter with every mark after it', () => {
    const five = 'a\u0323\u0302\u0301\u0308\u030a'.normalize('NFC');
    expect(canonicalForm(five, (s) => /^[a-z\u0300-\u036f]*$/.test(s))).toBe(five.normalize('NFD'));
    expect(canonicalForm(five, (s) => !s.includes('a\u0323'.normalize('NFC')) && /^[a-z\u1ea1\u0300-\u036f]*$/.test(s))).toBe(five.normalize('NFD'));
  });
});

describe('each fallback form, asked with a page of its own', () => {
  const any = () => true;
  /** Printable ASCII but "." and "/". */
  const noDotOrSlash = (s: string) => /^[\x20-\x2d\x30-\x7e]*$/.test(s);

  it('the table gives a stand-in only where it has one the page can print', () => {
    expect(tableForm('\u2026', any)).toBe('...');
    expect(tableForm('\u2026', noDotOrSlash)).toBeUndefined();
    expect(tableForm('x', any)).toBeUndefined();
  });

  it('the compatibility form only where it differs, and with every part printable (the fraction slash as "/")', () => {
    expect(compatibilityForm('\u00bd', any)).toBe('1\u20442');
    expect(compatibilityForm('\u00bd', (s) => s !== '\u2044')).toBe('1/2');
    expect(compatibilityForm('\u00bd', noDotOrSlash)).toBeUndefined();
    expect(compatibilityForm('a', any)).toBeUndefined();
  });

  it('the letter without its accents only where it differs', () => {
    expect(strippedForm('\u015d', any)).toBe('s');
    expect(strippedForm('s', any)).toBeUndefined();
  });
});

describe('surrogates and marks at the edges of their ranges (exact bytes and diagnostics)', () => {
  const T20 = 'is not in CP850 on Epson TM-T20';
  const cases: [string, string, number, string, (string | number)[][]][] = [
    ['UTF-8 output keeps a no-break space as it is', 'a\u00a0b', 0, '61c2a0620a', []],
    ['UTF-8 output keeps U+E000, the first code point after the surrogates', '\ue000', 0, 'ee80800a', []],
    ['an astral combining mark stays with its letter', 'a\u{1D167}', 5, '3f0a', [['warning', 'text/replaced', `U+0061 U+1D167 "a\u{1D167}" ${T20}: printed as "?"`, 1, 4]]],
    ['so does one whose high surrogate is D800 (U+101FD)', 'a\u{101FD}', 5, '3f0a', [['warning', 'text/replaced', `U+0061 U+101FD "a\u{101FD}" ${T20}: printed as "?"`, 1, 4]]],
    ['U+10000 (D800 DC00) is one character', '\u{10000}', 5, '3f0a', [['warning', 'text/replaced', `U+10000 "\u{10000}" ${T20}: printed as "?"`, 1, 3]]],
    ['a high surrogate before U+E000 is not a pair', '\ud800\ue000', 5, '3f3f0a', [
      ['warning', 'text/replaced', `U+D800 "\ud800" ${T20}: printed as "?"`, 1, 2],
      ['warning', 'text/replaced', `U+E000 "\ue000" ${T20}: printed as "?"`, 2, 3],
    ]],
    ['a low surrogate after another character is not paired with it', '€\udc00', 5, '4555523f0a', [
      ['warning', 'text/transliterated', `U+20AC "€" ${T20}: printed as "EUR"`, 1, 2],
      ['warning', 'text/replaced', `U+DC00 "\udc00" ${T20}: printed as "?"`, 2, 3],
    ]],
    ['two low surrogates are two characters', '\udc00\udc00', 5, '3f3f0a', [
      ['warning', 'text/replaced', `U+DC00 "\udc00" ${T20}: printed as "?"`, 1, 2],
      ['warning', 'text/replaced', `U+DC00 "\udc00" ${T20}: printed as "?"`, 2, 3],
    ]],
    ['a mark on a space goes with the space', ' \u0301', 5, '200a', [['warning', 'text/transliterated', `U+0020 U+0301 " \u0301" ${T20}: printed as " "`, 1, 3]]],
  ];
  it.each(cases)('%s', (_what, source, printer, bytes, expected) => {
    const r = compile(source, { printer });
    expect(hex(r.bytes)).toBe((printer === 0 ? '' : '1b401b7402') + bytes);
    expect(diags(r)).toEqual(expected);
  });
});

describe('plain-text output', () => {
  it('prints a lone combining mark above the surrogates (U+FE20) as itself, not as a lone surrogate', () => {
    const { bytes, diagnostics } = compile('\ufe20x', { printer: 0 });
    expect(diagnostics).toEqual([]);
    expect(new TextDecoder().decode(bytes).startsWith('\ufe20x')).toBe(true);
  });
});
