// Argument decoders for the command table: each reads the bytes after a command's prefix and
// says how far the command reaches, its named arguments and its effect. `null` means the stream
// ends inside the command (reported as truncated, never thrown).
import type { Bitmap } from '../lower/ir.js';
import type { ArgValue, Effect } from './types.js';

export interface Decoded {
  /** Index just past the command. */
  end: number;
  args?: Record<string, ArgValue>;
  effect?: Effect;
  /** A more precise name than the table's, when the arguments select a function (GS ( k fn). */
  name?: string;
}

export type Decoder = (b: Uint8Array, at: number) => Decoded | null;

/** No arguments. */
export const none =
  (effect?: Effect): Decoder =>
  (_b, at) => ({ end: at, effect });

/** Fixed one-byte arguments, named; `effect` may read them. */
export const args =
  (names: readonly string[], effect?: (v: number[]) => Effect | undefined, describe?: (v: number[]) => Record<string, ArgValue>): Decoder =>
  (b, at) => {
    if (at + names.length > b.length) return null;
    const v = Array.from(b.subarray(at, at + names.length));
    const named: Record<string, ArgValue> = {};
    names.forEach((n, i) => (named[n] = v[i]!));
    return { end: at + names.length, args: { ...named, ...describe?.(v) }, effect: effect?.(v) };
  };

/** Bytes up to and including a NUL (ESC D tab stops, GS k barcodes of types 0–6). */
export const untilNul =
  (name: string): Decoder =>
  (b, at) => {
    const nul = b.indexOf(0, at);
    if (nul < 0) return null;
    return { end: nul + 1, args: { [name]: nul - at } };
  };

/** `pL pH` then that many bytes; `body` decodes the block (GS ( x, FS ( x families). */
export const block16 =
  (body?: (data: Uint8Array) => { args?: Record<string, ArgValue>; effect?: Effect; name?: string }): Decoder =>
  (b, at) => {
    if (at + 2 > b.length) return null;
    const n = b[at]! | (b[at + 1]! << 8);
    if (at + 2 + n > b.length) return null;
    const data = b.subarray(at + 2, at + 2 + n);
    const decoded = body?.(data) ?? {};
    return { end: at + 2 + n, args: { length: n, ...decoded.args }, effect: decoded.effect, name: decoded.name };
  };

/** Converts column-major ESC * data (top byte first, MSB = top dot) into a row-major bitmap. */
export function columnsToBitmap(data: Uint8Array, columns: number, bytesPerColumn: number): Bitmap {
  const height = bytesPerColumn * 8;
  const bytesPerRow = Math.ceil(columns / 8);
  const bits = new Uint8Array(bytesPerRow * height);
  for (let x = 0; x < columns; x++) {
    for (let slice = 0; slice < bytesPerColumn; slice++) {
      const v = data[x * bytesPerColumn + slice]!;
      for (let bit = 0; bit < 8; bit++) {
        if (v & (0x80 >> bit)) bits[(slice * 8 + bit) * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
      }
    }
  }
  return { width: columns, height, bytesPerRow, bits };
}
