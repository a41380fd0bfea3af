// What a symbology encoder gives: the bars of one symbol as element widths, and the text a scanner
// reads from it; or why the data cannot be that symbology (lower/barcode-invalid).

/** The seven symbologies of `<barcode type="…">`. */
export type Symbology = 'ean13' | 'ean8' | 'upca' | 'code39' | 'code128' | 'itf' | 'codabar';

export const SYMBOLOGIES: readonly Symbology[] = ['ean13', 'ean8', 'upca', 'code39', 'code128', 'itf', 'codabar'];

/** The symbology's name as people write it, for messages and the self-test page. */
export const SYMBOLOGY_NAMES: Readonly<Record<Symbology, string>> = {
  ean13: 'EAN-13', ean8: 'EAN-8', upca: 'UPC-A', code39: 'CODE39', code128: 'CODE128', itf: 'ITF', codabar: 'CODABAR',
};

/** One encoded symbol. */
export interface BarSymbol {
  /** What a scanner reads: the data, with the check digit where the symbology has one in its text (EAN, UPC). */
  text: string;
  /**
   * Element widths, bar first, then alternating space and bar, without quiet zones. Multi-level
   * symbologies (EAN, UPC, CODE128) give widths in modules (1–4); two-width ones (CODE39, ITF,
   * CODABAR) give 1 for a narrow element and 2 for a wide one (`wide: true`).
   */
  widths: Uint8Array;
  /** 1 and 2 in `widths` mean narrow and wide, not modules. */
  wide: boolean;
  /** Quiet zone each side, in modules (narrow elements). */
  quiet: number;
  /** CODE128 only: the symbol values from the start code on, without the check value and stop. */
  values?: number[];
}

/** Why data is not a valid symbol; `at`/`length` point into the data at the culprit, when one character is. */
export interface Invalid {
  message: string;
  at?: number;
  length?: number;
}

export type Encoded = { ok: true; symbol: BarSymbol } | { ok: false; invalid: Invalid };

export const invalid = (message: string, at?: number, length = 1): Encoded => ({ ok: false, invalid: at === undefined ? { message } : { message, at, length } });

/** Element widths from pattern strings of digits ("3211" …), concatenated. */
export function widthsOf(patterns: readonly string[]): Uint8Array {
  let total = 0;
  for (const p of patterns) total += p.length;
  const out = new Uint8Array(total);
  let k = 0;
  for (const p of patterns) for (let i = 0; i < p.length; i++) out[k++] = p.charCodeAt(i) - 48;
  return out;
}

/** The first character of `data` outside `allowed`, as an Invalid, or undefined. */
export function badCharacter(data: string, allowed: RegExp, name: string, holds: string): Encoded | undefined {
  for (let i = 0; i < data.length; i++) {
    if (allowed.test(data[i]!)) continue;
    const cp = data.codePointAt(i)!;
    const shown = cp < 0x20 || cp === 0x7f ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : `"${String.fromCodePoint(cp)}"`;
    return invalid(`${name} cannot hold ${shown}: it takes ${holds}`, i, cp > 0xffff ? 2 : 1);
  }
  return undefined;
}
