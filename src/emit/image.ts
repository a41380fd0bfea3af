// Raster image commands, as a table: `GS v 0` in bands that fit the receive buffer, or `ESC *`
// 24-dot double-density bands (Daruma DR800), with the line spacing around them from the profile.
import type { Bitmap } from '../lower/ir.js';
import { expandTemplate, compileTemplate } from '../profiles/bytes.js';
import type { Profile } from '../profiles/index.js';
import type { ByteWriter } from './writer.js';

type Image = NonNullable<Profile['image']>;

/** Fixed bytes from profile data ("1B 33 18"). */
const hexBytes = (hex: string) => expandTemplate(compileTemplate(hex));
type Encoder = (out: ByteWriter, bitmap: Bitmap, image: Image, start: number, end: number) => void;

export const IMAGE_ENCODERS: Readonly<Record<Image['command'], Encoder>> = {
  'gs-v-0': (out, { height, bytesPerRow, bits }, image, start, end) => {
    const bandRows = Math.max(1, Math.min(image.maxBandRows ?? Infinity, Math.floor(image.maxBandBytes / bytesPerRow)));
    for (let y = 0; y < height; y += bandRows) {
      const rows = Math.min(bandRows, height - y);
      out.mark('raster', 'raster band', start, end);
      out.bytes(Uint8Array.of(0x1d, 0x76, 0x30, 0x00, bytesPerRow & 0xff, bytesPerRow >> 8, rows & 0xff, rows >> 8));
      out.bytes(bits.subarray(y * bytesPerRow, (y + rows) * bytesPerRow));
    }
  },
  'esc-star-24': (out, { width, height, bytesPerRow, bits }, image, start, end) => {
    // Line spacing around the bands and what ends each band are the printer's (profile data):
    // an Epson prints a band at the LF after it; a printer that prints ESC * by itself needs none.
    if (image.lineSpacing) {
      out.mark('bandSpacing', 'band line spacing', start, end);
      out.bytes(hexBytes(image.lineSpacing));
    }
    const bandEnd = image.bandEnd ? hexBytes(image.bandEnd) : undefined;
    for (let y = 0; y < height; y += 24) {
      out.mark('band', 'bit image band', start, end);
      out.bytes(Uint8Array.of(0x1b, 0x2a, 0x21, width & 0xff, width >> 8));
      out.reserve(width * 3);
      const buf = out.raw();
      let at = out.length;
      for (let x = 0; x < width; x++) {
        const byteIndex = x >> 3;
        const mask = 0x80 >> (x & 7);
        for (let slice = 0; slice < 3; slice++) {
          let v = 0;
          for (let bit = 0; bit < 8; bit++) {
            const row = y + slice * 8 + bit;
            if (row < height && bits[row * bytesPerRow + byteIndex]! & mask) v |= 0x80 >> bit;
          }
          buf[at++] = v;
        }
      }
      out.length = at;
      if (bandEnd) out.bytes(bandEnd);
    }
    if (image.lineSpacingReset) {
      out.mark('spacingReset', 'default line spacing', start, end);
      out.bytes(hexBytes(image.lineSpacingReset));
    }
  },
};
