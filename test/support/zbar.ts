// zbarimg (Debian's zbar-tools), the real barcode decoder the barcode tests read their symbols
// back with. Without it those tests skip with one visible line, except under BOBINA_CI=1
// (.ci/run), where that is a failure saying why.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { Bitmap } from '../../src/index.js';

function found(): boolean {
  try {
    execFileSync('zbarimg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const haveZbar = found();

if (!haveZbar) {
  const why = 'no zbarimg on the PATH (install it: apt-get install -y zbar-tools)';
  if (process.env.BOBINA_CI === '1') throw new Error(`barcode decoding tests cannot run: ${why}; BOBINA_CI=1 makes this a failure`);
  console.warn(`skipping the barcode decoding tests: ${why}`);
}

/** zbar's symbology names, as zbarimg prints them before the data. */
export type ZbarType = 'EAN-13' | 'EAN-8' | 'UPC-A' | 'CODE-39' | 'CODE-128' | 'I2/5' | 'Codabar' | 'QR-Code';

/**
 * Every symbol zbarimg finds in a PNG, as `TYPE:data` strings. UPC-A is reported as such (not as
 * EAN-13 with a leading 0), ITF of any length, and CODE39 without a check character.
 */
export function zbarDecode(png: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bobina-zbar-'));
  try {
    const file = join(dir, 'symbol.png');
    writeFileSync(file, png);
    const r = spawnSync('zbarimg', ['--quiet', '-Supca.enable', '-Si25.min-length=2', '-Scodabar.min-length=1', '-Scode39.min-length=1', file], { encoding: 'utf8', timeout: 30_000 });
    // zbarimg exits 4 when it found no symbol: an empty answer, not an error.
    if (r.status !== 0 && r.status !== 4) throw new Error(`zbarimg failed (${r.status}): ${r.stderr}`);
    return r.stdout.split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A 1-bit bitmap as a PNG (black on white), with a white margin and each dot `scale` pixels. */
export function bitmapPng(bitmap: Bitmap, margin = 20, scale = 1): Uint8Array {
  const png = new PNG({ width: bitmap.width * scale + 2 * margin, height: bitmap.height * scale + 2 * margin });
  png.data.fill(255);
  for (let y = 0; y < bitmap.height * scale; y++) {
    for (let x = 0; x < bitmap.width * scale; x++) {
      const bx = Math.floor(x / scale);
      if (!(bitmap.bits[Math.floor(y / scale) * bitmap.bytesPerRow + (bx >> 3)]! & (0x80 >> (bx & 7)))) continue;
      const i = ((y + margin) * png.width + x + margin) * 4;
      png.data[i] = png.data[i + 1] = png.data[i + 2] = 0;
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

const ZBAR_TYPES: Readonly<Record<string, ZbarType>> = { ean13: 'EAN-13', ean8: 'EAN-8', upca: 'UPC-A', code39: 'CODE-39', code128: 'CODE-128', itf: 'I2/5', codabar: 'Codabar' };

/**
 * What zbarimg prints for a symbol of `symbology` whose text is `text`. An EAN-13 whose first digit
 * is 0 is a UPC-A symbol (the same bars), and zbar, with UPC-A enabled, says so.
 */
export function zbarReads(symbology: string, text: string): string {
  if (symbology === 'ean13' && text.startsWith('0')) return `UPC-A:${text.slice(1)}`;
  return `${ZBAR_TYPES[symbology]}:${text}`;
}
