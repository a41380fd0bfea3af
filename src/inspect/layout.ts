// Layout: walks a disassembly like the printer's print head would — a line buffer flushed by LF,
// alignment, condensed width, text styles and sizes, line spacing, images and QR codes — and places
// marks on a page measured in printer dots. The SVG writer only draws what this decides.
import { SYMBOLOGY_NAMES } from '../lower/barcode/symbol.js';
import type { Align, Bitmap, HriPosition } from '../lower/ir.js';
import { TAB_STOP_COLUMNS } from '../lower/layout-columns.js';
import type { Geometry, Profile } from '../profiles/index.js';
import { nativeBars, nativeSymbol } from './barcode-draw.js';
import { qrBitmap } from './qr-matrix.js';
import type { Ecc, Effect, Instruction } from './types.js';

/** How a run of text is printed besides its font: absent for plain, normal-size text. */
export interface TextLook {
  bold: boolean;
  underline: boolean;
  invert: boolean;
  /** Width and height multipliers (the width one is already in `charWidth`). */
  width: number;
  height: number;
  /** The height of the character cell at this size, in dots. */
  cellHeight: number;
}

export type Mark =
  | { kind: 'text'; x: number; y: number; text: string; charWidth: number; condensed: boolean; look?: TextLook }
  | { kind: 'bitmap'; x: number; y: number; bitmap: Bitmap; scaleX: number; scaleY: number }
  | { kind: 'cut'; y: number; partial: boolean }
  | { kind: 'note'; y: number; label: string }
  | { kind: 'feed'; y0: number; y1: number; label: string };

export interface Page {
  /** Paper width in dots. */
  width: number;
  height: number;
  title: string;
  marks: Mark[];
}

const CUT_GAP = 16;
const BARCODE_DEFAULTS = { height: 162, module: 3, text: 'none' as HriPosition };

type LineItem =
  | { type: 'text'; text: string; x: number; charWidth: number; condensed: boolean; look: TextLook | undefined }
  | { type: 'band'; x: number; bitmap: Bitmap; scaleX: number; scaleY: number };

class Head {
  y = 8;
  align: Align = 'left';
  condensed = false;
  bold = false;
  underline = false;
  invert = false;
  /** Character width and height multipliers in force (GS !, ESC ! bits 4-5, Daruma ESC W / ESC w). */
  sizeW = 1;
  sizeH = 1;
  /** A width for the rest of the line over `sizeW` (ESC SO), ended by DC4 or by printing the line. */
  lineW: number | undefined = undefined;
  spacing: number | null = null;
  qr: { size: number; ecc: Ecc; data: Uint8Array } = { size: 3, ecc: 'L', data: new Uint8Array(0) };
  /** GS h / GS w / GS H in force (Epson's defaults: 162 dots, module 3, no text). */
  barcode: { height: number; module: number; text: HriPosition } = { ...BARCODE_DEFAULTS };
  line: LineItem[] = [];
  lineX = 0;
  /** The print position was moved by a tab since the last character. */
  afterTab = false;
  lineAlign: Align = 'left';
  readonly marks: Mark[] = [];

  constructor(
    readonly width: number,
    readonly columns: { normal: number; condensed: number },
    /** The printer's geometry (profile data): default line pitch, font cell heights. */
    readonly geometry: Geometry,
  ) {}

  charWidth(): number {
    return (this.width / (this.condensed ? this.columns.condensed : this.columns.normal)) * this.widthNow();
  }

  widthNow(): number {
    return this.lineW ?? this.sizeW;
  }

  /** The styles in force, or undefined for plain normal-size text (drawn as before styles existed). */
  look(): TextLook | undefined {
    const width = this.widthNow();
    if (!this.bold && !this.underline && !this.invert && width === 1 && this.sizeH === 1) return undefined;
    const cell = this.geometry.cell[this.condensed ? 'condensed' : 'normal'].height;
    return { bold: this.bold, underline: this.underline, invert: this.invert, width, height: this.sizeH, cellHeight: cell * this.sizeH };
  }

  /** Every style and size off (ESC @). */
  plain(): void {
    this.bold = this.underline = this.invert = false;
    this.sizeW = this.sizeH = 1;
    this.lineW = undefined;
  }

  start(): void {
    if (this.line.length === 0) this.lineAlign = this.align;
  }

  char(ch: string): void {
    const cw = this.charWidth();
    if (this.lineX + cw > this.width + 0.01) this.flush();
    this.start();
    const last = this.line[this.line.length - 1];
    const look = this.look();
    // A run goes on where its last character ended, not across a tab's gap.
    if (last?.type === 'text' && !this.afterTab && last.charWidth === cw && sameLook(last.look, look)) last.text += ch;
    else this.line.push({ type: 'text', text: ch, x: this.lineX, charWidth: cw, condensed: this.condensed, look });
    this.lineX += cw;
    this.afterTab = false;
  }

