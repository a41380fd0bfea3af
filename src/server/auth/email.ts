// An account's e-mail: what may be one, and the key every lookup compares. Written once for the
// paths that create an account (`bobina users add`, the store's create) and the ones that find or
// count one (findByEmail, the login limits), so they cannot disagree: the limits used to trim while
// the lookup did not, so " a@x.com" and "a@x.com" were two accounts sharing one failure counter.
// Format characters (Unicode's Cf: zero-width space, soft hyphen, word joiner, bidi controls…) are
// refused too: "a@x.com\u200b" was an account of its own that `users list` showed as "a@x.com".
// Only creating is refused: findByEmail still finds an account an earlier version stored with one.
//
// Before: emailRefusal(' a@x.com'), emailRefusal('a@x.com\u200b'), emailRefusal('a@x.com'), emailKey('Ana@Example.com')
// After:  'has a space or a line break at its start or end',
//         'has an invisible or text-reordering format character (U+200B) at offset 7', undefined, 'ana@example.com'
import { loneSurrogate } from '../well-formed.js';

/** At most RFC 5321's path limit: 254 characters. */
export const EMAIL_MAX = 254;

/** Something@something with no whitespace (Unicode's too), no control character and no lone surrogate anywhere (format characters are refused before). */
const SHAPE = /^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+$/u;

/**
 * A format character (Cf), U+180E (MONGOLIAN VOWEL SEPARATOR) named too: it is Cf since Unicode 6.3
 * but was a space (Zs) before, so a runtime on older Unicode data would let it through `\p{Cf}`.
 * Most are invisible, the rest reorder or join the text around them; none belongs in an address one
 * is meant to read and type. IDNA2008 allows ZWJ/ZWNJ in a few scripts' domain labels: such a
 * domain is written in its ASCII (xn--) form here.
 */
const FORMAT = /[\p{Cf}\u180e]/u;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** An account created with an e-mail emailRefusal refuses: a caller's error (the CLI checks first and says why). */
export class EmailRefused extends Error {
  override name = 'EmailRefused';
}

/** Why `email` cannot be an account's e-mail, or undefined when it can. */
export function emailRefusal(email: string): string | undefined {
  if (email.length === 0) return 'is empty';
  if (/^\s|\s$/u.test(email)) return 'has a space or a line break at its start or end';
  const control = /\p{Cc}/u.exec(email);
  if (control) return `has a control character (${codePoint(control[0])}) at offset ${control.index}`;
  const format = FORMAT.exec(email);
  if (format) return `has an invisible or text-reordering format character (${codePoint(format[0])}) at offset ${format.index}`;
  if (loneSurrogate(email)) return 'is not well-formed Unicode (a lone surrogate)';
  if (email.length > EMAIL_MAX) return `is longer than ${EMAIL_MAX} characters`;
  if (!SHAPE.test(email)) return 'is not an e-mail address (one @ between a name and a domain, no spaces)';
  return undefined;
}

/**
 * The key an e-mail is stored, found and counted by: the address as written, lower-cased, nothing
 * trimmed (an account's e-mail never has a space at its ends, so " a@x.com" finds none).
 */
export const emailKey = (email: string): string => email.toLowerCase();
