// ESC/POS emitter: IR → bytes, table-driven. No model names here: every per-printer difference
// is a byte template or a table key in the profile.
import type { Op } from '../lower/ir.js';
import { expandTemplate, type ByteTemplate } from '../profiles/bytes.js';
import type { Profile } from '../profiles/index.js';
import { codepageTable, type CodepageTable } from '../text/codepage.js';
import { writeText } from './encode-text.js';
import { IMAGE_ENCODERS } from './image.js';
import { QR_FAMILIES } from './qr-native.js';
import type { ByteWriter } from './writer.js';

interface State {
  out: ByteWriter;
  profile: Profile;
  table: CodepageTable;
  /** The printer's line buffer is empty (cuts and images only act at the start of a line). */
  atLineStart: boolean;
}

type OpOf<K extends Op['op']> = Extract<Op, { op: K }>;
type Emitters = { [K in Op['op']]: (op: OpOf<K>, s: State) => void };

const LF = Uint8Array.of(0x0a);

function command(s: State, label: string, template: ByteTemplate | undefined, start: number, end: number, n = 0): void {
  s.out.mark(label, start, end);
  s.out.bytes(expandTemplate(template!, n));
}

/** Cuts, images and QR codes act at the start of a line: print what is pending first. */
function endLine(s: State, start: number): void {
  if (s.atLineStart) return;
  s.out.mark('line feed (before command)', start, start);
  s.out.bytes(LF);
  s.atLineStart = true;
}

const ALIGN = {
  left: { key: 'alignLeft', label: 'align left' },
  center: { key: 'alignCenter', label: 'align center' },
  right: { key: 'alignRight', label: 'align right' },
} as const;

const EMITTERS: Emitters = {
  align: ({ align, start, end }, s) => {
    const { key, label } = ALIGN[align];
    command(s, label, s.profile.bytes[key], start, end);
  },
  condensed: ({ on, start, end }, s) =>
    command(s, on ? 'condensed on' : 'condensed off', s.profile.bytes[on ? 'condensedOn' : 'condensedOff'], start, end),
  text: ({ text, latin1, start, end }, s) => {
    s.out.mark('text', start, end);
    writeText(s.out, text, s.table, latin1 === true);
    s.atLineStart = text.charCodeAt(text.length - 1) === 10;
  },
  cut: ({ partial, start, end }, s) => {
    endLine(s, start);
    const feed = s.profile.feedBeforeCut ?? 0;
    if (feed > 0) command(s, `feed ${feed} lines (before cut)`, s.profile.bytes.feed, start, end, feed);
    command(s, partial ? 'cut partial' : 'cut full', s.profile.bytes[partial ? 'cutPartial' : 'cutFull'], start, end);
  },
  feed: ({ lines, start, end }, s) => {
    command(s, `feed ${lines} lines`, s.profile.bytes.feed, start, end, lines);
    s.atLineStart = true;
  },
  drawer: ({ start, end }, s) => command(s, 'drawer pulse pin 2', s.profile.bytes.drawer, start, end),
  qr: ({ data, start, end }, s) => {
    endLine(s, start);
    QR_FAMILIES[s.profile.qr.command]!(s.out, data, s.profile.qr, start, end);
  },
  image: ({ bitmap, start, end }, s) => {
    endLine(s, start);
    const image = s.profile.image!;
    IMAGE_ENCODERS[image.command](s.out, bitmap, image, start, end);
  },
};

/** Writes the job: init, code page, every op, and a final line feed if a line is still pending. */
export function emitEscPos(ops: readonly Op[], profile: Profile, out: ByteWriter): void {
  const s: State = { out, profile, table: codepageTable(profile.codepage.encoding), atLineStart: true };
  command(s, 'initialize', profile.bytes.init, 0, 0);
  if (profile.caps.has('codepage.select')) {
    const label = out.records ? `code page ${profile.codepage.encoding.toUpperCase()}` : '';
    command(s, label, profile.bytes.codepage, 0, 0);
  }
  for (const op of ops) (EMITTERS[op.op] as (op: Op, s: State) => void)(op, s);
  const last = ops[ops.length - 1];
  if (!s.atLineStart) {
    const at = last ? last.end : 0;
    out.mark('line feed (end of job)', at, at);
    out.bytes(LF);
  }
}
