// cli/printable.ts: what the CLI prints of stored text it did not write (a terminal's versaoAgente,
// a report's detalhe, a reference, a webhook URL or error) reaches the operator's terminal with no
// control character left to act on, and --json still parses to the same values.
import { describe, expect, it } from 'vitest';
import { json, printable, quoted } from '../../src/cli/printable.js';
import { columns } from '../../src/cli/table.js';

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

describe('printable', () => {
  it('writes C0, DEL and C1 controls, lone surrogates and bidi controls as escapes, and nothing else', () => {
    expect(printable('1.0\x1b[2J\x1b]0;t\x07')).toBe('1.0\\x1b[2J\\x1b]0;t\\x07');
    expect(printable('a\tb\nc\rd\x00e\x7ff\x80g\x9bh')).toBe('a\\x09b\\x0ac\\x0dd\\x00e\\x7ff\\x80g\\x9bh');
    expect(printable('x\ud800y\udc00z')).toBe('x\\ud800y\\udc00z');
    expect(printable('abc\u202etxt.exe\u2066\u200f\u061c')).toBe('abc\\u202etxt.exe\\u2066\\u200f\\u061c');
    for (const safe of ['Ação ç ñ ü', '😀 emoji (a pair)', 'C:\\path\\x', '', '\u00a0nbsp \u00ff']) expect(printable(safe)).toBe(safe);
  });

  it('writes invisible format characters (zero-width, soft hyphen, word joiner, tags) as escapes, so two e-mails never look alike', () => {
    // The probe: `users list` showed a@x.com and a@x.com\u200b (or a\u00ad@x.com, a@x.com\u2060) as two identical rows.
    expect(printable('a@x.com\u200b')).toBe('a@x.com\\u200b');
    expect(printable('a\u00ad@x.com')).toBe('a\\xad@x.com');
    expect(printable('a@x.com\u2060')).toBe('a@x.com\\u2060');
    expect(printable('a@x.com\u180e')).toBe('a@x.com\\u180e');
    expect(printable('\ufeffa\u200c\u200d\u2061\u206f\ufff9')).toBe('\\ufeffa\\u200c\\u200d\\u2061\\u206f\\ufff9');
    expect(printable('ok\u{e0001}\u{e0041}\u{e007f}')).toBe('ok\\u{e0001}\\u{e0041}\\u{e007f}');
    // An emoji joined by ZWJ shows its joiner: the price of escaping every format character.
    expect(printable('\u{1f468}\u200d\u{1f469}')).toBe('\u{1f468}\\u200d\u{1f469}');
    for (const safe of ['e\u0301', '\u00a0', '\u3000', '\u{1f600}', 'ã']) expect(printable(safe)).toBe(safe);
    expect(columns(['E-MAIL'], [['a@x.com'], ['a@x.com\u200b']])).toBe('E-MAIL\na@x.com\na@x.com\\u200b\n');
    const value = { e: 'a@x.com\u200b', s: 'a\u00ad', t: '\u{e0041}' };
    const text = json(value);
    expect(text).toBe('{\n  "e": "a@x.com\\u200b",\n  "s": "a\\u00ad",\n  "t": "\\udb40\\udc41"\n}');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('leaves every code point below U+3000 either as itself or escaped, never an unsafe one', () => {
    for (let c = 0; c < 0x3000; c++) {
      const s = String.fromCharCode(c);
      const out = printable(`a${s}b`);
      expect(UNSAFE.test(out), `U+${c.toString(16)}`).toBe(false);
    }
  });

  it('keeps --json output parseable to the same values, with DEL, C1 and bidi controls escaped', () => {
    const value = { v: 'a\x7fb\u009bc\u202ed\x1be\ud800', n: [1, null] };
    const text = json(value);
    expect(text).not.toMatch(UNSAFE_OUTSIDE_LINES);
    expect(JSON.parse(text)).toEqual(value);
    expect(quoted('r\u009b')).toBe('"r\\u009b"');
    expect(quoted(null)).toBe('null');
  });

  it('escapes every cell of a listing, and pads by what is shown', () => {
    expect(columns(['A', 'B'], [['x\x1b[2J', 'y\x07'], ['long-cell', 'z']])).toBe('A          B\nx\\x1b[2J   y\\x07\nlong-cell  z\n');
  });
});

/** An unsafe character other than the line breaks JSON.stringify's indentation writes. */
const UNSAFE_OUTSIDE_LINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
