// The ESC/POS command table, keyed by prefix bytes: Epson ESC/POS as the TM-T20 family speaks it,
// plus vendor commands that collide with nothing in Epson's set (Bematech GS k Q and GS F9, Daruma
// ESC 0x81, the one-line double width ESC SO / DC4). Per-printer differences (Daruma's ESC j, ESC m, bare ESC p…) come from profile data in
// dialect.ts, never from branches here.
import type { Align } from '../lower/ir.js';
import { args, block16, columnsToBitmap, none, untilNul, type Decoded, type Decoder } from './decoders.js';
import { SYMBOLOGY_NAMES as NAMES_OF, type Symbology } from '../lower/barcode/symbol.js';
import type { HriPosition } from '../lower/ir.js';
import type { ArgValue, Ecc, Effect } from './types.js';

export interface CommandSpec {
  prefix: readonly number[];
  name: string;
  decode: Decoder;
}

const ESC = 0x1b;
const GS = 0x1d;
const FS = 0x1c;
const DLE = 0x10;
const c = (s: string) => s.charCodeAt(0);

/** ESC t n → iconv-lite code page (Epson numbering). */
export const CODEPAGES: Readonly<Record<number, string>> = {
  0: 'cp437', 2: 'cp850', 3: 'cp860', 4: 'cp863', 5: 'cp865', 16: 'cp1252', 17: 'cp866', 19: 'cp858',
};

const ALIGNS: Record<number, Align> = { 0: 'left', 1: 'center', 2: 'right', 48: 'left', 49: 'center', 50: 'right' };
const EPSON_ECC: Record<number, Ecc> = { 48: 'L', 49: 'M', 50: 'Q', 51: 'H' };
const BEMATECH_ECC: Record<number, Ecc> = { 0: 'L', 1: 'M', 2: 'Q', 3: 'H' };
const DARUMA_ECC: Record<number, Ecc> = { 0x4d: 'M', 0x51: 'Q', 0x48: 'H' };

/** GS V m [n]: which m take an n, and whether they cut partially. */
const CUTS: Record<number, { partial: boolean; n: boolean }> = {
  0: { partial: false, n: false }, 48: { partial: false, n: false },
  1: { partial: true, n: false }, 49: { partial: true, n: false },
  65: { partial: false, n: true }, 66: { partial: true, n: true },
  97: { partial: false, n: true }, 98: { partial: true, n: true },
  103: { partial: false, n: true }, 104: { partial: true, n: true },
};

const cut: Decoder = (b, at) => {
  if (at >= b.length) return null;
  const m = b[at]!;
  const kind = CUTS[m];
  if (!kind) return { end: at + 1, args: { m } };
  if (kind.n && at + 1 >= b.length) return null;
  const a: Record<string, ArgValue> = { m, mode: kind.partial ? 'partial' : 'full' };
  if (kind.n) a.n = b[at + 1]!;
  return { end: at + (kind.n ? 2 : 1), args: a, effect: { type: 'cut', partial: kind.partial } };
};

/** GS ( k with cn = 49: the QR code functions. */
const QR_FUNCTIONS: Record<number, { name: string; effect?: (d: Uint8Array) => Effect | undefined }> = {
  0x41: { name: 'QR: select model' },
  0x43: { name: 'QR: module size', effect: (d) => ({ type: 'qr-size', size: d[2] ?? 3 }) },
  0x45: { name: 'QR: error correction', effect: (d) => ({ type: 'qr-ecc', ecc: EPSON_ECC[d[2] ?? 0] ?? 'L' }) },
  0x50: { name: 'QR: store data', effect: (d) => ({ type: 'qr-store', data: d.slice(3) }) },
  0x51: { name: 'QR: print symbol', effect: () => ({ type: 'qr-print' }) },
  0x52: { name: 'QR: transmit size' },
};

