// Text made safe and printable for one code page: CRLF/CR → LF; C0/C1 control characters other
// than LF and TAB removed (text must never smuggle ESC, GS, DLE or NUL to the printer); characters
// the code page lacks transliterated or replaced by "?". Each change is a diagnostic.
import type { RawDiagnostic } from '../diagnostics.js';
import type { Codepage, CodepageTable } from './codepage.js';
import { transliterate } from './transliterate.js';

export interface SanitizeContext {
  codepage: Codepage;
  /** The printer's name, for messages ("… is not in CP850 on Epson TM-T20"). */
  printer: string;
  diagnostics: RawDiagnostic[];
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
  const where = `${ctx.codepage.name} on ${ctx.printer}`;
  const encodable = (s: string) => isEncodable(s, table);
  let out = '';
  let from = 0;
  // Jump from one suspect character to the next (a native scan), copying what lies between.
  const find = ctx.codepage.findSuspect;
  find.lastIndex = 0;
  for (let m = find.exec(value); m !== null; m = find.exec(value)) {
    const i = m.index;
    const c = value.charCodeAt(i);
    if (c > 0xff && (c < 0xd800 || c >= 0xe000) && table !== null && table[c]! >= 0) continue;
    out += value.slice(from, i);
    if (c === 13) {
      if (value.charCodeAt(i + 1) !== 10) out += '\n';
      from = i + 1;
      continue;
    }
    const width = isSurrogatePair(value, i) ? 2 : 1;
    const ch = value.slice(i, i + width);
    from = i + width;
    const start = offset + i;
    const end = start + width;
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
      ctx.diagnostics.push({
        code: 'text/control-removed',
        message: `control character ${codePoint(ch)} removed: text cannot send printer commands`,
        start,
        end,
      });
    } else if (table === null) {
      if (width === 2) out += ch;
      else {
        out += '?';
        ctx.diagnostics.push({ code: 'text/replaced', message: `lone surrogate ${codePoint(ch)} replaced by "?"`, start, end });
      }
    } else if (width === 1 && table[c]! >= 0) {
      out += ch;
    } else {
      const alt = transliterate(ch, encodable);
      if (alt !== undefined) {
        out += alt;
        ctx.diagnostics.push({
          code: 'text/transliterated',
          message: `${codePoint(ch)} "${ch}" is not in ${where}: printed as "${alt}"`,
          start,
          end,
        });
      } else {
        out += '?';
        ctx.diagnostics.push({
          code: 'text/replaced',
          message: `${codePoint(ch)} "${ch}" is not in ${where}: printed as "?"`,
          start,
          end,
        });
      }
    }
    find.lastIndex = i + width;
  }
  return from === 0 ? value : out + value.slice(from);
}

function isEncodable(s: string, table: CodepageTable): boolean {
  if (table === null) return true;
  for (let i = 0; i < s.length; i++) if (table[s.charCodeAt(i)]! < 0) return false;
  return true;
}

function isSurrogatePair(s: string, i: number): boolean {
  const hi = s.charCodeAt(i);
  const lo = s.charCodeAt(i + 1);
  return hi >= 0xd800 && hi < 0xdc00 && lo >= 0xdc00 && lo < 0xe000;
}

function codePoint(ch: string): string {
  return 'U+' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}
