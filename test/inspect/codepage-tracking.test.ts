// The disassembler decodes each text run in the code page the stream selected last (ESC t), not
// the profile's: a mutant that dropped that tracking survived every other test (bench/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { disassemble } from '../../src/index.js';

const ESC = 0x1b;
const texts = (bytes: number[], printer?: number) =>
  disassemble(Uint8Array.from(bytes), printer === undefined ? {} : { printer }).map((i) => (i.effect?.type === 'text' ? i.effect.text : i.mnemonic));

describe('the disassembler after ESC t', () => {
  it("decodes text in the profile's code page until the stream selects another", () => {
    // 0x80 and 0x9B: "Ç" and "ø" in CP850 (the TM-T20's), "€" and "›" in CP1252, "Ç" and "¢" in CP437.
    expect(texts([0x80, 0x9b, 0x0a], 5)).toEqual(['Ç\u00f8\n']);
    expect(texts([ESC, 0x74, 16, 0x80, 0x9b, 0x0a], 5)).toEqual(['ESC t', '€\u203a\n']);
    expect(texts([ESC, 0x74, 0, 0x80, 0x9b, 0x0a], 5)).toEqual(['ESC t', 'Ç\u00a2\n']);
  });

  it('follows every switch in order, and keeps the last known page when ESC t names an unknown one', () => {
    expect(texts([ESC, 0x74, 16, 0x80, 0x0a, ESC, 0x74, 2, 0x9b, 0x0a, ESC, 0x74, 0, 0x9b, 0x0a, ESC, 0x74, 99, 0x9b, 0x0a])).toEqual([
      'ESC t', '€\n', 'ESC t', '\u00f8\n', 'ESC t', '\u00a2\n', 'ESC t', '\u00a2\n',
    ]);
  });
});