  /**
   * HT: on to the next stop (TAB_STOP_COLUMNS of normal text apart, whatever the font in force), at
   * most to the paper's end. The gap is blank: nothing is drawn in it, underline included.
   */
  tab(): void {
    const stop = (this.width / this.columns.normal) * TAB_STOP_COLUMNS;
    this.start();
    this.lineX = Math.min(this.width, (Math.floor(this.lineX / stop + 0.001) + 1) * stop);
    this.afterTab = true;
  }

  text(text: string): void {
    for (const ch of text) {
      if (ch === '\n') this.flush();
      else if (ch === '\t') this.tab();
      else if (ch !== '\r') this.char(ch);
    }
  }

  /** Prints the line buffer (LF): aligned as a whole, as tall as its tallest item or the line spacing. */
  flush(): void {
    const spacing = this.spacing ?? this.geometry.lineSpacing;
    let content = 0;
    const dx = this.offset(this.lineX, this.lineAlign);
    for (const item of this.line) {
      if (item.type === 'text') {
        content = Math.max(content, item.look?.cellHeight ?? this.geometry.cell[item.condensed ? 'condensed' : 'normal'].height);
        const mark: Mark = { kind: 'text', x: item.x + dx, y: this.y, text: item.text, charWidth: item.charWidth, condensed: item.condensed };
        this.marks.push(item.look ? { ...mark, look: item.look } : mark);
      } else {
        content = Math.max(content, item.bitmap.height * item.scaleY);
        this.marks.push({ kind: 'bitmap', x: item.x + dx, y: this.y, bitmap: item.bitmap, scaleX: item.scaleX, scaleY: item.scaleY });
      }
    }
    this.y += Math.max(spacing, content);
    this.line = [];
    this.lineX = 0;
    this.lineW = undefined;
  }

  /** Flushes only when something is pending: commands that act at the start of a line. */
  settle(): void {
    if (this.line.length > 0) this.flush();
  }

  offset(width: number, align: Align): number {
    const free = Math.max(0, this.width - width);
    return align === 'center' ? Math.floor(free / 2) : align === 'right' ? free : 0;
  }

  image(bitmap: Bitmap, scaleX: number, scaleY: number, note?: string): void {
    this.settle();
    const x = this.offset(bitmap.width * scaleX, this.align);
    if (note) this.marks.push({ kind: 'note', y: this.y, label: note });
    this.marks.push({ kind: 'bitmap', x, y: this.y, bitmap, scaleX, scaleY });
    this.y += bitmap.height * scaleY;
  }

  qrSymbol(data: Uint8Array, size: number, ecc: Ecc, family: string): void {
    const bitmap = qrBitmap(data, ecc, size);
    if (!bitmap) {
      this.settle();
      this.marks.push({ kind: 'note', y: this.y, label: `${family}: ${data.length} bytes do not fit a QR symbol` });
      return;
    }
    const modules = bitmap.width / Math.max(1, Math.round(size));
    this.image(bitmap, 1, 1, `native QR (${family}), ${modules}×${modules} modules of ${size} dots`);
  }

  /** A native barcode: its bars redrawn from the data, and its text where the command put it. */
  barcodeSymbol(e: Extract<Effect, { type: 'barcode' }>, family: string): void {
    this.settle();
    const module = e.module ?? this.barcode.module;
    const height = e.height ?? this.barcode.height;
    const text = e.text ?? this.barcode.text;
    const symbol = e.symbology ? nativeSymbol(e.symbology, e.data) : 'a barcode type bobina does not draw';
    if (typeof symbol === 'string') {
      this.marks.push({ kind: 'note', y: this.y, label: `${family}: ${symbol}` });
      return;
    }
    const bitmap = nativeBars(symbol, module, height);
    const x = this.offset(bitmap.width, this.align);
    this.marks.push({ kind: 'note', y: this.y, label: `native barcode (${family}), ${SYMBOLOGY_NAMES[e.symbology!]}, ${module} dots per module` });
    if (text === 'above' || text === 'both') this.hri(symbol.text, x, bitmap.width);
    this.marks.push({ kind: 'bitmap', x, y: this.y, bitmap, scaleX: 1, scaleY: 1 });
    this.y += height;
    if (text === 'below' || text === 'both') this.hri(symbol.text, x, bitmap.width);
  }

  /** A barcode's human-readable line, in the normal font, centred on the bars. */
  hri(text: string, x: number, width: number): void {
    const charWidth = this.width / this.columns.normal;
    const left = Math.max(0, x + (width - text.length * charWidth) / 2);
    this.marks.push({ kind: 'text', x: left, y: this.y, text, charWidth, condensed: false });
    this.y += this.geometry.cell.normal.height;
  }

  feed(y0: number, label: string): void {
    this.marks.push({ kind: 'feed', y0, y1: this.y, label });
  }
}

