// Profiles: data validated at load, found by id or code, extendable by users.
import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { COMMAND_KEYS, COMMANDS, compile, createProfile, listProfiles, loadProfile, ProfileError, profileSelftest, profileSources, type ProfileInput } from '../../src/index.js';
import { commandRows } from '../../src/profiles/index.js';
import { ProfileSchema } from '../../src/profiles/schema.js';

describe('profiles', () => {
  it('lists the seven templates of the spec with their ids and codes', () => {
    expect(listProfiles().map((p) => `${p.id} ${p.code}`)).toEqual([
      '0 GENERICA', '1 MAKER1MP4200', '2 MAKER2PR3000', '3 MAKER3DR800', '4 MAKER4I9', '5 MAKER5T20', '6 MAKER6TP450',
    ]);
  });

  it.each([5, '5', 'MAKER5T20', 'maker5t20', ' 5 '])('finds the T20 by %j', (ref) => {
    expect(loadProfile(ref).printer).toBe('Epson TM-T20');
  });

  it('follows the support table of the spec for capabilities', () => {
    const has = (cap: Parameters<ReturnType<typeof loadProfile>['caps']['has']>[0]) => listProfiles().slice(1).map((p) => p.caps.has(cap));
    expect(has('cut.partial')).toEqual([true, true, false, true, true, true]);
    expect(has('condensed')).toEqual([true, true, true, false, true, true]);
    // The spec gives the MP-4200 a QR command, but it only prints in ESC/Bema mode: raster by
    // default, the native GS k Q one override away (docs/printers.md).
    expect(has('qr.native')).toEqual([false, false, false, true, false, false]);
    expect(loadProfile(1).qr.bracket?.command).toBe('bematech-gs-k-q');
  });

  it('keeps a source for every entry PRINTERS.md marks M or L', () => {
    expect(Object.keys(profileSources(3))).toContain('image.command');
    expect(profileSources(2)['commands.cutFull']!.confidence).toBe('L');
    for (const p of listProfiles()) for (const s of Object.values(profileSources(p))) expect(s.source.length).toBeGreaterThan(0);
  });

  it('builds a user profile on top of a template with extends', () => {
    const t20qr = loadProfile({ extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } });
    expect(t20qr.caps.has('qr.native')).toBe(true);
    expect(t20qr.commands?.cutFull).toBe('1D 56 41 00');
    const { bytes } = compile('<qrcode>abc</qrcode>', { printer: t20qr });
    expect(Buffer.from(bytes).includes(Buffer.from([0x1d, 0x28, 0x6b, 0x06, 0x00, 0x31, 0x50, 0x30]))).toBe(true);
  });

  it('rejects an unknown printer with a usage error naming the known ones', () => {
    expect(() => loadProfile('MAKER9X')).toThrow(ProfileError);
    expect(() => compile('x', { printer: 42 })).toThrow(/unknown printer "42"; known: 0 GENERICA/);
  });

  it('rejects a profile that fails the schema, saying where', () => {
    expect(() => loadProfile({ extends: 5, commands: { drawer: '1B 70 0' } })).toThrow(/\/commands\/drawer/);
    expect(() => loadProfile({ extends: 'nothing' })).toThrow(/extends unknown printer "nothing"/);
  });
});

// What loading a profile promises besides its bytes — one object per printer, a ProfileError for
// every bad reference or value a user can give, the capability set: kept because mutants of
// src/profiles survived without it (`npm run mutation`, bench/MUTATION.md).
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

  it('says createProfile takes a profile object, with a TypeError, given anything else', () => {
    for (const [data, shown] of [[null, 'null'], ['MAKER5T20', 'the string "MAKER5T20"'], [[], 'an array']] as const) {
      expect(() => createProfile(data as never)).toThrow(new TypeError(`createProfile(): data must be an object such as { extends: 'MAKER5T20' }, not ${shown}`));
    }
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

// The self-test's rows from the command table (test/profiles/command-table.test.ts has the table
// itself): kept because a mutant of src/profiles survived without it (`npm run mutation`, bench/MUTATION.md).
describe('the self-test rows', () => {
  it('show every command once, in table order, grouped by row in order of first appearance', () => {
    const rows = commandRows();
    expect(rows.flatMap(([, keys]) => keys)).toEqual(COMMAND_KEYS);
    expect(rows.map(([row]) => row)).toEqual([...new Set(COMMAND_KEYS.map((k) => COMMANDS[k].row))]);
    for (const [row, keys] of rows) for (const key of keys) expect(COMMANDS[key].row).toBe(row);
    expect(rows.find(([row]) => row === 'align L/C/R')![1]).toEqual(['alignLeft', 'alignCenter', 'alignRight']);
  });
});

describe('profileSources', () => {
  it('gives a template its own sources over those of the baseline it extends', () => {
    // The T20 says nothing of ESC d itself: that source is escpos-base's; its QR source is its own.
    expect(profileSources('MAKER5T20')['commands.feed']!.source).toMatch(/ESC d n/);
    expect(profileSources(5)['qr.command']!.source).toMatch(/TM-T20/);
    expect(profileSources(0)).toEqual({});
  });

  it('gives a profile object the template’s sources under its own', () => {
    const own = { confidence: 'H' as const, source: 'measured on our printer' };
    const sources = profileSources({ extends: 'MAKER5T20', commands: { cutFull: '1D 56 00' }, sources: { 'commands.cutFull': own } });
    expect(sources['commands.cutFull']).toEqual(own);
    expect(sources['qr.command']).toEqual(profileSources(5)['qr.command']);
  });

  it('gives a profile object whose id is past the templates its own sources only', () => {
    const own = { confidence: 'H' as const, source: 'measured on our printer' };
    expect(profileSources({ extends: 'MAKER5T20', id: 7, sources: { 'commands.cutFull': own } })).toEqual({ 'commands.cutFull': own });
    expect(profileSources({ extends: 'MAKER5T20', id: 7 })).toEqual({});
  });

  it('keeps the sources out of the loaded profile, which compiling reads', () => {
    for (const p of listProfiles()) expect(p.sources).toBeUndefined();
  });
});

describe('profileSelftest', () => {
  it('gives a template its self-test alternatives, and a profile object the template’s under its own', () => {
    expect(profileSelftest('MAKER3DR800').alternatives!.map((a) => a.label.slice(0, 2))).toEqual(['A:', 'B:', 'C:', 'D:']);
    expect(profileSelftest(0)).toEqual({});
    const columns = [{ label: 'ours', normal: 42, condensed: 56 }];
    const mine = profileSelftest({ extends: 'MAKER3DR800', selftest: { columns } });
    expect(mine.columns).toEqual(columns);
    expect(mine.alternatives).toEqual(profileSelftest(3).alternatives);
    expect(profileSelftest({ extends: 'MAKER3DR800', id: 7, selftest: { columns } })).toEqual({ columns });
  });

  it('keeps the self-test data out of the loaded profile, which compiling reads, and holds it to the schema', () => {
    const schema = ProfileSchema.properties.selftest;
    for (const p of listProfiles()) {
      expect(p.selftest).toBeUndefined();
      expect(Value.Check(schema, profileSelftest(p)), p.code).toBe(true);
      // Each alternative is a valid override of its profile.
      for (const { set } of profileSelftest(p).alternatives ?? []) expect(() => loadProfile({ ...(set as ProfileInput), extends: p.code })).not.toThrow();
    }
  });
});
