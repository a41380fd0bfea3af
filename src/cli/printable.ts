// What the CLI prints of text it did not write: stored values a partner, a terminal or a webhook
// receiver chose (a terminal's versaoAgente, a report's detalhe, a reference, a webhook URL or
// error), shown to an operator's terminal, where a control character is a command (ESC [2J clears
// the screen, OSC 0 sets the title, OSC 8 makes a link) and a bidi control reorders what is read.
//
// Before: printable('1.0\x1b]0;pwned\x07'), json({ v: 'a\u009bb' })
// After:  '1.0\\x1b]0;pwned\\x07',          '{\n  "v": "a\\u009bb"\n}'

/**
 * C0, DEL and C1 controls, lone surrogates, and the bidi controls (ALM, LRM, RLM, LRE…RLO, LRI…PDI).
 * A surrogate pair is a character and passes; a lone half has no UTF-8 and would print as U+FFFD.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** What JSON.stringify leaves as it is of UNSAFE (it escapes C0 controls and lone surrogates itself; its own line breaks stay). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/** `text` with every unsafe character written as an escape: `\xNN` below U+0100, `\uNNNN` above. */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => (c.charCodeAt(0) < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * `--json` output: JSON.stringify escapes C0 controls and lone surrogates, not DEL, C1 or bidi
 * controls; those are written as `\uNNNN` too, so the text is safe to show and parses to the same value.
 */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE_IN_JSON, (c) => `\\u${hex(c, 4)}`);
}

/** A value shown quoted (a reference: its quotes show where it begins and ends), escaped as JSON is. */
export const quoted = (value: unknown): string => json(value);
