// The PNG decoder on hand-built files: what each header field, chunk and pixel format may hold, and
// the exact reason given for a file it cannot read. (image-pipeline.test.ts compares whole images
// with pngjs, to within one grey level; here the levels are exact.)
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { decodePng, pngSize } from '../../src/lower/image/png.js';
import { chunk } from '../support/png-writer.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** IHDR's 13 bytes: width, height, bit depth, colour type, compression, filter, interlace. */
function ihdr(width: number, height: number, depth: number, colour: number, { interlace = 0, compression = 0, filter = 0 } = {}): Uint8Array {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  data.set([depth, colour, compression, filter, interlace], 8);
  return chunk('IHDR', data);
}
const idat = (raw: number[]) => chunk('IDAT', deflateSync(Uint8Array.from(raw)));
const plte = (...colours: number[][]) => chunk('PLTE', Uint8Array.from(colours.flat()));
const trns = (...bytes: number[]) => chunk('tRNS', Uint8Array.from(bytes));
const IEND = chunk('IEND', new Uint8Array(0));
const png = (...chunks: Uint8Array[]) => Uint8Array.from([...SIGNATURE, ...chunks.flatMap((c) => [...c])]);
const grey = (out: ReturnType<typeof decodePng>) => {
  if ('error' in out) throw new Error(out.error);
  return Array.from(out.grey);
};

describe('PNG header', () => {
  it('a file of its signature and IHDR alone has a size, but no image', () => {
    const file = png(ihdr(5, 3, 8, 0));
    expect(file).toHaveLength(33);
    expect(pngSize(file)).toEqual({ width: 5, height: 3 });
    expect(decodePng(file, 1e6)).toEqual({ error: 'the file ends before its IEND chunk' });
    expect(pngSize(file.subarray(0, 32))).toEqual({ error: 'not a PNG file (no PNG signature)' });
  });

  it('any one wrong byte of the signature makes it no PNG', () => {
    const good = png(ihdr(1, 1, 8, 0), idat([0, 0]), IEND);
    for (let i = 0; i < 8; i++) {
      const bad = Uint8Array.from(good);
      bad[i]! ^= 0x20;
      expect(pngSize(bad)).toEqual({ error: 'not a PNG file (no PNG signature)' });
      expect(decodePng(bad, 1e6)).toEqual({ error: 'not a PNG file (no PNG signature)' });
    }
  });

  it('IHDR must be the first chunk', () => {
    const first = png(chunk('tEXt', new TextEncoder().encode('Title\0x')), ihdr(1, 1, 8, 0), idat([0, 0]), IEND);
    expect(pngSize(first)).toEqual({ error: 'no IHDR chunk first' });
    expect(decodePng(first, 1e6)).toEqual({ error: 'no IHDR chunk first' });
  });

  it('a width or height of 0 or past 2³¹ − 1 is a bad size', () => {
    for (const [w, h] of [[0, 1], [1, 0], [0x80000000, 1], [1, 0x80000000], [0xffffffff, 0xffffffff]] as const) {
      expect(pngSize(png(ihdr(w, h, 8, 0)))).toEqual({ error: `bad size ${w}×${h}` });
    }
    expect(pngSize(png(ihdr(0x7fffffff, 0x7fffffff, 8, 0)))).toEqual({ width: 0x7fffffff, height: 0x7fffffff });
    expect(decodePng(png(ihdr(1, 0x7fffffff, 8, 0)), 1e6)).toEqual({ error: '1×2147483647 pixels is more than 1000000' });
  });

  it('a size no buffer can hold, with no pixel limit, is an unreadable image, not an internal error', () => {
    // 65536 × 65536 grey: 2³² + 65536 bytes of scanlines, past the longest typed array.
    const file = png(ihdr(65536, 65536, 8, 0), idat([0, 0]), IEND);
    expect(decodePng(file, Infinity)).toEqual({ error: expect.stringMatching(/^too large to decode here \(.+\)$/) });
    const { diagnostics } = compile('<image src="big">', { printer: 5, images: { big: file }, limits: { maxImagePixels: Infinity } });
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'lower/image-unreadable', message: expect.stringMatching(/^unreadable PNG: too large to decode here/) })]);
  });

  it('takes exactly the colour types and bit depths of the PNG standard', () => {
    const allowed = new Set(['0/1', '0/2', '0/4', '0/8', '0/16', '2/8', '2/16', '3/1', '3/2', '3/4', '3/8', '4/8', '4/16', '6/8', '6/16']);
    for (let colour = 0; colour < 8; colour++) {
      for (let depth = 0; depth <= 32; depth++) {
        const size = pngSize(png(ihdr(2, 2, depth, colour)));
        if (allowed.has(`${colour}/${depth}`)) expect(size).toEqual({ width: 2, height: 2 });
        else expect(size).toEqual({ error: `colour type ${colour} with bit depth ${depth} is not a PNG format` });
      }
    }
  });

  it('only compression 0, filter method 0 and interlace 0 or 1 exist', () => {
    const unknown = { error: 'unknown compression, filter or interlace method' };
    expect(pngSize(png(ihdr(1, 1, 8, 0, { compression: 1 })))).toEqual(unknown);
    expect(pngSize(png(ihdr(1, 1, 8, 0, { filter: 1 })))).toEqual(unknown);
    expect(pngSize(png(ihdr(1, 1, 8, 0, { interlace: 2 })))).toEqual(unknown);
    expect(pngSize(png(ihdr(1, 1, 8, 0, { interlace: 1 })))).toEqual({ width: 1, height: 1 });
  });
});

