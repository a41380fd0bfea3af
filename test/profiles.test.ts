// Profiles: data validated at load, found by id or code, extendable by users.
import { describe, expect, it } from 'vitest';
import { compile, listProfiles, loadProfile, ProfileError, profileSources } from '../src/index.js';

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

  it('keeps the sources out of the loaded profile, which compiling reads', () => {
    for (const p of listProfiles()) expect(p.sources).toBeUndefined();
  });
});
