// QR lowering: the payload checked (control characters out, lone surrogates replaced, size within
// a QR symbol), then either
// kept as a native QR op, turned into a raster image from the `qrcode` package's module matrix,
// or (generic template) printed as a text line.
import QRCode from './qrcode-core.js';
import type { RawDiagnostic } from '../diagnostics.js';
import type { QrCodeNode } from '../parse/ast.js';
import { eccSent, moduleSent, NATIVE_QR, type NativeQrFamily } from '../profiles/qr-native.js';
import { sanitizeText } from '../text/sanitize.js';
import { utf8Length } from '../text/utf8.js';
import type { LowerContext } from './context.js';
import type { Bitmap } from './ir.js';
import { pushLine } from './layout-lines.js';

/** Byte-mode capacity of the largest QR symbol (version 40) per error correction level. */
const BYTE_CAPACITY = { L: 2953, M: 2331, Q: 1663, H: 1273 } as const;
const QUIET_ZONE = 4;
/** qrcode's error for data no symbol holds (lib/core/qrcode.js). */
const TOO_BIG = /too big to be stored/;
/**
 * What the payload may not carry: a control character other than TAB, LF and CR (removed), or a
 * lone surrogate (a high one not before a low one, a low one not after a high one: no character,
 * so no UTF-8 either; replaced by U+FFFD).
 */
const UNFIT = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `size` (dots per module) and `ecc`, when the tag gives them, take the place of the profile's. */
export function lowerQr(node: QrCodeNode, ctx: LowerContext): void {
  const { start, end } = node;
  const { profile, out, diagnostics, text } = ctx;
  if (profile.qr.command === 'text') {
    // Printed as a line of text, so it is text: the same sanitising as any other.
    const line = sanitizeText(node.data, node.dataStart, text);
    if (line) pushLine(ctx, line.endsWith('\n') ? line : line + '\n', start, end, false);
    else diagnostics.push({ code: 'lower/qr-empty', message: 'empty <qrcode>: nothing printed', start, end });
    return;
  }
  const data = payload(node, diagnostics);
  if (data.length === 0) {
    diagnostics.push({ code: 'lower/qr-empty', message: 'empty <qrcode>: nothing printed', start, end });
    return;
  }
  const ecc = node.ecc ?? profile.qr.ecc;
  const moduleSize = node.size ?? profile.qr.moduleSize;
  if (profile.caps.has('qr.native')) {
    const size = utf8Length(data);
    // The capacity of the level the command sends (Daruma's has no L: M, which holds less).
    const sent = eccSent(profile.qr.command as NativeQrFamily, ecc);
    if (size > BYTE_CAPACITY[sent]) {
      diagnostics.push(tooLong(size, sent, start, end, sent === ecc ? '' : `, the level ${profile.printer}'s QR command sends for ${ecc}`));
      return;
    }
    optionsChanged(node, ctx);
    // Only what the tag gives: without size and ecc the op, and the bytes, are exactly as before.
    out.push({ op: 'qr', data, ...(node.size !== undefined && { size: node.size }), ...(node.ecc !== undefined && { ecc: node.ecc }), start, end });
    return;
  }
  let modules: { size: number; data: Uint8Array };
  try {
    modules = QRCode.create(data, { errorCorrectionLevel: ecc }).modules;
  } catch (error) {
    // Only qrcode's own "too big" is the content's fault; anything else is bobina's (see lowerRaw).
    if (!TOO_BIG.test((error as Error)?.message)) throw error;
    diagnostics.push(tooLong(utf8Length(data), ecc, start, end));
    return;
  }
  const widthDots = profile.image!.widthDots;
  const span = modules.size + 2 * QUIET_ZONE;
  const scale = Math.min(moduleSize, Math.floor(widthDots / span));
  if (scale < 1) {
    diagnostics.push({
      code: 'lower/qr-too-wide',
      message: `QR code of ${modules.size} modules does not fit ${widthDots} dots on ${profile.printer}, even at 1 dot per module`,
      start,
      end,
    });
    return;
  }
  ctx.budget?.raster(span * scale, span * scale, start, end);
  diagnostics.push({
    code: 'lower/qr-raster-fallback',
    message: `${profile.printer} uses no native QR command in its profile: printed as a raster image (${modules.size}×${modules.size} modules, ${scale} dots each)`,
    start,
    end,
  });
  out.push({ op: 'image', bitmap: qrBitmap(modules.data, modules.size, scale), start, end });
}

