// The self-test page: what a user prints once to check a real printer against its profile —
// model and sources, the CP850 letters, column rulers, alignments, native and raster QR, both cuts.
// Built as conteudo, lowered for the profile, emitted with the library's own emitter.
import { lower, emit } from '../compile.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Op } from '../lower/ir.js';
import { parse } from '../parse/index.js';
import { createProfile, loadProfile, type PrinterRef, type Profile } from '../profiles/index.js';

export interface SelfTestResult {
  bytes: Uint8Array;
  diagnostics: Diagnostic[];
  /** The conteudo the page was built from (the raster QR is spliced in after lowering). */
  conteudo: string;
}

const PAYLOAD = 'https://github.com/bobina/selftest?q=ÇÃÕ-123';
const LETTERS = ['ç ã õ á é í ó ú â ê ô à ü', 'Ç Ã Õ Á É Í Ó Ú Â Ê Ô À Ü'];
const COMMAND_ROWS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['init', ['init']],
  ['align L/C/R', ['alignLeft', 'alignCenter', 'alignRight']],
  ['condensed', ['condensedOn', 'condensedOff']],
  ['cut full', ['cutFull']],
  ['cut partial', ['cutPartial']],
  ['feed', ['feed']],
  ['drawer', ['drawer']],
];

/** `....+....1....+....2…` exactly `n` columns: the last mark must sit at the right edge, unwrapped. */
export function ruler(n: number): string {
  let s = '';
  for (let i = 1; i <= n; i++) s += i % 10 === 0 ? String((i / 10) % 10) : i % 5 === 0 ? '+' : '.';
  return s;
}

function describeProfile(p: Profile): string[] {
  const lines = [`template ${p.id} ${p.code}`, `output ${p.output}, code page ${p.codepage.encoding.toUpperCase()} ${p.codepage.select ?? '(stored setting)'}`];
  const commands = p.commands as Record<string, string | null> | undefined;
  if (commands) {
    for (const [label, keys] of COMMAND_ROWS) lines.push(`${label.padEnd(12)} ${keys.map((k) => commands[k] ?? 'none').join(' / ')}`);
    lines.push(`qr           ${p.qr.command}, ${p.qr.moduleSize} dots, ECC ${p.qr.ecc}`);
    if (p.image) lines.push(`image        ${p.image.command}, ${p.image.widthDots} dots`);
  }
  const sources = Object.entries(p.sources);
  lines.push(sources.length ? 'sources (H/M/L confidence):' : 'sources: all defaults are high confidence');
  for (const [path, s] of sources) lines.push(`${s.confidence} ${path}: ${s.source}`);
  return lines;
}

function conteudoFor(p: Profile): string {
  const rule = '-'.repeat(p.columns.normal);
  const native = p.caps.has('qr.native');
  const qr = p.qr.command === 'text' ? [] : native
    ? ['QR: native first, then raster', 'native QR:', `<qrcode>${PAYLOAD}</qrcode>`, 'raster QR, same payload:', `<qrcode>${PAYLOAD}</qrcode>`, 'Both must scan to the same text.']
    : ['QR: raster (no native QR on this printer)', `<qrcode>${PAYLOAD}</qrcode>`];
  return [
    '<textAlignCenter>BOBINA SELF-TEST',
    p.printer,
    `<textAlignLeft>${rule}`,
    ...describeProfile(p),
    rule,
    `CODE PAGE ${p.codepage.encoding.toUpperCase()}: Portuguese letters`,
    ...LETTERS,
    rule,
    `COLUMNS normal (${p.columns.normal}): one line, no wrap`,
    ruler(p.columns.normal),
    `COLUMNS condensed (${p.columns.condensed}):`,
    `<textCondensedOn>${ruler(p.columns.condensed)}`,
    '<textCondensedOff>If a ruler wraps or stops short,',
    'correct "columns" in the profile.',
    rule,
    'ALIGNMENT',
    '<textAlignLeft>left',
    '<textAlignCenter>center',
    '<textAlignRight>right',
    `<textAlignLeft>${rule}`,
    ...qr,
    rule,
    'Partial cut below, then a full cut.',
    '<paperCutPartial>After the partial cut.',
    '<paperCutFull>',
  ].join('\n');
}

/** The raster QR ops for `p`'s payload: the same profile with its QR family set to raster. */
function rasterQr(p: Profile): Op[] {
  const { caps: _c, bytes: _b, ...data } = p;
  const raster = createProfile({ ...data, qr: { ...data.qr, command: 'raster' } });
  return lower(parse(`<qrcode>${PAYLOAD}</qrcode>`).ast, raster).ops;
}

/**
 * The self-test page for a printer, as bytes to send to it.
 *
 * @example
 * writeFileSync('selftest.bin', selfTest('MAKER4I9').bytes);
 */
export function selfTest(printer: PrinterRef): SelfTestResult {
  const profile = loadProfile(printer);
  const conteudo = conteudoFor(profile);
  const lowered = lower(parse(conteudo).ast, profile);
  let ops = lowered.ops;
  if (profile.caps.has('qr.native')) {
    // Lowering keeps the native family for both symbols; the second becomes the raster one.
    const qrs = ops.flatMap((op, i) => (op.op === 'qr' ? [i] : []));
    const second = qrs[1];
    if (second !== undefined) ops = [...ops.slice(0, second), ...rasterQr(profile), ...ops.slice(second + 1)];
  }
  return { bytes: emit(ops, profile).bytes, diagnostics: lowered.diagnostics, conteudo };
}