const gsParenK: Decoder = (b, at) =>
  block16((d) => {
    const cn = d[0];
    const fn = QR_FUNCTIONS[d[1] ?? -1];
    if (cn !== 49 || !fn) return { args: { cn: cn ?? -1, fn: d[1] ?? -1 } };
    const a: Record<string, ArgValue> = {};
    if (d[1] === 0x50) a.data = new TextDecoder().decode(d.subarray(3));
    else if (d.length > 2) a.n = d[2]!;
    return { args: a, effect: fn.effect?.(d), name: fn.name };
  })(b, at);

/** GS k m: Epson's barcode systems, NUL-terminated (0–6) and counted (65–73). */
const GS_K_TYPES: Readonly<Record<number, Symbology>> = {
  0: 'upca', 2: 'ean13', 3: 'ean8', 4: 'code39', 5: 'itf', 6: 'codabar',
  65: 'upca', 67: 'ean13', 68: 'ean8', 69: 'code39', 70: 'itf', 71: 'codabar', 73: 'code128',
};
const GS_K_NAMES: Readonly<Record<number, string>> = { 1: 'UPC-E', 66: 'UPC-E', 72: 'CODE93', 74: 'GS1-128' };
/** Daruma ESC b n: its barcode types (ACBr ACBrEscDaruma.pas). */
const ESC_B_TYPES: Readonly<Record<number, Symbology>> = { 1: 'ean13', 2: 'ean8', 4: 'itf', 5: 'code128', 6: 'code39', 8: 'upca', 9: 'codabar' };
const HRI: readonly HriPosition[] = ['none', 'above', 'below', 'both'];

const latin1 = (d: Uint8Array) => String.fromCharCode(...d);

/** GS k: barcodes (NUL-terminated types 0–6, counted types 65+), and Bematech's QR (m = 'Q'). */
const gsK: Decoder = (b, at): Decoded | null => {
  if (at >= b.length) return null;
  const m = b[at]!;
  if (m === 0x51) {
    if (at + 7 > b.length) return null;
    const [n1, n2, n3, n4, nL, nH] = Array.from(b.subarray(at + 1, at + 7)) as number[];
    const k = nL! | (nH! << 8);
    if (at + 7 + k > b.length) return null;
    const data = b.slice(at + 7, at + 7 + k);
    return {
      end: at + 7 + k,
      args: { m: 'Q (Bematech QR)', ecc: n1!, size: n2!, n3: n3!, n4: n4!, length: k, data: new TextDecoder().decode(data) },
      effect: { type: 'qr', data, size: n2!, ecc: BEMATECH_ECC[n1!] ?? 'L' },
    };
  }
  const symbology = GS_K_TYPES[m];
  const type = symbology ? NAMES_OF[symbology] : (GS_K_NAMES[m] ?? 'unknown');
  if (m <= 6) {
    const r = untilNul('length')(b, at + 1);
    if (!r) return null;
    const data = b.slice(at + 1, r.end - 1);
    return { ...r, args: { m, type, ...r.args, data: latin1(data) }, effect: { type: 'barcode', ...(symbology && { symbology }), data } };
  }
  if (at + 1 >= b.length) return null;
  const n = b[at + 1]!;
  if (at + 2 + n > b.length) return null;
  const data = b.slice(at + 2, at + 2 + n);
  return { end: at + 2 + n, args: { m, type, length: n, data: latin1(data) }, effect: { type: 'barcode', ...(symbology && { symbology }), data } };
};

/** Daruma ESC b n width height text d1…dk NUL: a barcode with its own parameters. */
const darumaBarcode: Decoder = (b, at): Decoded | null => {
  if (at + 4 > b.length) return null;
  const [n, module, height, text] = Array.from(b.subarray(at, at + 4)) as number[];
  const nul = b.indexOf(0, at + 4);
  if (nul < 0) return null;
  const data = b.slice(at + 4, nul);
  const symbology = ESC_B_TYPES[n!];
  const position: HriPosition = text ? 'below' : 'none';
  return {
    end: nul + 1,
    args: { n: n!, type: symbology ? NAMES_OF[symbology] : 'unknown', width: module!, height: height!, text: position, data: latin1(data) },
    effect: { type: 'barcode', ...(symbology && { symbology }), data, module: module!, height: height!, text: position },
  };
};

