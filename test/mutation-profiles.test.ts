// Tests written for mutants of src/profiles that survived `npm run mutation` (bench/MUTATION.md):
// what loading a profile promises besides its bytes — one object per printer, a ProfileError for
// every bad reference or value a user can give, the capability set, and the self-test's rows.
import { describe, expect, it } from 'vitest';
import { COMMAND_KEYS, COMMANDS, compile, listProfiles, loadProfile, ProfileError, type ProfileInput } from '../src/index.js';
import { commandRows } from '../src/profiles/index.js';

/** The error `fn` throws (it must throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('loading a profile', () => {
  it('gives one object per built-in printer, however it is named, and listProfiles holds the same ones', () => {
    const t20 = loadProfile(5);
    expect(loadProfile('5')).toBe(t20);
    expect(loadProfile(' maker5t20 ')).toBe(t20);
    expect(listProfiles()[5]).toBe(t20);
  });

  it('gives a loaded profile back as it is, and one object per user profile object', () => {
    const t20 = loadProfile(5);
    expect(loadProfile(t20)).toBe(t20);
    const input: ProfileInput = { extends: 'MAKER5T20', columns: { normal: 42, condensed: 56 } };
    const user = loadProfile(input);
    expect(loadProfile(input)).toBe(user);
    expect(loadProfile(user)).toBe(user);
    expect(user.columns).toEqual({ normal: 42, condensed: 56 });
  });

  it('throws a ProfileError, named so, for a reference to no printer, naming every known one', () => {
    const error = thrown(() => loadProfile('MAKER9X'));
    expect(error).toBeInstanceOf(ProfileError);
    expect(error.name).toBe('ProfileError');
    const known = listProfiles().map((p) => `${p.id} ${p.code}`).join(', ');
    expect(error.message).toBe(`unknown printer "MAKER9X"; known: ${known}`);
    expect(thrown(() => loadProfile({ extends: 'nothing' })).message).toBe(`profile extends unknown printer "nothing"; known: ${known}`);
  });

  it('throws a ProfileError, not a TypeError, for null or an inherited name', () => {
    expect(thrown(() => loadProfile(null as never))).toBeInstanceOf(ProfileError);
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect(thrown(() => loadProfile({ extends: name })).message).toMatch(new RegExp(`^profile extends unknown printer "${name}"`));
    }
  });

  it('checks the whole profile when it extends a baseline or nothing, and reports what is missing', () => {
    for (const input of [{ extends: 'escpos-base' }, { code: 'X' }] as ProfileInput[]) {
      const error = thrown(() => loadProfile(input));
      expect(error).toBeInstanceOf(ProfileError);
      expect(error.message).toMatch(/must have required propert/);
      expect(error.message).toMatch(input.code ? /^invalid printer profile "X": / : /^invalid printer profile \(unnamed\): /);
    }
  });

  it('lets status be null (a printer with no status queries), replacing the template\'s', () => {
    expect(loadProfile('MAKER5T20').status).not.toBeNull();
    const quiet = loadProfile({ extends: 'MAKER5T20', status: null });
    expect(quiet.status).toBeNull();
    expect(compile('x', { printer: quiet }).bytes).toEqual(compile('x', { printer: 5 }).bytes);
  });

  it('rejects an ESC/POS profile without commands or an image, and a QR module range upside down', () => {
    expect(thrown(() => loadProfile({ extends: 0, output: 'escpos' })).message).toBe('invalid printer profile "GENERICA": an escpos profile needs "commands" and "image"');
    const image = loadProfile('MAKER5T20').image!;
    const { widthDots: _w, ...imageData } = image;
    expect(() => loadProfile({ extends: 0, output: 'escpos', image: imageData })).toThrow(/an escpos profile needs "commands" and "image"/);
    expect(thrown(() => loadProfile({ extends: 5, qr: { moduleRange: { min: 8, max: 2 } } })).message).toBe(
      'invalid printer profile "MAKER5T20": qr.moduleRange.min is more than its max',
    );
    expect(loadProfile({ extends: 5, qr: { moduleRange: { min: 4, max: 4 } } }).qr.moduleRange).toEqual({ min: 4, max: 4 });
  });

  it('holds only capabilities: every entry of caps is a capability name', () => {
    for (const p of listProfiles()) for (const cap of p.caps) expect(cap).toMatch(/^(cut|cut\.partial|condensed|drawer|bold|underline|invert|size|qr\.native|codepage\.select|image)$/);
  });
});

describe('the self-test rows', () => {
  it('show every command once, in table order, grouped by row in order of first appearance', () => {
    const rows = commandRows();
    expect(rows.flatMap(([, keys]) => keys)).toEqual(COMMAND_KEYS);
    expect(rows.map(([row]) => row)).toEqual([...new Set(COMMAND_KEYS.map((k) => COMMANDS[k].row))]);
    for (const [row, keys] of rows) for (const key of keys) expect(COMMANDS[key].row).toBe(row);
    expect(rows.find(([row]) => row === 'align L/C/R')![1]).toEqual(['alignLeft', 'alignCenter', 'alignRight']);
  });
});
