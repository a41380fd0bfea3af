// Sensible ASCII stand-ins for characters a code page lacks. Checked before falling back to
// stripping accents (NFD) and, last, to "?".

export const TRANSLITERATIONS: Readonly<Record<string, string>> = Object.freeze({
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"',
  '\u00AB': '"', '\u00BB': '"', '\u2039': '<', '\u203A': '>',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2026': '...', '\u2022': '*', '\u00B7': '.', '\u2219': '.',
  '\u20AC': 'EUR', '\u2122': 'TM', '\u2116': 'No',
  '\u00A0': ' ', '\u2007': ' ', '\u2009': ' ', '\u200A': ' ', '\u202F': ' ', '\u2002': ' ', '\u2003': ' ',
  '\u200B': '', '\u200C': '', '\u200D': '', '\u2060': '', '\uFEFF': '',
  '\u2190': '<-', '\u2192': '->', '\u2264': '<=', '\u2265': '>=', '\u2260': '!=',
  '\u00BC': '1/4', '\u00BD': '1/2', '\u00BE': '3/4',
  '\u0152': 'OE', '\u0153': 'oe', '\u00C6': 'AE', '\u00E6': 'ae', '\u00DF': 'ss',
});

const COMBINING = /[\u0300-\u036f]/g;

/** An ASCII-or-code-page form of `ch`, or undefined if none is sensible. */
export function transliterate(ch: string, encodable: (s: string) => boolean): string | undefined {
  const mapped = TRANSLITERATIONS[ch];
  if (mapped !== undefined && encodable(mapped)) return mapped;
  const stripped = ch.normalize('NFD').replace(COMBINING, '');
  if (stripped && stripped !== ch && encodable(stripped)) return stripped;
  return undefined;
}
