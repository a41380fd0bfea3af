// What the CLI prints of text it did not write: stored values a partner, a terminal or a webhook
// receiver chose (a terminal's versaoAgente, a report's detalhe, a reference, a webhook URL or
// error), shown to an operator's terminal, where a control character is a command (ESC [2J clears
// the screen, OSC 0 sets the title, OSC 8 makes a link), a bidi control reorders what is read and
// an invisible format character makes two different values look the same.
//
// Before: printable('1.0\x1b]0;pwned\x07'), json({ v: 'a\u009bb' })
// After:  '1.0\\x1b]0;pwned\\x07',          '{\n  "v": "a\\u009bb"\n}'

/**
 * Control characters (Cc: C0, DEL, C1), format characters (Cf) and lone surrogates (Cs; a surrogate
 * pair is a character and passes, a lone half has no UTF-8 and would print as U+FFFD). Cf is the
 * bidi controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI), which reorder what is read, and the invisible
 * ones: U+200B a@x.com\u200b, U+00AD soft hyphen, U+2060 word joiner, U+FEFF, the tag characters
 * U+E0000… (invisible text). Printed as themselves they made `users list` show two accounts alike.
 * The whole category rather than a list, so a character Unicode adds to it is escaped too; the price
 * is that an emoji's zero-width joiner (👨\u200d👩) or a flag's tags print escaped, which an
 * operator's terminal can bear. U+180E is named as well: Cf since Unicode 6.3, a space before.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\u180e]/gu;

/** What JSON.stringify leaves as it is of UNSAFE (it escapes C0 controls and lone surrogates itself; its own line breaks stay). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\p{Cf}\u180e]/gu;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * `text` with every unsafe character written as an escape: `\xNN` below U+0100, `\uNNNN` up to
 * U+FFFF (a lone surrogate too), `\u{NNNNN}` above (a tag character: U+E0041 is `\u{e0041}`).
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const n = c.codePointAt(0)!;
    return n < 0x100 ? `\\x${hex(n, 2)}` : n <= 0xffff ? `\\u${hex(n, 4)}` : `\\u{${hex(n, 5)}}`;
  });
}

/**
 * `--json` output: JSON.stringify escapes C0 controls and lone surrogates, not DEL, C1 or format
 * characters; those are written as `\uNNNN` too (one per UTF-16 unit above U+FFFF, as JSON has it),
 * so the text is safe to show and parses to the same value.
 */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, (c) => Array.from({ length: c.length }, (_, i) => `\\u${hex(c.charCodeAt(i), 4)}`).join(''));
}

/** A value shown quoted (a reference: its quotes show where it begins and ends), escaped as JSON is. */
export const quoted = (value: unknown): string => json(value);
