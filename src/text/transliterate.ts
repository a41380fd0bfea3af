// The forms a character can print as when a code page lacks it, best first: the same text as the
// page writes it (a letter it has, and combining marks it has: CP1258), an explicit stand-in from
// the table below, its Unicode compatibility form (NFKC: ﬁ → fi, Ａ → A, ⁴ → 4), the letter with
// its accents stripped (NFD), and last of all, none (the caller prints "?").

/** Sensible stand-ins for typographic characters (quotes, dashes, €…): printed with a warning. */
export const TRANSLITERATIONS: Readonly<Record<string, string>> = Object.freeze({
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"',
  '\u00AB': '"', '\u00BB': '"', '\u2039': '<', '\u203A': '>',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2026': '...', '\u2022': '*', '\u00B7': '.', '\u2219': '.',
  '\u20AC': 'EUR', '\u2122': 'TM', '\u2116': 'No',
  '\u2190': '<-', '\u2192': '->', '\u2264': '<=', '\u2265': '>=', '\u2260': '!=',
  '\u00BC': '1/4', '\u00BD': '1/2', '\u00BE': '3/4',
  '\u0152': 'OE', '\u0153': 'oe', '\u00C6': 'AE', '\u00E6': 'ae', '\u00DF': 'ss',
});

/**
 * What the compatibility forms of vulgar fractions are made of but no code page here holds:
 * NFKC writes ⅓ as "1⁄3" with U+2044 FRACTION SLASH.
 */
const COMPATIBILITY_PARTS: Readonly<Record<string, string>> = Object.freeze({ '\u2044': '/' });

/** The combining diacritical marks block: what stripping an accent removes. */
const COMBINING = /[\u0300-\u036f]/g;

type Encodable = (s: string) => boolean;

/** The most marks on one letter tried in every combination (at most 2^4 forms); past it, only the letter and every mark after it. */
const MAX_COMBINED = 4;

/**
 * `ch` (in NFC) written as a page with combining marks writes it, if it can be: a letter the page
 * has, composed with some of the marks, and the others after it as the page's combining marks.
 * CP1258 has ê and the combining tone marks but not ệ or ế, which it writes as ê + U+0323 and
 * ê + U+0301, as Windows does. The form is canonically equivalent to `ch` (the same text), so it
 * prints silently; the most marks composed first, so the fewest are printed apart. (A character of
 * the page whose NFC is `ch`, Mac Roman's ohm sign for Ω, is in the page's table already: codepage.ts.)
 */
export function canonicalForm(ch: string, encodable: Encodable): string | undefined {
  const nfd = ch.normalize('NFD');
  const [base, ...marks] = nfd;
  if (marks.length === 0) return undefined;
  // A mask's bits say which marks compose into the letter; past MAX_COMBINED marks only mask 0.
  const inMask = (mask: number, keep: boolean) => marks.filter((_, i) => ((mask & (1 << i)) !== 0) === keep).join('');
  const n = marks.length > MAX_COMBINED ? 0 : marks.length;
  const masks = Array.from({ length: 1 << n }, (_, mask) => mask).sort((a, b) => inMask(b, true).length - inMask(a, true).length);
  for (const mask of masks) {
    const form = (base + inMask(mask, true)).normalize('NFC') + inMask(mask, false);
    // Marks of the same class do not commute (a + acute + diaeresis is not ä + acute): the same text only.
    if (encodable(form) && form.normalize('NFD') === nfd) return form;
  }
  return undefined;
}

/** The table's stand-in for `ch`, if it has one the code page can print. */
export function tableForm(ch: string, encodable: Encodable): string | undefined {
  const mapped = TRANSLITERATIONS[ch];
  return mapped !== undefined && encodable(mapped) ? mapped : undefined;
}

/**
 * The compatibility form of `ch` (NFKC), if it differs and the code page can print it — with
 * U+2044 written as "/". A decomposed letter made of compatibility parts (full-width ｅ plus a
 * combining acute) comes out composed (é).
 */
export function compatibilityForm(ch: string, encodable: Encodable): string | undefined {
  const nfkc = ch.normalize('NFKC');
  if (nfkc === ch) return undefined;
  let out = '';
  for (const part of nfkc) out += encodable(part) ? part : (COMPATIBILITY_PARTS[part] ?? '\uFFFF');
  return out.includes('\uFFFF') || !encodable(out) ? undefined : out;
}

/** `ch` with its combining marks removed (ŝ → s, q́ → q), if that differs and can be printed. */
export function strippedForm(ch: string, encodable: Encodable): string | undefined {
  const stripped = ch.normalize('NFD').replace(COMBINING, '');
  return stripped && stripped !== ch && encodable(stripped) ? stripped : undefined;
}
