// ESC/POS emitter: IR → bytes, table-driven. No model names here: every per-printer difference
// is a byte template or a table key in the profile.
import type { Align, Op, TextStyle } from '../lower/ir.js';
import { compileTemplate, expandTemplate, expandTemplateText } from '../profiles/bytes.js';
import { COMMANDS, type CommandKey } from '../profiles/commands.js';
import type { Profile } from '../profiles/index.js';
import { codepage as codepageOf, codepageTable, type CodepageTable } from '../text/codepage.js';
import { writeText } from './encode-text.js';
import { barsBitmap, ENCODERS } from '../lower/barcode/index.js';
import { BARCODE_FAMILIES } from './barcode-native.js';
import { IMAGE_ENCODERS } from './image.js';
import { SourceLines } from './lines.js';
import { QR_FAMILIES } from './qr-native.js';
import type { RecordOp } from './records.js';
import type { ByteWriter } from './writer.js';

interface State {
  out: ByteWriter;
  profile: Profile;
  table: CodepageTable;
  /** The printer's line buffer is empty (cuts and images only act at the start of a line). */
  atLineStart: boolean;
  /** The conteudo, when records are kept: text records are then one per printed line. */
  source: string | undefined;
  /** The alignment and condensed mode in force, to send again after a command that resets them. */
  align: Align;
  condensed: boolean;
  /** The styles and size in force, sent again after a command that resets them. */
  styles: Record<TextStyle, boolean>;
  width: number;
  height: number;
  /** The profile's commands that also turn the styles off (`resetsStyles`); null when none do (most profiles). */
  resets: ReadonlySet<CommandKey> | null;
  /** The source lines of the last text op (the next one of the same span reuses them). */
  lines?: SourceLines;
}

type OpOf<K extends Op['op']> = Extract<Op, { op: K }>;
type Emitters = { [K in Op['op']]: (op: OpOf<K>, s: State) => void };

/**
 * A profile command, recorded (when records are kept) under its key and its label from the command
 * table. Marked with or without records: the mark is also where the output limit is checked, so a
 * job over the limit stops at the same command, with the same diagnostic, either way.
 */
function command(s: State, key: CommandKey, start: number, end: number, n = 0, label?: string): void {
  s.out.mark(key, s.out.records ? (label ?? COMMANDS[key].label) : '', start, end);
  s.out.chars(expandTemplateText(s.profile.bytes[key]!, n));
  if (s.resets !== null && s.resets.has(key)) styles(s, start, end);
}

const STYLE_ON = { bold: 'boldOn', underline: 'underlineOn', invert: 'invertOn' } as const;
const STYLE_OFF = { bold: 'boldOff', underline: 'underlineOff', invert: 'invertOff' } as const;

/** The styles and size in force, sent again (after a command that turned them off). */
function styles(s: State, start: number, end: number): void {
  for (const style of ['bold', 'underline', 'invert'] as const) if (s.styles[style] && s.profile.bytes[STYLE_ON[style]]) command(s, STYLE_ON[style], start, end);
  if ((s.width !== 1 || s.height !== 1) && s.profile.bytes.size) size(s, start, end);
}

/** The size command for the size in force (a template of `w`, `h` or `wh`, never `n`). */
function size(s: State, start: number, end: number): void {
  s.out.mark('size', s.out.records ? `text size ${s.width}×${s.height}` : '', start, end);
  s.out.chars(expandTemplateText(s.profile.bytes.size!, 0, s.width, s.height));
}

/** A multiplier from a hand-built op, made whole and held within 1 and the profile's largest. */
function multiplier(value: number, max: number): number {
  return Math.min(max, Math.max(1, Math.trunc(value) || 1));
}

/** Text for a listing: one record per printed line, each with its own source span. */
function textLines(s: State, text: string, latin1: boolean, start: number, end: number, source: string): void {
  const lines = (s.lines = SourceLines.of(s.lines, source, start, end));
  for (let from = 0, k = 0; from < text.length; k++) {
    const lf = text.indexOf('\n', from);
    const to = lf < 0 ? text.length : lf + 1;
    s.out.mark('text', 'text', lines.lineStart(k), lines.lineEnd(k));
    writeText(s.out, text.slice(from, to), s.table, latin1);
    from = to;
  }
}

