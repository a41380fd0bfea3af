// <barcode> lowering: the data checked for its symbology (lower/barcode-invalid at the data, or at
// the one character at fault), then the profile's native command where it takes this symbol as
// asked (type, module width, height, text position, width on the paper), else the bars as a raster
// image with the text as lines of the normal font (an info saying why), or on plain text the data
// as a line.
//
// Before: <barcode type="ean13">789100031550</barcode> on the TM-T20
// After:  [barcode ean13 "7891000315507" height 80 module 2 text below]
// Before: the same on a profile whose barcode command has no EAN-13
// After:  [image (bars)] [text "7891000315507\n"] + info lower/barcode-raster-fallback
import type { BarcodeNode } from '../parse/ast.js';
import type { Profile } from '../profiles/index.js';
import { barsBitmap, barsWidth, ENCODERS, SYMBOLOGY_NAMES, type BarSymbol } from './barcode/index.js';
import type { LowerContext, Lowering } from './context.js';
import { pushLine } from './layout-lines.js';
import { inPlainText } from './style.js';
import { sanitizeSuspect } from '../text/sanitize.js';

/** The most data bytes one native command carries (GS k's count is one byte). */
const MAX_NATIVE_BYTES = 255;
/** Raster bars are not made narrower than this to fit the paper: one dot is below what scanners read. */
const MIN_FIT_MODULE = 2;

export const lowerBarcode: Lowering<BarcodeNode> = (node, ctx) => {
  const { profile, out, diagnostics } = ctx;
  const { start, end } = node;
  const name = SYMBOLOGY_NAMES[node.symbology];
  const encoded = ENCODERS[node.symbology](node.data);
  if (!encoded.ok) {
    const { message, at, length = 1 } = encoded.invalid;
    const from = node.dataStart + (at ?? 0);
    diagnostics.push({ code: 'lower/barcode-invalid', message: `invalid ${name} data: ${message}`, start: from, end: at === undefined ? node.dataStart + node.data.length : from + length });
    return;
  }
  const symbol = encoded.symbol;
  if (!profile.image) {
    // Plain text: the data a scanner would read, as a line.
    const readable = readableText(symbol.text, node, ctx);
    pushLine(ctx, `${readable.text}\n`, start, end, readable.latin1);
    return;
  }
  const why = nativeRefusal(node, symbol, profile);
  if (why === undefined) {
    out.push({ op: 'barcode', symbology: node.symbology, data: symbol.text, ...(symbol.values && { values: symbol.values }), height: node.height, module: node.module, text: node.text, start, end });
    return;
  }
  const paper = profile.image.widthDots;
  let module = node.module;
  while (module > Math.min(MIN_FIT_MODULE, node.module) && barsWidth(symbol, module) > paper) module--;
  const bars = barsWidth(symbol, module);
  if (bars > paper) {
    diagnostics.push({ code: 'lower/barcode-too-wide', message: `${name} symbol of ${symbol.text.length} characters is ${bars} dots wide at ${module} dots per module, wider than the ${paper} dots of ${profile.printer}`, start, end });
    return;
  }
  // The quiet zones are trimmed to the paper: its unprinted margins are quiet too.
  const quiet = Math.min(symbol.quiet * module, (paper - bars) >> 1);
  ctx.budget?.raster(bars + 2 * quiet, node.height, start, end);
  const scaled = module === node.module ? '' : `, at ${module} dots per module to fit the paper`;
  diagnostics.push({ code: 'lower/barcode-raster-fallback', message: `${name} printed as a raster image on ${profile.printer}: ${why}${scaled}`, start, end });
  const bitmap = barsBitmap(symbol, module, node.height, quiet);
  const text = node.text;
  if (text === 'none') {
    out.push({ op: 'image', bitmap, start, end });
    return;
  }
  const readable = readableText(symbol.text, node, ctx);
  const line = { op: 'text' as const, text: `${readable.text}\n`, start, end, ...(readable.latin1 && { latin1: true as const }) };
  // The text prints in the plain font, as a native barcode's does, whatever styles are in force.
  if (text === 'above' || text === 'both') {
    const last = out[out.length - 1];
    const above = last?.op === 'text' && !last.text.endsWith('\n') ? { ...line, text: `\n${line.text}` } : line;
    inPlainText(ctx, start, end, () => out.push(above));
  }
  out.push({ op: 'image', bitmap, start, end });
  if (text === 'below' || text === 'both') inPlainText(ctx, start, end, () => out.push(line));
};

/**
 * The symbol's text as printed in the normal font (plain text, a raster's human-readable line),
 * through the code page as any text is: the encoders take printable ASCII only, but a page that
 * reads an ASCII byte as another character (ISO646-CN's 0x24 is ¥) lacks that one, and it is
 * replaced with a warning at its character in the data, not printed as the other.
 */
function readableText(text: string, node: BarcodeNode, ctx: LowerContext): { text: string; latin1: boolean } {
  if (!ctx.text.codepage.suspect.test(text)) return { text, latin1: true };
  // Stryker disable next-line BooleanLiteral: the data is printable ASCII and so is what replaces it ("?" or an ASCII stand-in): marked or not, the emitter writes the same bytes
  return { text: sanitizeSuspect(text, node.dataStart, ctx.text), latin1: false };
}

/** Why the profile's native command cannot print this symbol as asked, or undefined when it can. */
function nativeRefusal(node: BarcodeNode, symbol: BarSymbol, profile: Profile): string | undefined {
  const native = profile.barcode;
  // A profile without `barcode` has none; with it, every symbology is a type byte or null (its schema).
  if (native?.types[node.symbology] == null) return `its profile has no native ${SYMBOLOGY_NAMES[node.symbology]} command`;
  const { moduleRange: m, heightRange: h } = native;
  if (node.module < m.min || node.module > m.max) return `module ${node.module} is outside the ${m.min}–${m.max} dots its barcode command takes`;
  if (node.height < h.min || node.height > h.max) return `height ${node.height} is outside the ${h.min}–${h.max} dots its barcode command takes`;
  if (!native.text.includes(node.text)) return `its barcode command cannot print the text ${node.text === 'both' ? 'above and below' : node.text} the bars`;
  const width = barsWidth(symbol, node.module);
  if (width > profile.image!.widthDots) return `at ${node.module} dots per module the bars are ${width} dots, wider than the paper (${profile.image!.widthDots})`;
  // Epson's CODE128 form takes at most two bytes per symbol value (a {X switch); others a byte per character.
  const bytes = symbol.values && native.code128 === 'sets' ? 2 * symbol.values.length : symbol.text.length;
  if (bytes > MAX_NATIVE_BYTES) return `its data is longer than one barcode command carries`;
  return undefined;
}