describe('PNG chunks', () => {
  it('skips chunks it has no use for, joins IDAT chunks and stops at IEND', () => {
    const z = deflateSync(Uint8Array.of(0, 0, 255, 1, 128, 0));
    const file = png(
      ihdr(2, 2, 8, 0),
      chunk('gAMA', Uint8Array.of(0, 0, 0xb1, 0x8f)),
      chunk('IDAT', z.subarray(0, 3)),
      chunk('tEXt', new TextEncoder().encode('Comment\0IDAT')),
      chunk('IDAT', z.subarray(3)),
      IEND,
      Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
    );
    expect(decodePng(file, 1e6)).toEqual({ width: 2, height: 2, grey: Uint8Array.of(0, 255, 128, 128) });
  });

  it('a chunk longer than what is left of the file is cut', () => {
    const file = png(ihdr(1, 1, 8, 0), idat([0, 0]), IEND);
    // IEND says it holds one byte: it runs one past the end of the file.
    file.set([0, 0, 0, 1], file.length - 12);
    expect(decodePng(file, 1e6)).toEqual({ error: 'the file ends inside a chunk' });
    expect(decodePng(png(ihdr(1, 1, 8, 0), idat([0, 0])), 1e6)).toEqual({ error: 'the file ends before its IEND chunk' });
  });

  it('a palette image needs its PLTE chunk', () => {
    expect(decodePng(png(ihdr(1, 1, 8, 3), idat([0, 0]), IEND), 1e6)).toEqual({ error: 'a palette image without its PLTE chunk' });
    expect(decodePng(png(ihdr(1, 1, 8, 3), plte([0, 0, 0]), idat([0, 0]), IEND), 1e6)).toEqual({ width: 1, height: 1, grey: Uint8Array.of(0) });
  });

  it('says when the image data holds less than the size, or is no zlib stream', () => {
    // 3 × 2 grey: two rows of a filter byte and 3 samples; one row short.
    expect(decodePng(png(ihdr(3, 2, 8, 0), idat([0, 1, 2, 3]), IEND), 1e6)).toEqual({ error: 'image data shorter than its size says' });
    expect(decodePng(png(ihdr(3, 2, 8, 0), idat([0, 1, 2, 3, 0, 4, 5]), IEND), 1e6)).toEqual({ error: 'image data shorter than its size says' });
    expect(decodePng(png(ihdr(3, 2, 8, 0), chunk('IDAT', Uint8Array.of(1, 2, 3, 4)), IEND), 1e6)).toEqual({ error: 'damaged image data (not a zlib stream)' });
  });

  it('names an unknown scanline filter', () => {
    expect(decodePng(png(ihdr(2, 2, 8, 0), idat([0, 1, 2, 5, 3, 4]), IEND), 1e6)).toEqual({ error: 'unknown scanline filter 5' });
  });
});