/** Bytes from profile data that are not a command of the table (a QR mode switch). */
function raw(s: State, op: RecordOp, label: string, hex: string, start: number, end: number): void {
  s.out.mark(op, label, start, end);
  s.out.bytes(expandTemplate(compileTemplate(hex)));
}

/** After a command that resets the printer: the code page, alignment, condensed mode and styles again. */
function restore(s: State, start: number, end: number): void {
  codepage(s, start, end);
  if (s.align !== 'left') command(s, ALIGN[s.align], start, end);
  if (s.condensed) command(s, 'condensedOn', start, end);
  if (!(s.condensed && s.resets?.has('condensedOn'))) styles(s, start, end); // else condensedOn sent them
}

function codepage(s: State, start: number, end: number): void {
  if (!s.profile.caps.has('codepage.select')) return;
  s.out.mark('codepage', s.out.records ? `code page ${codepageOf(s.profile.codepage.encoding).name}` : '', start, end);
  s.out.chars(expandTemplateText(s.profile.bytes.codepage!));
}

/** Cuts, images and QR codes act at the start of a line: print what is pending first. */
function endLine(s: State, start: number): void {
  if (s.atLineStart) return;
  s.out.mark('lineFeed', 'line feed (before command)', start, start);
  s.out.chars('\n');
  s.atLineStart = true;
}

const ALIGN = { left: 'alignLeft', center: 'alignCenter', right: 'alignRight' } as const;

const EMITTERS: Emitters = {
  align: ({ align, start, end }, s) => {
    command(s, ALIGN[align], start, end);
    s.align = align;
  },
  condensed: ({ on, start, end }, s) => {
    // An op built by hand for a printer without condensed text prints nothing (lowering warns).
    if (!s.profile.bytes.condensedOn || !s.profile.bytes.condensedOff) return;
    s.condensed = on;
    command(s, on ? 'condensedOn' : 'condensedOff', start, end);
  },
  style: ({ style, on, start, end }, s) => {
    const key = on ? STYLE_ON[style] : STYLE_OFF[style];
    // A style the printer lacks prints nothing (lowering warns or, on plain text, drops it).
    if (!key || !s.profile.bytes[key]) return;
    s.styles[style] = on;
    command(s, key, start, end);
  },
  size: ({ width, height, start, end }, s) => {
    if (!s.profile.bytes.size) return;
    const max = s.profile.sizeMax ?? { width: 8, height: 8 };
    s.width = multiplier(width, max.width);
    s.height = multiplier(height, max.height);
    size(s, start, end);
  },
  text: ({ text, latin1, start, end }, s) => {
    if (s.source === undefined) {
      s.out.mark('text', 'text', start, end);
      writeText(s.out, text, s.table, latin1 === true);
    } else textLines(s, text, latin1 === true, start, end, s.source);
    s.atLineStart = text.charCodeAt(text.length - 1) === 10;
  },
  cut: ({ partial, start, end }, s) => {
    endLine(s, start);
    const feed = s.profile.feedBeforeCut ?? 0;
    if (feed > 0) command(s, 'feed', start, end, feed, `feed ${feed} lines (before cut)`);
    command(s, partial ? 'cutPartial' : 'cutFull', start, end);
  },
  feed: ({ lines, start, end }, s) => {
    command(s, 'feed', start, end, lines, `feed ${lines} lines`);
    s.atLineStart = true;
  },
  drawer: ({ start, end }, s) => command(s, 'drawer', start, end, 0, s.profile.drawerPin ? `drawer pulse pin ${s.profile.drawerPin}` : 'drawer pulse'),
  qr: ({ data, size, ecc, start, end }, s) => {
    endLine(s, start);
    const bracket = s.profile.qr.bracket?.command === s.profile.qr.command ? s.profile.qr.bracket : undefined;
    if (bracket) {
      // The mode switch acts like ESC @: the symbol is aligned again in the mode it enters.
      raw(s, 'qrEnter', 'enter QR command mode', bracket.enter, start, end);
      if (s.align !== 'left') command(s, ALIGN[s.align], start, end);
    }
    const qr = { ...s.profile.qr, moduleSize: size ?? s.profile.qr.moduleSize, ecc: ecc ?? s.profile.qr.ecc };
    QR_FAMILIES[s.profile.qr.command]!(s.out, data, qr, start, end);
    if (bracket) {
      raw(s, 'qrLeave', 'leave QR command mode', bracket.leave, start, end);
      restore(s, start, end);
    }
  },
  barcode: (op, s) => {
    // An op built by hand is checked as lowering checks it: data the symbology cannot hold (which
    // could carry a command, as a NUL inside Daruma's ESC b) prints nothing, and a symbology the
    // profile has no native command for prints as the raster image lowering would make.
    const encoded = ENCODERS[op.symbology]?.(op.data);
    if (!encoded?.ok) return;
    endLine(s, op.start);
    const barcode = s.profile.barcode;
    if (barcode?.types[op.symbology] != null) {
      const values = encoded.symbol.values;
      BARCODE_FAMILIES[barcode.command](s.out, { ...op, data: encoded.symbol.text, ...(values && { values }) }, barcode);
      return;
    }
    const image = s.profile.image!;
    IMAGE_ENCODERS[image.command](s.out, barsBitmap(encoded.symbol, op.module, op.height), image, op.start, op.end);
  },
  image: ({ bitmap, start, end }, s) => {
    endLine(s, start);
    const image = s.profile.image!;
    IMAGE_ENCODERS[image.command](s.out, bitmap, image, start, end);
  },
};

