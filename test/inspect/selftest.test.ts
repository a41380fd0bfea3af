// The self-test page: it builds for every template and prints what it promises — the letters,
// the rulers (and the alternative column counts), the three alignments, the QR code and each
// alternative the profile lists, labelled, then a partial and a full cut; its spans and
// diagnostics are its own.
import { describe, expect, it } from 'vitest';
import { disassemble, listProfiles, loadProfile, profileSelftest, renderPng, selfTest, type ProfileInput } from '../../src/index.js';
import { withOverride } from '../../src/profiles/index.js';
import { expandTemplate } from '../../src/profiles/bytes.js';
import { ruler } from '../../src/inspect/index.js';
import { BARCODE_SAMPLES, testImage } from '../../src/inspect/selftest.js';
import { ENCODERS, SYMBOLOGIES } from '../../src/lower/barcode/index.js';
import { haveZbar, zbarDecode, zbarReads } from '../support/zbar.js';
import { rasterImages } from '../support/raster.js';

const PAYLOAD = 'https://github.com/bobina/selftest?q=ÇÃÕ-123';

/**
 * The page for one printer, built inside the test that reads it (a mutant in the compiler then
 * takes effect there; vitest.mutation.config.ts empties the caches before each test).
 */
function build(code: string) {
  const profile = loadProfile(code);
  const page = selfTest(profile);
  const listing = disassemble(page.bytes, { printer: profile });
  const text = listing.flatMap((i) => (i.effect?.type === 'text' ? [i.effect.text] : [])).join('');
  return { profile, page, listing, text };
}

