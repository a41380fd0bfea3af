// Preview rendering from bytes: disassemble in the printer's dialect, lay out, draw SVG, and
// rasterise to PNG with @resvg/resvg-js (prebuilt binaries from npm, no system packages), which is
// loaded only when a PNG is asked for.
import { checkBytes, shown } from '../shown.js';
import { loadProfile, type PrinterRef } from '../profiles/index.js';
import { walk } from './disassemble.js';
import { dialectFor } from './dialect.js';
import { layout, type Page } from './layout.js';
import { resvg } from './resvg.js';
import { pageToSvg } from './svg.js';

export interface RenderOptions {
  printer: PrinterRef;
}

/** The page a printer would print for `bytes` (ESC/POS, or UTF-8 text for the generic template). */
export function renderPage(bytes: Uint8Array, options: RenderOptions): Page {
  return pageOf(bytes, options, 'renderPage');
}

/** renderPage, its arguments checked for the public function `call`, which names them in a TypeError. */
function pageOf(bytes: Uint8Array, options: RenderOptions, call: string): Page {
  checkBytes(`${call}()`, bytes);
  if (typeof options !== 'object' || options === null) throw new TypeError(`${call}(): options must be an object such as { printer: 5 }, not ${shown(options)}`);
  const profile = loadProfile(options.printer);
  return layout(walk(bytes, dialectFor(profile)), profile);
}

/**
 * An SVG preview of `bytes` as the printer would print them: one SVG unit per printer dot.
 *
 * @example
 * const svg = renderSvg(compile(conteudo, { printer: 5 }).bytes, { printer: 5 });
 */
export function renderSvg(bytes: Uint8Array, options: RenderOptions): string {
  return pageToSvg(pageOf(bytes, options, 'renderSvg'));
}

/** A PNG preview: the SVG rasterised at one pixel per printer dot (`scale` multiplies it). */
export function renderPng(bytes: Uint8Array, options: RenderOptions & { scale?: number }): Uint8Array {
  return svgToPng(pageToSvg(pageOf(bytes, options, 'renderPng')), options.scale ?? 1);
}

export function svgToPng(svg: string, scale = 1): Uint8Array {
  const { Resvg } = resvg();
  const renderer = new Resvg(svg, {
    background: '#ffffff',
    fitTo: scale === 1 ? { mode: 'original' } : { mode: 'zoom', value: scale },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans Mono' },
    shapeRendering: 1,
  });
  return new Uint8Array(renderer.render().asPng());
}