/** Daruma ESC 0x81: pL pH (k + 2) w e data. */
const darumaQr: Decoder = (b, at) =>
  block16((d) => {
    const data = d.slice(2);
    return {
      args: { width: d[0] ?? 0, ecc: d[1] ?? 0, data: new TextDecoder().decode(data) },
      effect: { type: 'qr', data, size: d[0] ?? 3, ecc: DARUMA_ECC[d[1] ?? 0] ?? 'M' },
    };
  })(b, at);

/** GS v 0 m xL xH yL yH d: raster bit image; m doubles width (1), height (2) or both (3). */
const rasterImage: Decoder = (b, at): Decoded | null => {
  if (at + 6 > b.length) return null;
  if (b[at] !== 0x30) return { end: at + 1, args: { fn: b[at]! } };
  const m = b[at + 1]!;
  const bytesPerRow = b[at + 2]! | (b[at + 3]! << 8);
  const height = b[at + 4]! | (b[at + 5]! << 8);
  const size = bytesPerRow * height;
  if (at + 6 + size > b.length) return null;
  const bits = b.slice(at + 6, at + 6 + size);
  return {
    end: at + 6 + size,
    args: { m, width: bytesPerRow * 8, height },
    effect: { type: 'raster', bitmap: { width: bytesPerRow * 8, height, bytesPerRow, bits }, scaleX: m & 1 ? 2 : 1, scaleY: m & 2 ? 2 : 1 },
  };
};

/** ESC * m nL nH d: one band of a bit image; 8-dot modes 0/1, 24-dot modes 32/33 (single density doubles width). */
const bitImage: Decoder = (b, at) => {
  if (at + 3 > b.length) return null;
  const m = b[at]!;
  const columns = b[at + 1]! | (b[at + 2]! << 8);
  const perColumn = m >= 32 ? 3 : 1;
  const size = columns * perColumn;
  if (at + 3 + size > b.length) return null;
  const bitmap = columnsToBitmap(b.subarray(at + 3, at + 3 + size), columns, perColumn);
  return {
    end: at + 3 + size,
    args: { m, columns, dots: perColumn * 8 },
    effect: { type: 'band', bitmap, scaleX: m & 1 ? 1 : 2, scaleY: perColumn === 3 ? 1 : 3 },
  };
};

/** ESC & y c1 c2 [x d1…d(y·x)]…: user-defined characters. */
const userChars: Decoder = (b, at) => {
  if (at + 3 > b.length) return null;
  const y = b[at]!;
  const count = b[at + 2]! - b[at + 1]! + 1;
  let p = at + 3;
  for (let i = 0; i < Math.max(0, count); i++) {
    if (p >= b.length) return null;
    p += 1 + y * b[p]!;
  }
  return p > b.length ? null : { end: p, args: { y, c1: b[at + 1]!, c2: b[at + 2]! } };
};

/** GS * x y d: downloaded bit image, x·y·8 bytes. */
const downloadImage: Decoder = (b, at) => {
  if (at + 2 > b.length) return null;
  const end = at + 2 + b[at]! * b[at + 1]! * 8;
  return end > b.length ? null : { end, args: { x: b[at]!, y: b[at + 1]! } };
};

/** GS 8 L p1 p2 p3 p4 …: graphics data with a 32-bit length. */
const gs8L: Decoder = (b, at) => {
  if (at + 4 > b.length) return null;
  const n = b[at]! + b[at + 1]! * 0x100 + b[at + 2]! * 0x10000 + b[at + 3]! * 0x1000000;
  const end = at + 4 + n;
  return end > b.length ? null : { end, args: { length: n } };
};