function sameLook(a: TextLook | undefined, b: TextLook | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.bold === b.bold && a.underline === b.underline && a.invert === b.invert && a.width === b.width && a.height === b.height && a.cellHeight === b.cellHeight;
}

type Handlers = { [K in Effect['type']]: (e: Extract<Effect, { type: K }>, h: Head, ins: Instruction) => void };

const HANDLERS: Handlers = {
  reset: (_e, h) => {
    h.align = 'left';
    h.condensed = false;
    h.plain();
    h.spacing = null;
    h.barcode = { ...BARCODE_DEFAULTS };
  },
  codepage: () => {},
  align: (e, h) => {
    h.align = e.align;
    h.start();
  },
  condensed: (e, h) => {
    h.condensed = e.on;
    if (e.mode) {
      h.bold = e.mode.bold;
      h.underline = e.mode.underline;
      h.sizeW = e.mode.width;
      h.sizeH = e.mode.height;
      h.lineW = undefined;
    }
  },
  bold: (e, h) => void (h.bold = e.on),
  underline: (e, h) => void (h.underline = e.on),
  invert: (e, h) => void (h.invert = e.on),
  size: (e, h) => {
    // DC4 (width 1) ends a one-line width; so does ESC W (ESC/P manuals: DC4 leaves ESC W's width).
    if (e.oneLine) h.lineW = e.width === 1 ? undefined : e.width;
    else if (e.width !== undefined) [h.sizeW, h.lineW] = [e.width, undefined];
    if (e.height !== undefined) h.sizeH = e.height;
  },
  cut: (e, h) => {
    h.settle();
    h.y += CUT_GAP;
    h.marks.push({ kind: 'cut', y: h.y, partial: e.partial });
    h.y += CUT_GAP;
  },
  feed: (e, h) => {
    h.settle();
    if (e.reverse) {
      h.marks.push({ kind: 'note', y: h.y, label: `reverse feed ${e.lines ?? e.dots} ${e.lines !== undefined ? 'lines' : 'dots'} (not drawn)` });
      return;
    }
    const y0 = h.y;
    h.y += e.lines !== undefined ? e.lines * (h.spacing ?? h.geometry.lineSpacing) : (e.dots ?? 0);
    h.feed(y0, e.lines !== undefined ? `feed ${e.lines} lines` : `feed ${e.dots} dots`);
  },
  drawer: (e, h) => {
    const timing = e.onMs !== undefined ? `, ${e.onMs} ms${e.offMs !== undefined ? ` / ${e.offMs} ms` : ''}` : '';
    h.marks.push({ kind: 'note', y: h.y, label: `⚡ drawer pulse${e.pin !== undefined ? `, pin ${e.pin}` : ''}${timing}` });
  },
  lf: (_e, h) => h.flush(),
  spacing: (e, h) => {
    h.spacing = e.dots;
  },
  'qr-size': (e, h) => {
    h.qr.size = e.size;
  },
  'qr-ecc': (e, h) => {
    h.qr.ecc = e.ecc;
  },
  'qr-store': (e, h) => {
    h.qr.data = e.data;
  },
  'qr-print': (_e, h, ins) => h.qrSymbol(h.qr.data, h.qr.size, h.qr.ecc, ins.mnemonic),
  qr: (e, h, ins) => h.qrSymbol(e.data, e.size, e.ecc, ins.mnemonic),
  raster: (e, h) => h.image(e.bitmap, e.scaleX, e.scaleY),
  band: (e, h) => {
    h.start();
    h.line.push({ type: 'band', x: h.lineX, bitmap: e.bitmap, scaleX: e.scaleX, scaleY: e.scaleY });
    h.lineX += e.bitmap.width * e.scaleX;
  },
  text: (e, h) => h.text(e.text),
  'barcode-height': (e, h) => void (h.barcode.height = e.dots),
  'barcode-module': (e, h) => void (h.barcode.module = e.dots),
  'barcode-text': (e, h) => void (h.barcode.text = e.position),
  barcode: (e, h, ins) => h.barcodeSymbol(e, ins.mnemonic),
};

/** The page a printer with `profile` would print for this disassembly. */
export function layout(instructions: readonly Instruction[], profile: Profile): Page {
  const width = profile.geometry.dotsPerLine;
  const h = new Head(width, profile.columns, profile.geometry);
  for (const ins of instructions) {
    if (ins.effect) (HANDLERS[ins.effect.type] as (e: Effect, h: Head, i: Instruction) => void)(ins.effect, h, ins);
    else if (ins.kind !== 'command') h.marks.push({ kind: 'note', y: h.y, label: `${ins.kind} ${ins.mnemonic} at 0x${ins.offset.toString(16)}` });
  }
  h.settle();
  const title = `${profile.code} · ${profile.printer} · ${width} dots · ${profile.columns.normal}/${profile.columns.condensed} columns`;
  return { width, height: h.y + 16, title, marks: h.marks };
}
