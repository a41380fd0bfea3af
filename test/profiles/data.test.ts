// Per-model facts are profile data, not code: change the data and the bytes (or the preview)
// change with it, with no model name anywhere in the passes.
import { describe, expect, it } from 'vitest';
import { compile, loadProfile, renderPage, type ProfileInput } from '../../src/index.js';
import { parseChoice } from '../../src/profiles/bytes.js';
import { hex } from '../support/hex.js';

const bytesOf = (conteudo: string, printer: ProfileInput | number) => hex(compile(conteudo, { printer }).bytes);

describe('profile data', () => {
  it("sends the Bematech QR parameter bytes the profile's qr.params gives", () => {
    const bema = { extends: 'MAKER1MP4200', qr: { command: 'bematech-gs-k-q', params: '04 00 02' } } as const;
    expect(bytesOf('<qrcode>abc</qrcode>', bema)).toContain('1d6b5101' + '040002' + '0300616263');
  });

  it('refuses a Bematech QR profile without its parameter bytes, as a usage error', () => {
    expect(() => loadProfile({ extends: 'MAKER5T20', qr: { command: 'bematech-gs-k-q' } })).toThrow(/needs qr.params/);
  });

  it("clamps the native QR module size into the profile's qr.moduleRange, and only there", () => {
    const daruma = (moduleSize: number, moduleRange?: { min: number; max: number }) =>
      ({ extends: 'MAKER3DR800', qr: { command: 'daruma-esc-81', moduleSize, ...(moduleRange ? { moduleRange } : {}) } }) as ProfileInput;
    expect(bytesOf('<qrcode>x</qrcode>', daruma(12))).toContain('1b810300' + '07');
    expect(bytesOf('<qrcode>x</qrcode>', daruma(1))).toContain('1b810300' + '03');
    expect(bytesOf('<qrcode>x</qrcode>', daruma(12, { min: 1, max: 16 }))).toContain('1b810300' + '0c');
  });

  it('sends the line spacing and band ends around ESC * bands that the profile gives', () => {
    const star = (image: ProfileInput['image']) => ({ extends: 'MAKER5T20', image: { command: 'esc-star-24', ...image } }) as ProfileInput;
    const epson = bytesOf('<qrcode>x</qrcode>', star({ lineSpacing: '1B 33 18', bandEnd: '0A', lineSpacingReset: '1B 32' }));
    expect(epson).toMatch(/1b33181b2a21.*0a1b2a21.*0a1b32/);
    const quiet = bytesOf('<qrcode>x</qrcode>', star({ lineSpacing: null, bandEnd: null, lineSpacingReset: null }));
    expect(quiet).not.toContain('1b3318');
    expect(quiet).not.toMatch(/0a1b2a21/);
  });

  it('brackets a native QR code in the mode-switch commands of qr.bracket, and restores the state after it', () => {
    const bracketed = { extends: 'MAKER5T20', qr: { command: 'epson-gs-k', bracket: { command: 'epson-gs-k', enter: '1D F9 20 30', leave: '1D F9 20 31' } } } as ProfileInput;
    const got = bytesOf('<textAlignCenter><textCondensedOn><qrcode>x</qrcode>', bracketed);
    // enter, centre again, the symbol…, leave, then code page, centre and condensed again.
    expect(got).toMatch(/1df920301b61011d286b.*1d286b03003151301df920311b74021b61011b4d01/);
  });

  it('sends a size choice word w[A|B] as the bytes for each width, and the disassembler reads them as that width', () => {
    const so = { extends: 'MAKER3DR800', commands: { size: 'w[14|1B0E00] 1B 77 h' } } as ProfileInput;
    expect(bytesOf('<textSize width="2">a<textSize>b\n', so)).toBe('1b40' + '1b0e00' + '1b7700' + '61' + '14' + '1b7700' + '620a');
    // A width past the last choice takes the last one.
    const wider = { ...so, sizeMax: { width: 3, height: 2 } } as ProfileInput;
    expect(bytesOf('<textSize width="3" height="2">a\n', wider)).toBe('1b40' + '1b0e00' + '1b7701' + '610a');
    // Bytes no command table knows are read as the width they stand for, from the profile.
    const own = { extends: 'MAKER3DR800', commands: { size: 'w[1C70|1C71] 1B 77 h' } } as ProfileInput;
    const page = renderPage(compile('<textSize width="2">ab<textSize>c\n', { printer: own }).bytes, { printer: own });
    expect(page.marks.flatMap((m) => (m.kind === 'text' ? [[m.text, m.charWidth]] : []))).toEqual([['ab', 24], ['c', 12]]);
  });

  it('sends a height choice h[A|B] by the height, and an empty option as no bytes', () => {
    const own = { extends: 'MAKER3DR800', commands: { size: 'w[|1B0E00] h[|1C21]' } } as ProfileInput;
    expect(bytesOf('<textSize height="2">a\n', own)).toBe('1b40' + '1c21' + '610a');
    expect(bytesOf('<textSize width="2">a\n', own)).toBe('1b40' + '1b0e00' + '610a');
  });

  it('reads a choice only from a whole word (the disassembler asks of every word of a size command)', () => {
    expect(parseChoice('h[|1C21]')).toEqual({ param: 'h', options: [new Uint8Array(0), Uint8Array.of(0x1c, 0x21)] });
    expect(parseChoice('1Bw[14|1B]')).toBeUndefined();
    expect(parseChoice('w[14|1B]1B')).toBeUndefined();
  });

  it('refuses a size choice with one option, an odd hex digit or no parameter letter', () => {
    for (const size of ['w[14]', 'w[1|1B0E00]', '[14|1B]', 'x[14|1B]', 'w[14|1B0E00]1B']) {
      expect(() => loadProfile({ extends: 'MAKER3DR800', commands: { size } } as ProfileInput), size).toThrow(/invalid printer profile/);
    }
  });

  it('labels and reads the drawer pulse with the pin the profile names', () => {
    const records = compile('<cashDrawerOpen>', { printer: 5, records: true }).records!;
    expect(records.find((r) => r.op === 'drawer')!.label).toBe('drawer pulse pin 2');
    const five = { extends: 'MAKER3DR800', drawerPin: 5 } as ProfileInput;
    const page = renderPage(compile('<cashDrawerOpen>', { printer: five }).bytes, { printer: five });
    expect(page.marks.some((m) => m.kind === 'note' && m.label === '⚡ drawer pulse, pin 5')).toBe(true);
  });

  it('takes the preview width, line pitch and columns from the geometry', () => {
    const narrow = { extends: 'MAKER5T20', geometry: { dotsPerLine: 384, lineSpacing: 40 } } as ProfileInput;
    const p = loadProfile(narrow);
    expect(p.columns).toEqual({ normal: 32, condensed: 42 });
    expect(p.image!.widthDots).toBe(384);
    const page = renderPage(compile('a\nb\n', { printer: narrow }).bytes, { printer: narrow });
    expect(page.width).toBe(384);
    const ys = page.marks.flatMap((m) => (m.kind === 'text' ? [m.y] : []));
    expect(ys[1]! - ys[0]!).toBe(40);
  });
});
