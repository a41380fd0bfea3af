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