describe('PNG pixels', () => {
  it('Paeth: when b and c are equally near the estimate (and a is not nearer), b is the prediction, not c', () => {
    // Row 2, pixel 2: a = 15 (left), b = 0 (above), c = 10 (above left); a + b − c = 5 is 5 from b and
    // from c, 10 from a. The spec's order a, b, c gives b: 0 + 100 = 100 (c would give 110).
    expect(grey(decodePng(png(ihdr(2, 2, 8, 0), idat([0, 10, 0, 4, 5, 100]), IEND), 1e6))).toEqual([10, 0, 15, 100]);
  });

  it('a palette index past PLTE is an error, a tRNS shorter than PLTE leaves the rest opaque', () => {
    const palette = plte([0, 0, 0], [255, 255, 255], [100, 100, 100]);
    expect(decodePng(png(ihdr(2, 1, 8, 3), plte([0, 0, 0], [255, 255, 255]), idat([0, 1, 2]), IEND), 1e6)).toEqual({
      error: 'palette index 2 past the 2 colours of PLTE',
    });
    // Index 0 (black) is transparent: white; indexes 1 and 2 have no tRNS entry: opaque.
    expect(grey(decodePng(png(ihdr(3, 1, 8, 3), palette, trns(0), idat([0, 0, 1, 2]), IEND), 1e6))).toEqual([255, 255, 100]);
    expect(grey(decodePng(png(ihdr(3, 1, 8, 3), palette, trns(0, 0, 0), idat([0, 0, 1, 2]), IEND), 1e6))).toEqual([255, 255, 255]);
  });

  it('a grey or RGB colour key applies only when tRNS holds all of it', () => {
    // Grey 8-bit key 0x0040: pixels 0x40 are white, others keep their level.
    expect(grey(decodePng(png(ihdr(2, 1, 8, 0), trns(0, 0x40), idat([0, 0x40, 0x41]), IEND), 1e6))).toEqual([255, 0x41]);
    // One byte is no key.
    expect(grey(decodePng(png(ihdr(2, 1, 8, 0), trns(0x40), idat([0, 0, 0x40]), IEND), 1e6))).toEqual([0, 0x40]);
    // RGB key (0, 0, 0) in 6 bytes: black is white, a colour that matches it in two channels is not;
    // with the key's last byte missing there is no key. Luma of 200 in R, G, B: 59.8, 117.4, 22.8.
    const rgb = idat([0, 0, 0, 0, 200, 0, 0, 0, 200, 0, 0, 0, 200]);
    expect(grey(decodePng(png(ihdr(4, 1, 8, 2), trns(0, 0, 0, 0, 0, 0), rgb, IEND), 1e6))).toEqual([255, 60, 117, 23]);
    expect(grey(decodePng(png(ihdr(4, 1, 8, 2), trns(0, 0, 0, 0, 0), rgb, IEND), 1e6))).toEqual([0, 60, 117, 23]);
  });

  it('16-bit samples keep their low byte: in a colour key, and rounded to 8 bits', () => {
    // Key 0x0100 matches 0x0100 but not 0x0101 or 0x0000. 0x80ff / 257 = 128.49 → 128; 0x8101 / 257 = 128.50… → 129.
    const file = png(ihdr(5, 1, 16, 0), trns(1, 0), idat([0, 1, 0, 1, 1, 0, 0, 0x80, 0xff, 0x81, 0x01]), IEND);
    expect(grey(decodePng(file, 1e6))).toEqual([255, 1, 0, 128, 129]);
  });
});
