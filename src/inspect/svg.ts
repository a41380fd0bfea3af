// Page → SVG: the paper at one SVG unit per printer dot, text as monospaced runs stretched to the
// exact column width, bitmaps as one crisp path each, and printer events (cuts, feeds, drawer,
// native QR, unknown bytes) annotated in a gutter to the right of the paper.
import type { Bitmap } from '../lower/ir.js';
import type { Mark, Page } from './layout.js';

const MARGIN = 16;
const HEADER = 28;
/** The narrowest gutter; it widens to the longest note, so no note is clipped at the image edge. */
const GUTTER = 300;
/** DejaVu Sans Mono's advance is 0.602 em: this font size makes a glyph as wide as its column. */
const EM_PER_ADVANCE = 1 / 0.602;
const BASELINE = 19;
/** Notes are monospaced 14 px text given an exact textLength, so their width is known here. */
const NOTE_ADVANCE = 14 * 0.602;
const NOTE_X = 12;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export function escapeXml(s: string): string {
  // Characters XML 1.0 forbids are dropped: the receipt's text can hold any decoded byte.
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** One path for a whole bitmap: a rectangle per horizontal run of black dots. */
function bitmapPath(b: Bitmap, x0: number, y0: number, sx: number, sy: number): string {
  const parts: string[] = [];
  for (let y = 0; y < b.height; y++) {
    let x = 0;
    while (x < b.width) {
      const on = (b.bits[y * b.bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7))) !== 0;
      if (!on) {
        x++;
        continue;
      }
      const start = x;
      while (x < b.width && b.bits[y * b.bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7))) x++;
      parts.push(`M${x0 + start * sx} ${y0 + y * sy}h${(x - start) * sx}v${sy}h${-(x - start) * sx}z`);
    }
  }
  return parts.join('');
}

const noteWidth = (label: string) => [...label].length * NOTE_ADVANCE;

function note(y: number, label: string, paper: number): string {
  // textLength pins the width even where a glyph (✂, ⚡) falls back to another font.
  const length = noteWidth(label).toFixed(2);
  return `<text x="${paper + NOTE_X}" y="${y + 14}" textLength="${length}" lengthAdjust="spacingAndGlyphs" class="note">${escapeXml(label)}</text>`;
}

const NOTE_LABEL: { [K in Mark['kind']]?: (m: Extract<Mark, { kind: K }>) => string } = {
  cut: (m) => `✂ ${m.partial ? 'partial' : 'full'} cut`,
  note: (m) => m.label,
  feed: (m) => `↓ ${m.label}`,
};

function gutterFor(page: Page): number {
  let widest = 0;
  for (const m of page.marks) {
    const label = (NOTE_LABEL[m.kind] as ((m: Mark) => string) | undefined)?.(m);
    if (label !== undefined) widest = Math.max(widest, noteWidth(label));
  }
  return Math.max(GUTTER, Math.ceil(NOTE_X + widest + 8));
}

/**
 * Text with its styles: a black band behind inverted text (the text white), a rule under
 * underlined text, bold glyphs, and glyphs stretched to the height multiplier (the width one is
 * already in the column width), the cell's top kept in place.
 */
function styledText(m: Extract<Mark, { kind: 'text' }>, look: NonNullable<Extract<Mark, { kind: 'text' }>['look']>, size: string): string {
  const width = m.charWidth * [...m.text].length;
  const out: string[] = [];
  if (look.invert) out.push(`<rect x="${m.x.toFixed(2)}" y="${m.y}" width="${width.toFixed(2)}" height="${look.cellHeight}"/>`);
  // The glyph is drawn at the width multiplier's size; the rest of the height is a vertical stretch.
  const k = look.height / look.width;
  const baseline = m.y + BASELINE * look.width;
  const attrs = [
    `x="${m.x.toFixed(2)}"`,
    `y="${baseline.toFixed(2)}"`,
    `font-size="${size}"`,
    `textLength="${width.toFixed(2)}"`,
    'lengthAdjust="spacingAndGlyphs"',
    ...(look.bold ? ['font-weight="bold"'] : []),
    ...(look.invert ? ['fill="#fff"'] : []),
    ...(k !== 1 ? [`transform="matrix(1 0 0 ${k.toFixed(4)} 0 ${(m.y * (1 - k)).toFixed(2)})"`] : []),
    ...(m.condensed ? ['class="condensed"'] : []),
  ];
  out.push(`<text ${attrs.join(' ')}>${escapeXml(m.text)}</text>`);
  if (look.underline) out.push(`<rect x="${m.x.toFixed(2)}" y="${m.y + look.cellHeight - 2}" width="${width.toFixed(2)}" height="2"${look.invert ? ' fill="#fff"' : ''}/>`);
  return out.join('');
}

