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

/** A piece of text: as written (`text` is the source at `start`, `length` long), or one escape (`text` is `<` or `&`). */
export interface TextPiece {
  text: string;
  start: number;
  /** Its length in the source: `text.length` as written, the escape's for an escape. */
  length: number;
}

/** `image` (the source from `start`) in pieces: runs as written, and each escape a piece of its own. */
export function textPieces(image: string, start: number): TextPiece[] {
  const pieces: TextPiece[] = [];
  let from = 0;
  for (let at = -1; (at = image.indexOf('&', at + 1)) >= 0; ) {
    const escape = escapeAt(image, at);
    if (escape === undefined) continue;
    if (at > from) pieces.push({ text: image.slice(from, at), start: start + from, length: at - from });
    pieces.push({ text: ESCAPES[escape]!, start: start + at, length: escape.length });
    from = at + escape.length;
  }
  if (from < image.length) pieces.push({ text: image.slice(from), start: start + from, length: image.length - from });
  return pieces;
}