/** A warning for each option the tag gives that the printer's native QR command sends otherwise (profiles/qr-native.ts). */
function optionsChanged(node: QrCodeNode, { profile, diagnostics }: LowerContext): void {
  const family = profile.qr.command as NativeQrFamily;
  const said = (what: string) => diagnostics.push({ code: 'lower/qr-option-changed', message: `${profile.printer}'s QR command (${family}) ${what}`, start: node.start, end: node.end });
  if (node.size !== undefined) {
    const sent = moduleSent(profile.qr, node.size);
    if (!NATIVE_QR[family].size) said(`takes no module size (its profile's qr.params set it): size="${node.size}" is not used`);
    else if (sent !== node.size) said(`takes module sizes ${profile.qr.moduleRange!.min}–${profile.qr.moduleRange!.max}: printed at ${sent} dots, not ${node.size}`);
  }
  if (node.ecc !== undefined && eccSent(family, node.ecc) !== node.ecc) said(`has no error correction ${node.ecc}: printed at ${eccSent(family, node.ecc)}`);
}

/**
 * The payload as the symbol holds it, on every path (native or raster): controls removed and lone
 * surrogates as U+FFFD, each said at its character. (A native command would have sent a lone
 * surrogate as the U+FFFD of UTF-8 without a word; the raster's encoder threw on it.)
 */
function payload(node: QrCodeNode, diagnostics: RawDiagnostic[]): string {
  const { dataStart } = node;
  return node.data.replace(UNFIT, (ch, index: number) => {
    const at = dataStart + index;
    const point = `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    const lone = ch >= '\ud800';
    diagnostics.push(
      lone
        ? { code: 'text/replaced', message: `lone surrogate ${point} in the QR payload replaced by U+FFFD (it is no character, and has no UTF-8)`, start: at, end: at + 1 }
        : { code: 'text/control-removed', message: `control character ${point} removed from the QR payload`, start: at, end: at + 1 },
    );
    return lone ? '\ufffd' : '';
  });
}

function tooLong(size: number, ecc: keyof typeof BYTE_CAPACITY, start: number, end: number, why = ''): RawDiagnostic {
  return {
    code: 'lower/qr-too-long',
    message: `QR payload of ${size} bytes is more than a QR code holds at error correction ${ecc}${why} (${BYTE_CAPACITY[ecc]} bytes)`,
    start,
    end,
  };
}

/** The module matrix drawn at `scale` whole dots per module inside a 4-module quiet zone. */
export function qrBitmap(matrix: Uint8Array, size: number, scale: number): Bitmap {
  const width = (size + 2 * QUIET_ZONE) * scale;
  const bytesPerRow = (width + 7) >> 3;
  const bits = new Uint8Array(bytesPerRow * width);
  const row = new Uint8Array(bytesPerRow);
  const offset = QUIET_ZONE * scale;
  for (let y = 0; y < size; y++) {
    row.fill(0);
    for (let x = 0; x < size; x++) {
      if (!matrix[y * size + x]) continue;
      const from = offset + x * scale;
      for (let dot = from; dot < from + scale; dot++) row[dot >> 3]! |= 0x80 >> (dot & 7);
    }
    const top = (offset + y * scale) * bytesPerRow;
    for (let k = 0; k < scale; k++) bits.set(row, top + k * bytesPerRow);
  }
  return { width, height: width, bytesPerRow, bits };
}
