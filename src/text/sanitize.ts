// Text made safe and printable for one code page: CRLF/CR → LF; C0/C1 control characters other
// than LF and TAB removed (text must never smuggle ESC, GS, DLE or NUL to the printer); text in
// any normalization form printed alike (a letter and its combining accents as the precomposed
// letter, or as a page with combining marks writes it, silently; zero-width characters and BOMs
// removed, silently; other spaces, full-width forms, ligatures… as their compatibility form, with
// an info); characters the code page lacks transliterated or replaced by "?", with a warning;
// combining marks past 30 on one character dropped, with a warning (normalising a long run of
// marks costs the square of its length).
import { cacheMap } from '../caches.js';
import type { DiagnosticCode, RawDiagnostic } from '../diagnostics.js';
import { INVISIBLE, type Codepage, type CodepageTable } from './codepage.js';
import { canonicalForm, compatibilityForm, strippedForm, tableForm } from './transliterate.js';

export interface SanitizeContext {
  codepage: Codepage;
  /** The printer's name, for messages ("… is not in CP850 on Epson TM-T20"). */
  printer: string;
  diagnostics: RawDiagnostic[];
  /** What each different character (with its marks) met in this compile prints as; made on first use. */
  known?: Map<string, Printed>;
}

/** A combining mark at `lastIndex`: it belongs to the character before it. */
const MARK = /\p{M}/uy;
/** Zero-width characters, bidi controls and the BOM (codepage.ts's INVISIBLE): they print nothing, so they go silently. */
const ZERO_WIDTH = new RegExp(`^[${INVISIBLE}]$`);
/**
 * The most combining marks one character keeps: UAX #15's stream-safe bound on a run of
 * non-starters. Normalising reorders a run by insertion sort, so one letter followed by 250 KiB of
 * alternating marks took seconds; a run past this is dropped, so every call to `normalize` sees at
 * most one character and 30 marks, and the sanitiser stays linear in its input.
 */
export const MAX_MARKS = 30;
/** Spaces other than U+0020 (NBSP, thin, em, ideographic…): a printer prints them all as a space. */
const SPACE = /^\p{Zs}$/u;

/**
 * Per-character answers for the characters met so far (the same few, receipt after receipt): the
 * checks below cost a regex or an ICU call each, a lookup once known.
 */
const isMarkUnit = cached((c) => MARK_ALONE.test(String.fromCharCode(c)));
const MARK_ALONE = /^\p{M}$/u;
const nfcOfUnit = cached((c) => String.fromCharCode(c).normalize('NFC'));

function cached<T extends NonNullable<unknown>>(compute: (c: number) => T): (c: number) => T {
  const known = cacheMap<number, T>();
  const remember = (c: number) => {
    const v = compute(c);
    known.set(c, v);
    return v;
  };
  return (c) => known.get(c) ?? remember(c);
}

/**
 * Returns `value` cleaned (the same string when nothing needs changing); `offset` is where
 * `value` starts in the source, for diagnostics.
 */
export function sanitizeText(value: string, offset: number, ctx: SanitizeContext): string {
  return ctx.codepage.suspect.test(value) ? sanitizeSuspect(value, offset, ctx) : value;
}

/** `sanitizeText` for text the caller already found a suspect character in. */
export function sanitizeSuspect(value: string, offset: number, ctx: SanitizeContext): string {
  const { table } = ctx.codepage;
  let out = '';
  let from = 0;
  // Jump from one suspect character to the next (a native scan), copying what lies between.
  const find = ctx.codepage.findSuspect;
  find.lastIndex = 0;
  for (let m = find.exec(value); m !== null; m = find.exec(value)) {
    let i = m.index;
    const c = value.charCodeAt(i);
    // Above Latin-1 but in the code page (box drawing in CP850…): printed as it is, even where its
    // NFC is another character the page lacks (Mac Roman's Ω, U+2126). (No page has a surrogate.)
    // Not a combining mark the page has (CP1258's tones): with its letter, it may be a
    // letter the page has precomposed, printed so below.
    if (c > 0xff && table !== null && table[c]! >= 0 && !isMark(value, i)) continue;
    if (c === 13) {
      out += value.slice(from, i);
      if (value.charCodeAt(i + 1) !== 10) out += '\n';
      from = i + 1;
      continue;
    }
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
      out += value.slice(from, i);
      ctx.diagnostics.push({
        code: 'text/control-removed',
        message: `control character ${codePoint(String.fromCharCode(c))} removed: text cannot send printer commands`,
        start: offset + i,
        end: offset + i + 1,
      });
      from = i + 1;
      continue;
    }
    // A combining mark belongs to the letter before it, if that letter was copied as it is.
    if (from < i && isMark(value, i) && isBase(value.charCodeAt(i - 1))) i--;
    out += value.slice(from, i);
    const end = clusterEnd(value, i);
    out += printable(value.slice(i, end), offset + i, offset + end, table, ctx);
    from = marksEnd(value, end);
    if (from > end) {
      ctx.diagnostics.push({
        code: 'text/marks-removed',
        message: `${countPoints(value, end, from)} combining marks past the first ${MAX_MARKS} on one character removed`,
        start: offset + end,
        end: offset + from,
      });
    }
    find.lastIndex = from;
  }
  return out + value.slice(from);
}