const pulse = (v: number[]): Effect => ({ type: 'drawer', pin: v[0]! & 1 ? 5 : 2, onMs: v[1]! * 2, offMs: v[2]! * 2 });
const align = (v: number[]): Effect | undefined => (ALIGNS[v[0]!] ? { type: 'align', align: ALIGNS[v[0]!]! } : undefined);
const bit0 = (v: number[]) => (v[0]! & 1) === 1;
const onOff = (name: string, on: (v: number[]) => boolean) => (v: number[]) => ({ [name]: on(v) ? 'on' : 'off' });
/** ESC - n: 0/48 off, 1/49 one dot, 2/50 two dots thick. */
const underlined = (v: number[]) => (v[0]! & 3) !== 0;
/** ESC ! n: the font (bit 0), and emphasized (3), double height (4), double width (5), underline (7). */
const printMode = (v: number[]): Effect => ({
  type: 'condensed',
  on: bit0(v),
  mode: { bold: (v[0]! & 0x08) !== 0, underline: (v[0]! & 0x80) !== 0, width: v[0]! & 0x20 ? 2 : 1, height: v[0]! & 0x10 ? 2 : 1 },
});
/**
 * ESC SO: double width until the line ends or DC4 ends it (Epson ESC/P: SQ-850/2550 and DFX-5000
 * command summaries, "Select double-width mode (one line)"; ESC/Bema's SO, MP-4200 TH manual
 * p.25). Daruma's drivers send a NUL after it (Vip.Printer EscDarumaCommands/FontWidth.cs,
 * node-thermal-printer daruma-config.js): read as part of the command, whether or not the printer
 * takes it as a parameter.
 */
const oneLineWide: Decoder = (b, at) => {
  const effect: Effect = { type: 'size', width: 2, oneLine: true };
  return b[at] === 0 ? { end: at + 1, args: { nul: 0 }, effect } : { end: at, effect };
};

/** GS ! n: width − 1 in the high nibble, height − 1 in the low one. */
const charSize = (v: number[]): Effect => ({ type: 'size', width: (v[0]! >> 4) + 1, height: (v[0]! & 15) + 1 });

let made: readonly CommandSpec[] | undefined;

/**
 * Commands by prefix. Names follow Epson's ESC/POS reference. Made on first use, so that a bundle
 * of the compiler alone (which never disassembles) leaves the table and its decoders out.
 */