type Draw = { [K in Mark['kind']]: (m: Extract<Mark, { kind: K }>, page: Page) => string };

const DRAW: Draw = {
  text: (m) => {
    // Each word is placed at its own column: renderers collapse or resize spaces, columns must not move.
    const size = (m.charWidth * EM_PER_ADVANCE).toFixed(2);
    const cls = m.condensed ? ' class="condensed"' : '';
    if (m.look) return styledText(m, m.look, size);
    const out: string[] = [];
    const chars = [...m.text];
    for (let i = 0; i < chars.length; ) {
      if (chars[i] === ' ') {
        i++;
        continue;
      }
      let j = i;
      while (j < chars.length && chars[j] !== ' ') j++;
      const x = (m.x + i * m.charWidth).toFixed(2);
      const length = ((j - i) * m.charWidth).toFixed(2);
      out.push(`<text x="${x}" y="${m.y + BASELINE}" font-size="${size}" textLength="${length}" lengthAdjust="spacingAndGlyphs"${cls}>${escapeXml(chars.slice(i, j).join(''))}</text>`);
      i = j;
    }
    return out.join('');
  },
  bitmap: (m) => `<path d="${bitmapPath(m.bitmap, m.x, m.y, m.scaleX, m.scaleY)}"/>`,
  cut: (m, page) =>
    `<line x1="0" y1="${m.y}" x2="${page.width}" y2="${m.y}" class="cut"/>` + note(m.y - 10, NOTE_LABEL.cut!(m), page.width),
  note: (m, page) => note(m.y, m.label, page.width),
  feed: (m, page) =>
    `<path d="M${page.width + 4} ${m.y0}h4V${m.y1}h-4" class="feed"/>` + note(m.y0 + Math.max(0, (m.y1 - m.y0) / 2 - 10), NOTE_LABEL.feed!(m), page.width),
};

/** The SVG document in parts: what opens it, each mark's elements ('' for a mark that draws nothing), and what closes it. */
export interface SvgParts {
  head: string;
  marks: string[];
  tail: string;
}

/**
 * The page as SVG, in parts (pageToSvg joins them): for a viewer that redraws only the marks that
 * changed (the playground draws each mark once, at y = 0, and moves it into place).
 */
export function svgParts(page: Page): SvgParts {
  const w = page.width + gutterFor(page) + MARGIN * 2;
  const h = page.height + HEADER + MARGIN;
  const head = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<style>text{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;white-space:pre}.note{font-size:14px;fill:#666}.condensed{fill:#111}.cut{stroke:#c00;stroke-width:2;stroke-dasharray:10 6}.feed{fill:none;stroke:#999;stroke-width:1.5}.title{font-family:'DejaVu Sans',Arial,sans-serif;font-size:14px;fill:#444}</style>`,
    `<rect width="${w}" height="${h}" fill="#eee"/>`,
    `<text x="${MARGIN}" y="${HEADER - 8}" class="title">${escapeXml(page.title)}</text>`,
    `<g transform="translate(${MARGIN} ${HEADER})" shape-rendering="crispEdges">`,
    `<rect width="${page.width}" height="${page.height}" fill="#fff"/>`,
  ].join('\n');
  const marks = page.marks.map((m) => (DRAW[m.kind] as (m: Mark, p: Page) => string)(m, page));
  return { head, marks, tail: `</g>\n</svg>\n` };
}

/** The page as an SVG document. */
export function pageToSvg(page: Page): string {
  const { head, marks, tail } = svgParts(page);
  return [head, ...marks.filter(Boolean), tail].join('\n');
}
