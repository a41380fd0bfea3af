// <image> lowering: the image found (a data: URI of a PNG, or a name from compile's `images`),
// checked against the job's limits from its header, decoded, scaled to its width in dots (by
// default its own, at most the printable width), dithered, and printed as a raster image.
//
// Before: <image src="logo" width="384"/> with images: { logo: <PNG bytes> }
// After:  [image 384×h bitmap]
import type { RawDiagnostic } from '../diagnostics.js';
import { DEFAULT_LIMITS } from '../limits.js';
import type { ImageNode } from '../parse/ast.js';
import type { Lowering } from './context.js';
import { decodeBase64 } from './image/base64.js';
import { dither } from './image/dither.js';
import { decodePng, pngSize, type Grey } from './image/png.js';
import { scaleGrey } from './image/scale.js';
import type { Bitmap } from './ir.js';

/** Images a compile may name in `<image src="name">`: PNG file bytes, or a 1-bit bitmap. */
export type ImageSources = Readonly<Record<string, Uint8Array | Bitmap>>;

const DATA_URI = /^data:image\/png;base64,/i;

export const lowerImage: Lowering<ImageNode> = (node, ctx) => {
  const { start, end } = node;
  const { profile, out } = ctx;
  const fail = (code: RawDiagnostic['code'], message: string) => void ctx.diagnostics.push({ code, message, start, end });
  if (!profile.image) return fail('lower/image-unsupported', `${profile.printer} prints no images: <image> is ignored`);
  const source = resolve(node.src, ctx.images);
  if (typeof source === 'string') return fail(source.startsWith('no image') ? 'lower/image-unknown' : 'lower/image-unreadable', source);
  const size = 'bits' in source ? source : pngSize(source);
  if ('error' in size) return fail('lower/image-unreadable', `unreadable PNG: ${size.error}`);
  const paper = profile.image.widthDots;
  let width = node.width ?? Math.min(size.width, paper);
  if (width > paper) {
    fail('lower/image-too-wide', `image width ${width} dots is wider than the ${paper} printable dots of ${profile.printer}: scaled to ${paper}`);
    width = paper;
  }
  const height = Math.max(1, Math.round((size.height * width) / size.width));
  const max = (ctx.limits ?? DEFAULT_LIMITS).maxImagePixels;
  for (const [w, h, what] of [[size.width, size.height, 'the image'], [width, height, 'the image as printed']] as const) {
    if (w * h > max) return fail('limit/image-too-large', `${what} is ${w}×${h} = ${w * h} pixels, more than ${max} (the limit maxImagePixels): not printed`);
  }
  // Past the job's output limit, no image is decoded (it is spent once it prints: an unreadable one does not).
  ctx.budget?.check(start, end);
  let bitmap: Bitmap;
  // As given only when its rows are exactly as wide as the raster command sends them (a padded row
  // would put its padding, read as the next row's bytes, out of step with the command's header),
  // and no bit is set past its width (GS v 0 prints every bit of a row's last byte).
  if ('bits' in source && source.width === width && source.bytesPerRow === (width + 7) >> 3 && pastWidthClear(source)) bitmap = source;
  else {
    const grey = 'bits' in source ? bitmapGrey(source) : decodePng(source, max);
    if ('error' in grey) return fail('lower/image-unreadable', `unreadable PNG: ${grey.error}`);
    bitmap = dither(scaleGrey(grey, width), node.dither);
  }
  ctx.budget?.raster(width, height, start, end);
  out.push({ op: 'image', bitmap, start, end });
};

/** The PNG bytes or bitmap `src` names, or what is wrong with it. */
function resolve(src: string, images: ImageSources | undefined): Uint8Array | Bitmap | string {
  if (DATA_URI.test(src)) {
    const bytes = decodeBase64(src.slice(src.indexOf(',') + 1));
    return bytes ?? 'the data: URI is not valid base64';
  }
  if (src.startsWith('data:')) return 'only data:image/png;base64 URIs are read';
  const image = images && Object.hasOwn(images, src) ? images[src] : undefined;
  if (image === undefined) {
    const names = images ? Object.keys(images) : [];
    return `no image named "${src}" was given to compile (${names.length ? `given: ${names.join(', ')}` : 'pass it as images: { name: pngBytes }'})`;
  }
  if (image instanceof Uint8Array) return image;
  return isBitmap(image) ? image : `image "${src}" is neither PNG bytes (a Uint8Array) nor a bitmap { width, height, bytesPerRow, bits }`;
}

/** A bitmap whose rows all lie within its bits (any other value, whatever it holds, is not one). */
export function isBitmap(image: unknown): image is Bitmap {
  const b = image as Bitmap | null | undefined;
  return (
    typeof b === 'object' && b !== null &&
    Number.isSafeInteger(b.width) && Number.isSafeInteger(b.height) && b.width > 0 && b.height > 0 &&
    Number.isSafeInteger(b.bytesPerRow) && b.bytesPerRow >= (b.width + 7) >> 3 &&
    b.bits instanceof Uint8Array && b.bits.length >= b.bytesPerRow * b.height
  );
}

/** No row of `b` has a bit set past its width, in the last byte of the row. */
function pastWidthClear(b: Bitmap): boolean {
  const past = 0xff >> (b.width & 7 || 8);
  for (let at = b.bytesPerRow - 1; past !== 0 && at < b.bytesPerRow * b.height; at += b.bytesPerRow) if (b.bits[at]! & past) return false;
  return true;
}

/** A 1-bit bitmap as grey levels (for scaling it to another width, or to leave out bits past its width). */
function bitmapGrey(b: Bitmap): Grey {
  const grey = new Uint8Array(b.width * b.height);
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) grey[y * b.width + x] = b.bits[y * b.bytesPerRow + (x >> 3)]! & (0x80 >> (x & 7)) ? 0 : 255;
  }
  return { width: b.width, height: b.height, grey };
}