export const commandSpecs = (): readonly CommandSpec[] => (made ??= [
  { prefix: [0x0a], name: 'print and line feed', decode: none({ type: 'lf' }) },
  { prefix: [0x0c], name: 'print and return to standard mode', decode: none({ type: 'lf' }) },
  { prefix: [0x0d], name: 'carriage return', decode: none() },
  { prefix: [0x14], name: 'cancel one-line double width (DC4)', decode: none({ type: 'size', width: 1, oneLine: true }) },
  { prefix: [0x18], name: 'cancel print data (page mode)', decode: none() },
  { prefix: [DLE, 0x04], name: 'real-time status', decode: args(['n']) },
  { prefix: [DLE, 0x05], name: 'real-time request', decode: args(['n']) },
  { prefix: [DLE, 0x14], name: 'real-time pulse', decode: args(['fn', 'm', 't'], (v) => (v[0] === 1 ? { type: 'drawer', pin: v[1]! & 1 ? 5 : 2, onMs: v[2]! * 100 } : undefined)) },
  { prefix: [ESC, 0x0c], name: 'print data in page mode', decode: none() },
  { prefix: [ESC, 0x0e], name: 'double width for one line (ESC SO)', decode: oneLineWide },
  { prefix: [ESC, c(' ')], name: 'right-side character spacing', decode: args(['n']) },
  { prefix: [ESC, c('!')], name: 'select print mode', decode: args(['n'], printMode, (v) => ({ font: bit0(v) ? 'B (condensed)' : 'A' })) },
  { prefix: [ESC, c('$')], name: 'absolute print position', decode: args(['nL', 'nH']) },
  { prefix: [ESC, c('%')], name: 'select user-defined characters', decode: args(['n']) },
  { prefix: [ESC, c('&')], name: 'define user-defined characters', decode: userChars },
  { prefix: [ESC, c('*')], name: 'select bit-image mode', decode: bitImage },
  { prefix: [ESC, c('-')], name: 'underline', decode: args(['n'], (v) => ({ type: 'underline', on: underlined(v) }), onOff('underline', underlined)) },
  { prefix: [ESC, c('2')], name: 'default line spacing', decode: none({ type: 'spacing', dots: null }) },
  { prefix: [ESC, c('3')], name: 'set line spacing', decode: args(['n'], (v) => ({ type: 'spacing', dots: v[0]! })) },
  { prefix: [ESC, c('=')], name: 'select peripheral device', decode: args(['n']) },
  { prefix: [ESC, c('?')], name: 'cancel user-defined character', decode: args(['n']) },
  { prefix: [ESC, c('@')], name: 'initialize printer', decode: none({ type: 'reset' }) },
  { prefix: [ESC, c('D')], name: 'set horizontal tab positions', decode: untilNul('tabs') },
  { prefix: [ESC, c('E')], name: 'emphasized', decode: args(['n'], (v) => ({ type: 'bold', on: bit0(v) }), onOff('bold', bit0)) },
  { prefix: [ESC, c('G')], name: 'double-strike', decode: args(['n']) },
  { prefix: [ESC, c('J')], name: 'print and feed n dots', decode: args(['n'], (v) => ({ type: 'feed', dots: v[0]! })) },
  { prefix: [ESC, c('L')], name: 'select page mode', decode: none() },
  { prefix: [ESC, c('M')], name: 'select character font', decode: args(['n'], (v) => ({ type: 'condensed', on: bit0(v) }), (v) => ({ font: bit0(v) ? 'B (condensed)' : 'A' })) },
  { prefix: [ESC, c('R')], name: 'select international character set', decode: args(['n']) },
  { prefix: [ESC, c('S')], name: 'select standard mode', decode: none() },
  { prefix: [ESC, c('T')], name: 'select print direction (page mode)', decode: args(['n']) },
  { prefix: [ESC, c('V')], name: '90° rotation', decode: args(['n']) },
  { prefix: [ESC, c('W')], name: 'set print area (page mode)', decode: args(['xL', 'xH', 'yL', 'yH', 'dxL', 'dxH', 'dyL', 'dyH']) },
  { prefix: [ESC, c('\\')], name: 'relative print position', decode: args(['nL', 'nH']) },
  { prefix: [ESC, c('b')], name: 'print barcode (Daruma)', decode: darumaBarcode },
  { prefix: [ESC, c('a')], name: 'select justification', decode: args(['n'], align, (v) => ({ align: ALIGNS[v[0]!] ?? 'invalid' })) },
  { prefix: [ESC, c('c'), c('3')], name: 'paper sensor for paper-end signals', decode: args(['n']) },
  { prefix: [ESC, c('c'), c('4')], name: 'paper sensor to stop printing', decode: args(['n']) },
  { prefix: [ESC, c('c'), c('5')], name: 'enable/disable panel buttons', decode: args(['n']) },
  { prefix: [ESC, c('d')], name: 'print and feed n lines', decode: args(['n'], (v) => ({ type: 'feed', lines: v[0]! })) },
  { prefix: [ESC, c('e')], name: 'print and reverse feed n lines', decode: args(['n'], (v) => ({ type: 'feed', lines: v[0]!, reverse: true })) },
  { prefix: [ESC, c('i')], name: 'partial cut (one point left)', decode: none({ type: 'cut', partial: true }) },
  { prefix: [ESC, c('j')], name: 'print and reverse feed n dots', decode: args(['n'], (v) => ({ type: 'feed', dots: v[0]!, reverse: true })) },
  { prefix: [ESC, c('m')], name: 'partial cut (three points left)', decode: none({ type: 'cut', partial: true }) },
  { prefix: [ESC, c('p')], name: 'generate pulse (cash drawer)', decode: args(['m', 't1', 't2'], pulse, (v) => ({ pin: v[0]! & 1 ? 5 : 2, on: `${v[1]! * 2} ms`, off: `${v[2]! * 2} ms` })) },
  { prefix: [ESC, c('t')], name: 'select character code table', decode: args(['n'], (v) => ({ type: 'codepage', page: v[0]! }), (v) => ({ codepage: CODEPAGES[v[0]!]?.toUpperCase() ?? 'not known here' })) },
  { prefix: [ESC, c('{')], name: 'upside-down printing', decode: args(['n']) },
  { prefix: [ESC, 0x81], name: 'QR code (Daruma)', decode: darumaQr },
  { prefix: [FS, c('!')], name: 'select print mode for Kanji', decode: args(['n']) },
  { prefix: [FS, c('&')], name: 'select Kanji mode', decode: none() },
  { prefix: [FS, c('(')], name: 'FS ( function', decode: (b, at) => (at < b.length ? block16()(b, at + 1) : null) },
  { prefix: [FS, c('-')], name: 'underline for Kanji', decode: args(['n']) },
  { prefix: [FS, c('.')], name: 'cancel Kanji mode', decode: none() },
  { prefix: [FS, c('p')], name: 'print NV bit image', decode: args(['n', 'm']) },
  { prefix: [GS, c('!')], name: 'select character size', decode: args(['n'], charSize, (v) => ({ width: (v[0]! >> 4) + 1, height: (v[0]! & 15) + 1 })) },
  { prefix: [GS, c('$')], name: 'absolute vertical position (page mode)', decode: args(['nL', 'nH']) },
  { prefix: [GS, c('('), c('k')], name: '2D code (GS ( k)', decode: gsParenK },
  { prefix: [GS, c('(')], name: 'GS ( function', decode: (b, at) => (at < b.length ? block16()(b, at + 1) : null) },
  { prefix: [GS, c('*')], name: 'define downloaded bit image', decode: downloadImage },
  { prefix: [GS, c('/')], name: 'print downloaded bit image', decode: args(['m']) },
  { prefix: [GS, c('8'), c('L')], name: 'graphics data (GS 8 L)', decode: gs8L },
  { prefix: [GS, c(':')], name: 'start/end macro definition', decode: none() },
  { prefix: [GS, c('B')], name: 'white/black reverse printing', decode: args(['n'], (v) => ({ type: 'invert', on: bit0(v) }), onOff('invert', bit0)) },
  { prefix: [GS, c('H')], name: 'HRI character position', decode: args(['n'], (v) => ({ type: 'barcode-text', position: HRI[v[0]! & 3]! }), (v) => ({ text: HRI[v[0]! & 3]! })) },
  { prefix: [GS, c('I')], name: 'transmit printer ID', decode: args(['n']) },
  { prefix: [GS, c('L')], name: 'set left margin', decode: args(['nL', 'nH']) },
  { prefix: [GS, c('P')], name: 'set motion units', decode: args(['x', 'y']) },
  { prefix: [GS, c('V')], name: 'select cut mode and cut paper', decode: cut },
  { prefix: [GS, c('W')], name: 'set print area width', decode: args(['nL', 'nH']) },
  { prefix: [GS, c('\\')], name: 'relative vertical position (page mode)', decode: args(['nL', 'nH']) },
  { prefix: [GS, c('^')], name: 'execute macro', decode: args(['r', 't', 'm']) },
  { prefix: [GS, c('a')], name: 'automatic status back', decode: args(['n']) },
  { prefix: [GS, c('b')], name: 'smoothing', decode: args(['n']) },
  { prefix: [GS, c('f')], name: 'HRI font', decode: args(['n']) },
  { prefix: [GS, c('h')], name: 'barcode height', decode: args(['n'], (v) => ({ type: 'barcode-height', dots: v[0]! })) },
  { prefix: [GS, c('k')], name: 'print barcode', decode: gsK },
  { prefix: [GS, c('r')], name: 'transmit status', decode: args(['n']) },
  { prefix: [GS, c('v'), c('0')], name: 'print raster bit image', decode: (b, at) => rasterImage(b, at - 1) },
  { prefix: [GS, c('w')], name: 'barcode width', decode: args(['n'], (v) => ({ type: 'barcode-module', dots: v[0]! })) },
  // MP-4200 TH manual: "the new mode starts as the printer has been just initialized (ESC @)".
  { prefix: [GS, 0xf9, 0x20], name: 'select command language (Bematech)', decode: args(['n'], () => ({ type: 'reset' }), (v) => ({ language: v[0] === 0x31 || v[0] === 1 ? 'ESC/POS' : 'ESC/Bema' })) },
]);
