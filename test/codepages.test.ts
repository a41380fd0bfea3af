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
});
