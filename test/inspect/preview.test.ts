// The preview, checked the way a person would check it: QR codes in the PNG scan back to their
// payload, the SVG is well-formed XML holding the receipt's text, and printer events are marked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { compile, renderPage, renderPng, renderSvg, svgParts } from '../../src/index.js';
import { readQr } from '../support/qr-reader.js';

const NFCE = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'nfce.txt'), 'utf8');
const PAYLOAD = 'https://example.com/r/123?ação=sim';

function scan(png: Uint8Array): string | undefined {
  const image = PNG.sync.read(Buffer.from(png));
  const found = readQr(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height);
  return found ? Buffer.from(found.binaryData).toString('utf8') : undefined;
}

/** Every start tag closed in order, one root, and only the five XML entities: enough to catch broken markup. */
function expectWellFormed(svg: string): void {
  const stack: string[] = [];
  const body = svg.replace(/^<\?xml[^>]*\?>\s*/, '');
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][\w:-]*)([^>]*?)(\/?)>/g)) {
    const [, close, name, , selfClose] = m;
    if (close) expect(stack.pop(), `</${name}>`).toBe(name);
    else if (!selfClose) stack.push(name!);
  }
  expect(stack).toEqual([]);
  expect(body.replace(/<[^>]*>/g, '')).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
  expect(body.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]/);
  expect(body.trim().startsWith('<svg')).toBe(true);
}

/** The text the SVG shows, entities decoded, words joined by single spaces. */
function svgText(svg: string): string {
  const words = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
  return words.join(' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

describe('the preview', () => {
  it.each([
    ['a GS v 0 raster QR (Epson TM-T20)', 5],
    ['an ESC * 24-dot banded raster QR (Daruma DR800)', 3],
    ['a native GS ( k QR redrawn from its payload (Elgin i9)', 4],
    ['a GS v 0 raster QR (Bematech MP-4200, its default)', 1],
    ['a native GS k Q QR in ESC/Bema mode redrawn from its payload (Bematech MP-4200, on request)', { extends: 1, qr: { command: 'bematech-gs-k-q' } }],
  ] as const)('draws %s dot for dot, so the PNG scans back to the payload', (_what, printer) => {
    const { bytes } = compile(`<textAlignCenter><qrcode>${PAYLOAD}</qrcode>`, { printer });
    expect(scan(renderPng(bytes, { printer }))).toBe(PAYLOAD);
  });

  it('is well-formed SVG holding the receipt text, at the profile paper width', () => {
    const { bytes } = compile(NFCE, { printer: 5 });
    const svg = renderSvg(bytes, { printer: 5 });
    expectWellFormed(svg);
    const text = svgText(svg);
    for (const phrase of ['PADARIA E CONFEITARIA SÃO JOÃO LTDA', 'Cartão de Débito', 'Obrigado pela preferência!', 'partial cut']) expect(text).toContain(phrase);
    expect(renderPage(bytes, { printer: 5 }).width).toBe(576);
    expect(renderPage(bytes, { printer: 1 }).width).toBe(512);
  });

  it('escapes markup in the receipt text instead of breaking the SVG', () => {
    const { bytes } = compile('a < b && "c" > \'d\' <b>\n', { printer: 5 });
    const svg = renderSvg(bytes, { printer: 5 });
    expectWellFormed(svg);
    expect(svgText(svg)).toContain('a < b && "c" > \'d\' <b>');
  });

  it('places text at the profile columns: centred, right-aligned, and narrower when condensed', () => {
    const { bytes } = compile('<textAlignRight>fim\n<textAlignCenter>meio\n<textCondensedOn>abc\n', { printer: 5 });
    const texts = renderPage(bytes, { printer: 5 }).marks.flatMap((m) => (m.kind === 'text' ? [m] : []));
    expect(texts[0]).toMatchObject({ text: 'fim', x: 576 - 36, charWidth: 12 });
    expect(texts[1]).toMatchObject({ text: 'meio', x: (576 - 48) / 2 });
    expect(texts[2]).toMatchObject({ text: 'abc', charWidth: 9, condensed: true });
  });

  it('marks cuts with their kind, drawer pulses and feeds', () => {
    const { bytes } = compile('a\n<paperFeed><cashDrawerOpen><paperCutPartial>b\n<paperCutFull>', { printer: 5 });
    const marks = renderPage(bytes, { printer: 5 }).marks;
    expect(marks.filter((m) => m.kind === 'cut').map((m) => m.kind === 'cut' && m.partial)).toEqual([true, false]);
    expect(marks.some((m) => m.kind === 'feed')).toBe(true);
    expect(marks.some((m) => m.kind === 'note' && m.label.includes('drawer'))).toBe(true);
    expect(svgText(renderSvg(bytes, { printer: 5 }))).toMatch(/partial cut[\s\S]*full cut/);
  });

  it('previews the generic template as plain text lines', () => {
    const { bytes } = compile('<textAlignCenter>Olá\n<paperCutFull>fim\n', { printer: 0 });
    const page = renderPage(bytes, { printer: 0 });
    expect(page.marks.filter((m) => m.kind === 'text').map((m) => m.kind === 'text' && m.text.trim())).toEqual(['Olá', 'fim']);
    expect(page.marks.filter((m) => m.kind === 'note')).toEqual([]);
  });

  it('comes in parts, one per mark, that join into the same SVG (the playground redraws only the marks that change)', () => {
    for (const printer of [0, 3, 5]) {
      const { bytes } = compile(NFCE, { printer });
      const page = renderPage(bytes, { printer });
      const parts = svgParts(page);
      expect(parts.marks).toHaveLength(page.marks.length);
      expect([parts.head, ...parts.marks.filter(Boolean), parts.tail].join('\n')).toBe(renderSvg(bytes, { printer }));
    }
  });
});
