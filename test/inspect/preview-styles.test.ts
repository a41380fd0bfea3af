// The preview draws text styles from the bytes, in each printer's dialect: bold, underline,
// white-on-black, and characters as wide and as tall as the size command says; a PNG shows them.
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { compile, renderPage, renderPng, renderSvg, type Page } from '../../src/index.js';

type TextMark = Extract<Page['marks'][number], { kind: 'text' }>;
const texts = (page: Page) => page.marks.filter((m): m is TextMark => m.kind === 'text');
const page = (conteudo: string, printer: string | number) => renderPage(compile(conteudo, { printer }).bytes, { printer });

/** Rows and columns holding dark pixels inside [x0, x1) × [y0, y1) of the PNG (paper offset: 16, 28). */
function ink(png: Uint8Array, box: { x0: number; y0: number; x1: number; y1: number }): { dark: number; rows: number } {
  const image = PNG.sync.read(Buffer.from(png));
  let dark = 0;
  const rows = new Set<number>();
  for (let y = box.y0 + 28; y < box.y1 + 28; y++) {
    for (let x = box.x0 + 16; x < box.x1 + 16; x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i]! < 96) {
        dark++;
        rows.add(y);
      }
    }
  }
  return { dark, rows: rows.size };
}

describe('the preview of tabs', () => {
  it('moves to stops 8 columns of normal text apart (96 dots on the TM-T20) in any font, leaving the gap blank', () => {
    const at = (conteudo: string) => texts(page(conteudo, 5)).map((m) => [m.text, Math.round(m.x * 100) / 100]);
    expect(at('a\tb\tc\n')).toEqual([['a', 0], ['b', 96], ['c', 192]]);
    // Condensed (font B, 9 dots): a stop is not a whole number of its characters.
    expect(at('<textCondensedOn>a\tb\n')).toEqual([['a', 0], ['b', 96]]);
    // Width 2 (24 dots): 4 characters to a stop; 'abcd' ends on one, so the tab goes to the next.
    expect(at('<textSize width="2">abcd\te\n')).toEqual([['abcd', 0], ['e', 192]]);
    // Underlined text leaves the gap without a line: two runs, nothing drawn between them.
    expect(at('<textUnderlineOn>ab\tcd\n')).toEqual([['ab', 0], ['cd', 96]]);
    // Past the last stop, to the paper's end: the next character starts the next line.
    expect(at('x'.repeat(47) + '\ty\n')).toEqual([['x'.repeat(47), 0], ['y', 0]]);
  });
});

describe('the preview of text styles', () => {
  it('marks bold, underlined and inverted runs, and plain text as before', () => {
    const marks = texts(page('<textBoldOn>ab<textBoldOff>cd<textUnderlineOn>ef<textUnderlineOff><textInvertOn>gh<textInvertOff>ij\n', 5));
    expect(marks.map((m) => [m.text, m.look && { bold: m.look.bold, underline: m.look.underline, invert: m.look.invert }])).toEqual([
      ['ab', { bold: true, underline: false, invert: false }],
      ['cd', undefined],
      ['ef', { bold: false, underline: true, invert: false }],
      ['gh', { bold: false, underline: false, invert: true }],
      ['ij', undefined],
    ]);
  });

  it('draws characters as wide and as tall as GS ! says, and the line as tall as its tallest characters', () => {
    const marks = texts(page('<textSize width="2" height="3">ab\n<textSize>cd\n', 5));
    expect(marks.map((m) => [m.text, m.charWidth, m.look?.height, m.y])).toEqual([
      ['ab', 24, 3, 8],
      ['cd', 12, undefined, 8 + 72],
    ]);
  });

  it('reads the DR800 size from its ESC W / ESC w, and prints no invert there (the profile has none)', () => {
    const marks = texts(page('<textSize width="2" height="2"><textInvertOn>ab\n', 3));
    expect(marks.map((m) => [m.text, m.charWidth, m.look?.height, m.look?.invert])).toEqual([['ab', 24, 2, false]]);
  });

  it('draws ESC SO (and the NUL Daruma drivers send after it) double width until DC4 or the end of the line', () => {
    const bytes = Uint8Array.from([0x1b, 0x0e, 0x00, ...Buffer.from('ab'), 0x14, ...Buffer.from('cd'), 0x1b, 0x0e, 0x00, ...Buffer.from('ef\ngh\n')]);
    const marks = texts(renderPage(bytes, { printer: 3 }));
    expect(marks.map((m) => [m.text, m.charWidth, m.look?.width])).toEqual([['ab', 24, 2], ['cd', 12, undefined], ['ef', 24, 2], ['gh', 12, undefined]]);
    expect(renderPage(bytes, { printer: 3 }).marks.filter((m) => m.kind === 'note')).toEqual([]);
  });

  it('goes back to the lasting width after DC4 (ESC W 1, then ESC SO … DC4), and a lasting width ends ESC SO', () => {
    const bytes = Uint8Array.from([0x1b, 0x57, 0x01, 0x1b, 0x0e, ...Buffer.from('ab'), 0x14, ...Buffer.from('cd'), 0x1b, 0x57, 0x00, 0x1b, 0x0e, 0x1b, 0x57, 0x00, ...Buffer.from('ef\n')]);
    const marks = texts(renderPage(bytes, { printer: 3 }));
    expect(marks.map((m) => [m.text, m.charWidth])).toEqual([['abcd', 24], ['ef', 12]]);
  });

  it('keeps the MP-4200 bold and tall after its ESC ! for condensed, as the bytes send them again', () => {
    const marks = texts(page('<textBoldOn><textSize height="2"><textCondensedOn>ab\n', 1));
    expect(marks.map((m) => [m.text, m.condensed, m.look?.bold, m.look?.height])).toEqual([['ab', true, true, 2]]);
  });

  it('writes an inverted run as white text on a black band, and a bold run in bold', () => {
    const svg = renderSvg(compile('<textInvertOn>TOTAL<textInvertOff> <textBoldOn>B\n', { printer: 5 }).bytes, { printer: 5 });
    expect(svg).toMatch(/<rect x="0\.00" y="8" width="60\.00" height="24"\/><text [^>]*fill="#fff"[^>]*>TOTAL<\/text>/);
    expect(svg).toMatch(/<text [^>]*font-weight="bold"[^>]*>B<\/text>/);
  });

  it('shows it in the PNG: the inverted band dark, a triple-height word three times as tall as a normal one', () => {
    const png = renderPng(compile('<textInvertOn>          <textInvertOff>\nHH<textSize height="3">HH\n', { printer: 5 }).bytes, { printer: 5 });
    // The band: ten cells of 12 × 24 dots, nearly all dark.
    expect(ink(png, { x0: 0, y0: 8, x1: 120, y1: 32 }).dark).toBeGreaterThan(120 * 24 * 0.9);
    // Second line (y 32 on): normal HH in x 0-24, triple-height HH in x 24-48.
    const normal = ink(png, { x0: 0, y0: 32, x1: 24, y1: 32 + 72 }).rows;
    const tall = ink(png, { x0: 24, y0: 32, x1: 48, y1: 32 + 72 }).rows;
    expect(normal).toBeGreaterThan(8);
    expect(tall).toBeGreaterThanOrEqual(normal * 2.5);
  });
});