/** The profile's `resetsStyles` as a set (null when it lists none), made once per profile object (profiles are frozen). */
const RESETS = new WeakMap<Profile, ReadonlySet<CommandKey> | null>();
function resetsOf(profile: Profile): ReadonlySet<CommandKey> | null {
  let set = RESETS.get(profile);
  if (set === undefined) RESETS.set(profile, (set = profile.resetsStyles?.length ? new Set(profile.resetsStyles) : null));
  return set;
}

/** Writes the job: init and code page (the prologue), every op, and a final line feed if a line is still pending (the epilogue). */
export function emitEscPos(ops: readonly Op[], profile: Profile, out: ByteWriter, source: string | undefined, prologue: boolean, epilogue: boolean): void {
  const s: State = {
    out,
    profile,
    table: codepageTable(profile.codepage.encoding),
    atLineStart: true,
    source: out.records ? source : undefined,
    align: 'left',
    condensed: false,
    // Stryker disable next-line ObjectLiteral: a style never set reads undefined, which `styles()` takes as off, as it takes false
    styles: { bold: false, underline: false, invert: false },
    width: 1,
    height: 1,
    resets: resetsOf(profile),
  };
  if (prologue) {
    command(s, 'init', 0, 0);
    codepage(s, 0, 0);
  }
  for (const op of ops) {
    // Text and alignment are nearly every op of a receipt: called directly, without the table's
    // keyed lookup (megamorphic once a receipt has more than a few kinds of op), as lowerRaw does.
    // Stryker disable next-line StringLiteral: the op then goes through the table, to the same emitter
    if (op.op === 'text') EMITTERS.text(op, s);
    // Stryker disable next-line StringLiteral: the op then goes through the table, to the same emitter
    else if (op.op === 'align') EMITTERS.align(op, s);
    else (EMITTERS[op.op] as (op: Op, s: State) => void)(op, s);
  }
  const last = ops[ops.length - 1];
  if (epilogue && !s.atLineStart) {
    const at = last ? last.end : 0;
    out.mark('lineFeed', 'line feed (end of job)', at, at);
    out.chars('\n');
  }
}
