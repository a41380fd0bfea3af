// The self-test page: it builds for every template and prints what it promises — the letters,
// both rulers, the three alignments, native and raster QR where native exists, partial then full cut.
import { describe, expect, it } from 'vitest';
import { disassemble, listProfiles, renderPage, selfTest } from '../../src/index.js';
import { ruler } from '../../src/inspect/index.js';

describe.each(listProfiles().map((p) => [p.code, p] as const))('the self-test page for %s', (_code, profile) => {
  const page = selfTest(profile);
  const listing = disassemble(page.bytes, { printer: profile });
  const text = listing.flatMap((i) => (i.effect?.type === 'text' ? [i.effect.text] : [])).join('');
  const effects = listing.map((i) => i.effect?.type);

  it('emits bytes the disassembler reads without an unknown command', () => {
    expect(page.bytes.length).toBeGreaterThan(0);
    expect(page.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(listing.filter((i) => i.kind === 'unknown' || i.kind === 'truncated')).toEqual([]);
  });

  it('names the printer and prints the Portuguese letters and both column rulers', () => {
    expect(text).toContain(profile.printer);
    expect(text).toContain('ç ã õ á é í ó ú â ê ô à ü');
    expect(text).toContain('Ç Ã Õ Á É Í Ó Ú Â Ê Ô À Ü');
    expect(text).toContain(ruler(profile.columns.normal));
    expect(text).toContain(ruler(profile.columns.condensed));
  });

});

const escpos = listProfiles().filter((p) => p.output === 'escpos');
describe.each(escpos.map((p) => [p.code, p] as const))('the self-test page for the ESC/POS printer %s', (_code, profile) => {
  const listing = disassemble(selfTest(profile).bytes, { printer: profile });
  const effects = listing.map((i) => i.effect?.type);

  it('sets all three alignments and cuts partially, then fully', () => {
    const aligns = listing.flatMap((i) => (i.effect?.type === 'align' ? [i.effect.align] : []));
    expect(aligns).toEqual(expect.arrayContaining(['left', 'center', 'right']));
    const cuts = listing.flatMap((i) => (i.effect?.type === 'cut' ? [i.effect.partial] : []));
    expect(cuts).toEqual(profile.caps.has('cut.partial') ? [true, false] : [false, false]);
  });

  it('prints the QR natively and as a raster where the printer has a native command', () => {
    const native = effects.includes('qr-print') || effects.includes('qr');
    const raster = effects.includes('raster') || effects.includes('band');
    expect(native).toBe(profile.caps.has('qr.native'));
    expect(raster).toBe(true);
    const qrs = renderPage(selfTest(profile).bytes, { printer: profile }).marks.filter((m) => m.kind === 'note' && m.label.startsWith('native QR'));
    expect(qrs.length).toBe(profile.caps.has('qr.native') ? 1 : 0);
  });
});

describe('the column ruler', () => {
  it('is exactly as wide as the columns it measures, with a digit every ten', () => {
    expect(ruler(48)).toHaveLength(48);
    expect(ruler(20)).toBe('....+....1....+....2');
  });
});
