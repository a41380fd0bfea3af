import { describe, expect, it } from 'vitest';
import { clearCaches } from '../../src/caches.js';
import { compile, listProfiles, loadProfile } from '../../src/index.js';
import { codepage } from '../../src/text/codepage.js';

describe('the compiler caches (src/caches.ts)', () => {
  it('keeps what it built until clearCaches(), then builds it again, equal', () => {
    const profile = loadProfile(5);
    const page = codepage('cp850');
    const all = listProfiles();
    expect(loadProfile('MAKER5T20')).toBe(profile);
    expect(codepage('CP850')).toBe(page);
    expect(listProfiles()).toBe(all);
    clearCaches();
    const again = loadProfile(5);
    expect(again).not.toBe(profile);
    expect(codepage('cp850')).not.toBe(page);
    expect(listProfiles()).not.toBe(all);
    expect(listProfiles().find((p) => p.id === 5)).toBe(again);
    expect(again.bytes).toEqual(profile.bytes);
    expect(Array.from(codepage('cp850').table!)).toEqual(Array.from(page.table!));
  });

  it('compiles the same bytes from rebuilt caches', () => {
    const text = '<textAlignCenter>Café ½ ﬁm<qrcode>https://example.com</qrcode><paperCutPartial>';
    const before = compile(text, { printer: 5 }).bytes;
    const user = { extends: 5, columns: { normal: 42, condensed: 56 } };
    const userBefore = compile(text, { printer: user }).bytes;
    clearCaches();
    expect(compile(text, { printer: 5 }).bytes).toEqual(before);
    expect(compile(text, { printer: { ...user } }).bytes).toEqual(userBefore);
  });
});