/** What one character and its combining marks print as, and the diagnostic that says so (its span aside). */
interface Printed {
  text: string;
  code?: DiagnosticCode;
  message?: string;
}

/**
 * What one character and its combining marks print as in the code page, with its diagnostic. Worked
 * out once per compile for each different unit (`ctx.known`): text that repeats a character the page
 * lacks (2 MiB of "ŝ") then costs a lookup per character, not a transliteration.
 */
function printable(unit: string, start: number, end: number, table: CodepageTable, ctx: SanitizeContext): string {
  const known = (ctx.known ??= new Map());
  let p = known.get(unit);
  if (p === undefined) {
    p = printed(unit, table, ctx);
    known.set(unit, p);
  }
  if (p.code !== undefined) ctx.diagnostics.push({ code: p.code, message: p.message!, start, end });
  return p.text;
}

function printed(unit: string, table: CodepageTable, ctx: SanitizeContext): Printed {
  if (ZERO_WIDTH.test(unit)) return { text: '' };
  // Another normal form of the same text (NFD accents, Ω for Ω) prints the same, silently.
  const ch = unit.length === 1 ? nfcOfUnit(unit.charCodeAt(0)) : unit.normalize('NFC');
  if (table === null) {
    if (!isLoneSurrogate(ch)) return { text: ch };
    return { text: '?', code: 'text/replaced', message: `lone surrogate ${codePoint(ch)} replaced by "?"` };
  }
  const encodable = (s: string) => isEncodable(s, table);
  const where = `${ctx.codepage.name} on ${ctx.printer}`;
  const sent = describe(unit);
  if (SPACE.test(ch)) return { text: ' ', code: 'text/normalized', message: `${sent} is printed as a plain space` };
  if (encodable(ch)) return { text: ch };
  // The same text as the page writes it (CP1258: ệ as ê and a combining dot below), silently too.
  const written = canonicalForm(ch, encodable);
  if (written !== undefined) return { text: written };
  const listed = tableForm(ch, encodable);
  const compatible = listed === undefined ? compatibilityForm(ch, encodable) : undefined;
  if (compatible !== undefined) {
    return { text: compatible, code: 'text/normalized', message: `${sent} is not in ${where}: printed in its compatibility form "${compatible}"` };
  }
  const alt = listed ?? strippedForm(ch, encodable);
  if (alt !== undefined) return { text: alt, code: 'text/transliterated', message: `${sent} is not in ${where}: printed as "${alt}"` };
  return { text: '?', code: 'text/replaced', message: `${sent} is not in ${where}: printed as "?"` };
}

/** The end of the character at `i` (a surrogate pair counts as one) and the first MAX_MARKS combining marks after it. */
function clusterEnd(value: string, i: number): number {
  let end = i + (isSurrogatePair(value, i) ? 2 : 1);
  for (let marks = 0; marks < MAX_MARKS && isMark(value, end); marks++) end += isSurrogatePair(value, end) ? 2 : 1;
  return end;
}

/** The end of the run of combining marks at `at` (`at` itself when there is none). */
function marksEnd(value: string, at: number): number {
  let end = at;
  while (isMark(value, end)) end += isSurrogatePair(value, end) ? 2 : 1;
  return end;
}

/** Code points in `value` from `start` to `end`. */
function countPoints(value: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i += isSurrogatePair(value, i) ? 2 : 1) n++;
  return n;
}

function isMark(value: string, at: number): boolean {
  const c = value.charCodeAt(at);
  if (c < 0x300) return false;
  // Stryker disable next-line LogicalOperator: with `&&` the test never holds, and every code unit from U+0300 up goes to the sticky \p{M} regex, which gives the per-unit answer outside the surrogates (the shortcut only saves the regex)
  if (c < 0xd800 || c >= 0xe000) return isMarkUnit(c);
  MARK.lastIndex = at;
  return MARK.test(value);
}

/**
 * A character a combining mark can sit on, among those copied as they are (the only ones asked
 * about): anything but TAB and LF. Controls, C1 controls and surrogates are never copied as they
 * are: the suspect class always takes them.
 */
function isBase(c: number): boolean {
  return c >= 0x20;
}

function isEncodable(s: string, table: Int16Array): boolean {
  for (let i = 0; i < s.length; i++) if (table[s.charCodeAt(i)]! < 0) return false;
  return true;
}

function isSurrogatePair(s: string, i: number): boolean {
  const hi = s.charCodeAt(i);
  const lo = s.charCodeAt(i + 1);
  return hi >= 0xd800 && hi < 0xdc00 && lo >= 0xdc00 && lo < 0xe000;
}

function isLoneSurrogate(s: string): boolean {
  const c = s.charCodeAt(0);
  return s.length === 1 && c >= 0xd800 && c < 0xe000;
}

/** `U+201C "“"`, or the code points of a letter and its marks, as sent. */
function describe(unit: string): string {
  const points = [...unit].map((ch) => codePoint(ch)).join(' ');
  return `${points} "${unit}"`;
}

function codePoint(ch: string): string {
  return 'U+' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}
