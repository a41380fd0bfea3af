// Raster image commands, as a table: `GS v 0` in bands that fit the receive buffer, or `ESC *`
// 24-dot double-density bands (Daruma DR800).
import type { Bitmap } from '../lower/ir.js';
import type { ProfileData } from '../profiles/schema.js';
import type { ByteWriter } from './writer.js';

type Image = NonNullable<ProfileData['image']>;
type Encoder = (out: ByteWriter, bitmap: Bitmap, image: Image, start: number, end: number) => void;

export const IMAGE_ENCODERS: Readonly<Record<Image['command'], Encoder>> = {
  'gs-v-0': (out, { height, bytesPerRow, bits }, image, start, end) => {
    const bandRows = Math.max(1, Math.min(2303, Math.floor(image.maxBandBytes / bytesPerRow)));
    for (let y = 0; y < height; y += bandRows) {
      const rows = Math.min(bandRows, height - y);
      out.mark('raster band', start, end);
      out.bytes(Uint8Array.of(0x1d, 0x76, 0x30, 0x00, bytesPerRow & 0xff, bytesPerRow >> 8, rows & 0xff, rows >> 8));
      out.bytes(bits.subarray(y * bytesPerRow, (y + rows) * bytesPerRow));
    }
  },
  'esc-star-24': (out, { width, height, bytesPerRow, bits }, _image, start, end) => {
    out.mark('line spacing 24 dots', start, end);
    out.bytes(Uint8Array.of(0x1b, 0x33, 0x18));
    for (let y = 0; y < height; y += 24) {
      out.mark('bit image band', start, end);
      out.bytes(Uint8Array.of(0x1b, 0x2a, 0x21, width & 0xff, width >> 8));
      out.reserve(width * 3 + 1);
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
      buf[at++] = 0x0a;
      out.length = at;
    }
    out.mark('default line spacing', start, end);
    out.bytes(Uint8Array.of(0x1b, 0x32));
  },
};