describe.each(listProfiles().map((p) => p.code))('the self-test page for %s', (code) => {

  it('emits bytes the disassembler reads without an unknown command', () => {
    const { page, listing } = build(code);
    expect(page.bytes.length).toBeGreaterThan(0);
    expect(page.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(listing.filter((i) => i.kind === 'unknown' || i.kind === 'truncated')).toEqual([]);
  });

  it('names the printer and prints the Portuguese letters, both column rulers and each alternative pair', () => {
    const { profile, text } = build(code);
    expect(text).toContain(profile.printer);
    expect(text).toContain('ç ã õ á é í ó ú â ê ô à ü');
    expect(text).toContain('Ç Ã Õ Á É Í Ó Ú Â Ê Ô À Ü');
    for (const c of [profile.columns, ...(profileSelftest(profile).columns ?? [])]) {
      expect(text).toContain(ruler(c.normal));
      expect(text).toContain(ruler(c.condensed));
    }
  });

  it('keeps its spans and diagnostics in its own conteudo', () => {
    const { page } = build(code);
    for (const r of page.records) {
      expect(r.start).toBeGreaterThanOrEqual(0);
      expect(r.end).toBeLessThanOrEqual(page.conteudo.length);
    }
    expect(page.records.reduce((n, r) => n + r.length, 0)).toBe(page.bytes.length);
    for (const d of page.diagnostics) {
      if (d.code === 'lower/qr-raster-fallback') expect(page.conteudo.slice(d.span.start.offset, d.span.end.offset)).toBe(`<qrcode>${PAYLOAD}</qrcode>`);
    }
  });
});

const escpos = listProfiles().flatMap((p) => (p.output === 'escpos' ? [p.code] : []));
describe.each(escpos)('the self-test page for the ESC/POS printer %s', (code) => {

  it('sets all three alignments and cuts partially, then fully', () => {
    const { profile, listing } = build(code);
    const aligns = listing.flatMap((i) => (i.effect?.type === 'align' ? [i.effect.align] : []));
    expect(aligns).toEqual(expect.arrayContaining(['left', 'center', 'right']));
    const cuts = listing.flatMap((i) => (i.effect?.type === 'cut' ? [i.effect.partial] : []));
    expect(cuts).toEqual(profile.caps.has('cut.partial') ? [true, false] : [false, false]);
  });

  it('prints its own QR code, a raster one beside a native one, and one per listed alternative, each labelled', () => {
    const { profile, page, listing, text } = build(code);
    const alternatives = (profileSelftest(profile).alternatives ?? []).filter((a) => (a.part ?? 'qr') === 'qr');
    const natives = listing.filter((i) => i.effect?.type === 'qr-store' || i.effect?.type === 'qr');
    // The raster images of QR codes (barcodes and the test image are raster images too).
    const qrTags = [...new Set(page.records.filter((r) => page.conteudo.startsWith('<qrcode', r.start)).map((r) => r.start))];
    const rasters = qrTags.flatMap((start) => rasterImages(page.bytes, page.records.filter((r) => r.start === start)));
    expect(natives.length + rasters.length).toBe(1 + (profile.caps.has('qr.native') ? 1 : 0) + alternatives.length);
    // Each listed alternative's QR is printed the way that alternative's profile prints it.
    const nativeAlternatives = alternatives.filter(({ set }) => loadProfile({ ...(set as ProfileInput), extends: code }).caps.has('qr.native')).length;
    expect(natives).toHaveLength((profile.caps.has('qr.native') ? 1 : 0) + nativeAlternatives);
    expect(rasters).toHaveLength(1 + alternatives.length - nativeAlternatives);
    for (const ins of natives) expect(ins.args.data).toBe(PAYLOAD);
    for (const { label, set } of alternatives) expect(text).toContain(`ALTERNATIVE ${label}\nset ${JSON.stringify(set)}\n`);
  });
});

// zbarimg reads a whole page (about 1000 × 8000 pixels): seconds of CPU, more on a loaded machine.
describe.each(listProfiles().filter((p) => p.output === 'escpos').map((p) => p.code))('the barcodes and image of the self-test page for %s', { timeout: 120_000 }, (code) => {
  it('prints every symbology, and each barcode alternative, and each scans to its sample', () => {
    const { profile, page, text } = build(code);
    const alternatives = (profileSelftest(profile).alternatives ?? []).filter((a) => a.part === 'barcode');
    for (const { label, set } of alternatives) expect(text).toContain(`ALTERNATIVE ${label}\nset ${JSON.stringify(set)}\n`);
    if (!haveZbar) return;
    const read = zbarDecode(renderPng(page.bytes, { printer: profile }));
    for (const s of SYMBOLOGIES) {
      const symbol = ENCODERS[s](BARCODE_SAMPLES[s]);
      expect(symbol.ok && read).toContain(symbol.ok && zbarReads(s, symbol.symbol.text));
    }
  });

  it('prints the test image dot for dot', () => {
    const { page } = build(code);
    const image = rasterImages(page.bytes, page.records.filter((r) => page.conteudo.startsWith('<image', r.start)));
    expect(image).toHaveLength(1);
    const want = testImage();
    const at = (x: number, y: number) => (want.bits[y * want.bytesPerRow + (x >> 3)]! >> (7 - (x & 7))) & 1;
    for (let y = 0; y < image[0]!.height; y++) {
      for (let x = 0; x < image[0]!.width; x++) expect(image[0]!.dots[y * image[0]!.width + x], `${x},${y}`).toBe(x < want.width && y < want.height ? at(x, y) : 0);
    }
  });
});

describe('the column ruler', () => {
  it('is exactly as wide as the columns it measures, with a digit every ten', () => {
    expect(ruler(48)).toHaveLength(48);
    expect(ruler(20)).toBe('....+....1....+....2');
  });
});

describe.each(listProfiles().filter((p) => p.output === 'escpos').map((p) => p.code))('the styles of the self-test page for %s', (code) => {
  it('prints each style the printer has, names the others, and sizes 1 to 3 within its largest, with no warning', () => {
    const { profile, page, listing, text } = build(code);
    expect(page.diagnostics.filter((d) => d.code === 'lower/style-unsupported' || d.code === 'lower/text-size-clamped')).toEqual([]);
    const effects = listing.flatMap((i) => (i.effect ? [i.effect] : []));
    for (const style of ['bold', 'underline', 'invert'] as const) {
      if (profile.caps.has(style)) expect(effects).toContainEqual({ type: style, on: true });
      else expect(text).toContain(`${style}: none in this profile`);
    }
    const max = Math.min(3, profile.sizeMax!.width);
    const sizes = new Set(effects.flatMap((e) => (e.type === 'size' && e.width !== undefined ? [e.width] : [])));
    expect([...sizes].sort()).toEqual(Array.from({ length: max }, (_, i) => i + 1));
    for (let w = 1; w <= max; w++) expect(text).toContain(`${w}x${w}`);
  });

  it('prints each size alternative labelled, with the bytes its override gives for double width and back', () => {
    const { profile, page, listing, text } = build(code);
    const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');
    for (const { label, set } of (profileSelftest(profile).alternatives ?? []).filter((a) => a.part === 'size')) {
      expect(text).toContain(`ALTERNATIVE ${label}\nset ${JSON.stringify(set)}\n`);
      const size = withOverride(profile, set as ProfileInput).bytes.size!;
      // 2x then normal twice on one line, 2x left on over a line end, then normal.
      expect(hexOf(page.bytes).split(hexOf(expandTemplate(size, 0, 2, 1))).length - 1).toBeGreaterThanOrEqual(3);
      expect(hexOf(page.bytes).split(hexOf(expandTemplate(size, 0, 1, 1))).length - 1).toBeGreaterThanOrEqual(3);
      const start = page.conteudo.indexOf(`ALTERNATIVE ${label}`);
      const widths = listing.filter((i) => i.effect?.type === 'size' && i.effect.width !== undefined && page.records.some((r) => r.start > start && r.offset <= i.offset && i.offset < r.offset + r.length && r.op === 'size'));
      expect(widths.length).toBeGreaterThanOrEqual(6);
    }
  });
});

describe('the DR800 self-test page', () => {
  it('prints alternative D, double width by ESC SO 1B 0E 00 ended by DC4, as Vip.Printer sends them', () => {
    const { page, listing, text } = build('MAKER3DR800');
    expect(text).toContain('ALTERNATIVE D: double width by ESC SO 1B 0E 00, ended by DC4 14\n');
    const oneLine = listing.filter((i) => i.effect?.type === 'size' && i.effect.oneLine);
    const sent = oneLine.map((i) => `${i.mnemonic} ${Buffer.from(page.bytes.subarray(i.offset, i.offset + i.length)).toString('hex')}`);
    expect(sent).toEqual(['ESC 0x0E 1b0e00', 'DC4 14', 'ESC 0x0E 1b0e00', 'DC4 14', 'ESC 0x0E 1b0e00', 'DC4 14']);
    // The line after "2x to the line end" sends nothing before its text: only the printer can say whether it is wide.
    const last = listing.findIndex((i) => i.effect?.type === 'text' && i.effect.text === 'last line, sent nothing');
    expect(listing[last - 1]!.effect).toEqual({ type: 'text', text: '2x to the line end\n' });
  });
});
