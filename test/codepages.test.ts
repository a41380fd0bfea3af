// The generated code page file against iconv-lite, the library it came from: regenerate with
// `npm run codepages` if iconv-lite changes a mapping. Pages outside the file still work, through
// iconv-lite itself.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { CODEPAGE_CHARS } from '../src/text/codepages.generated.js';
import { codepage, codepageChars } from '../src/text/codepage.js';
import { compile, loadProfile, ProfileError } from '../src/index.js';

const everyByte = Buffer.from(Array.from({ length: 256 }, (_, b) => b));

describe('code pages', () => {
  it.each(Object.keys(CODEPAGE_CHARS))('%s matches iconv-lite byte for byte', (name) => {
    expect(CODEPAGE_CHARS[name]).toBe(iconv.decode(everyByte, name));
  });

  it('takes any other single-byte page from iconv-lite', () => {
    expect(CODEPAGE_CHARS['iso-8859-2']).toBeUndefined();
    expect(codepageChars('ISO-8859-2')).toBe(iconv.decode(everyByte, 'iso-8859-2'));
    const { bytes, diagnostics } = compile('Łódź', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'iso-8859-2' } } });
    expect(diagnostics).toEqual([]);
    expect([...bytes.subarray(5, 9)]).toEqual([...iconv.encode('Łódź', 'iso-8859-2')]);
  });

  it('refuses unknown and multi-byte pages, and a profile naming one, as a ProfileError', () => {
    expect(() => codepage('cp99999')).toThrow('unknown code page "cp99999"');
    expect(() => codepage('shift_jis')).toThrow('not a single-byte code page');
    for (const encoding of ['cp99999', 'constructor', '__proto__', 'toString']) {
      expect(() => loadProfile({ extends: 'MAKER5T20', codepage: { encoding } })).toThrow(ProfileError);
      expect(() => loadProfile({ extends: 'MAKER5T20', codepage: { encoding } })).toThrow(`unknown code page "${encoding}"`);
    }
  });

  it('never encodes a letter as a C0 byte or DEL, on any single-byte page iconv-lite has: TCVN\'s Ự (DC2) counts as absent', () => {
    iconv.getCodec('cp850'); // loads iconv-lite's table of encodings
    const pages = Object.entries(iconv.encodings as Record<string, unknown>).filter(([, v]) => (v as { type?: string })?.type === '_sbcs').map(([name]) => name);
    expect(pages.length).toBeGreaterThan(50);
    expect(pages).toEqual(expect.arrayContaining(['tcvn', 'viscii']));
    for (const name of pages) {
      const { table } = codepage(name);
      for (let c = 0; c < 65536; c++) {
        const b = table![c]!;
        if (b >= 0 && (b < 0x20 || b === 0x7f)) expect(c, `${name}: U+${c.toString(16)} → ${b}`).toBe(b);
      }
    }
    // Printed as their nearest letter instead, with a warning; never the command byte.
    const tcvn = compile('Ự Ú', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'tcvn', select: null } } });
    expect([...tcvn.bytes]).toEqual([0x1b, 0x40, 0x55, 0x20, 0x55, 0x0a]);
    expect(tcvn.diagnostics.map((d) => d.code)).toEqual(['text/transliterated', 'text/transliterated']);
    const viscii = compile('Ẳ Ỵ', { printer: { extends: 'MAKER5T20', codepage: { encoding: 'viscii', select: null } } });
    expect([...viscii.bytes]).toEqual([0x1b, 0x40, 0x41, 0x20, 0x59, 0x0a]);
  });
});
