// The two escapes of the tag language: `&lt;` prints `<` and `&amp;` prints `&`; no other `&…;`
// is special. `escape()` makes any string print literally.

/** The escapes as they are written, and what each prints. */
export const ESCAPES: Readonly<Record<string, string>> = Object.freeze({ '&lt;': '<', '&amp;': '&' });

const ESCAPE = /&(?:lt|amp);/g;
const SPECIAL = /[&<]/g;

/**
 * Makes `s` print exactly as it is, wherever text goes (between tags, in a `<cell>`): `&` becomes
 * `&amp;` and `<` becomes `&lt;`, so no tag and no escape is left in it.
 *
 * @example
 * compile('<textAlignLeft>' + escape('Pão <cashDrawerOpen>') + '\n', { printer: 5 }); // prints the name, opens nothing
 */
export function escape(s: string): string {
  const text = String(s);
  return text.indexOf('&') < 0 && text.indexOf('<') < 0 ? text : text.replace(SPECIAL, (c) => (c === '&' ? '&amp;' : '&lt;'));
}

/** The text `s` prints: its escapes resolved. */
export function unescape(s: string): string {
  // Stryker disable next-line StringLiteral: a shortcut: with "" every string goes through replace(), which gives back the same text when it has no escape
  return s.indexOf('&') < 0 ? s : s.replace(ESCAPE, (e) => ESCAPES[e]!);
}

/** The escape that starts at `source[at]` (`&lt;` or `&amp;`), if one does. */
export function escapeAt(source: string, at: number): string | undefined {
  if (source.charCodeAt(at + 1) === 0x6c /* l */) return source.startsWith('&lt;', at) ? '&lt;' : undefined;
  return source.startsWith('&amp;', at) ? '&amp;' : undefined;
}
