// The self-test page: what a user prints once to check a real printer against its profile —
// model and sources, the CP850 letters, column rulers, alignments, text styles and sizes, the QR
// code, the barcodes and an image and, where the sources could not settle a choice (a QR command,
// band ends, a barcode type, a size command), each alternative labelled with the override that
// selects it (profile data: `selftest`, a built-in's in profiles/builtin/selftest/), then both
// cuts. One conteudo, parsed once: every span and diagnostic is the page's own; parts printed with
// an alternative are lowered and emitted with it.
import { profileSelftest, type SelfTestData } from '../profiles/selftests.js';
import { profileSources } from '../profiles/sources.js';
import { resolveDiagnostics, type Diagnostic, type RawDiagnostic } from '../diagnostics.js';
import { emit } from '../emit/index.js';
import type { EmitRecord } from '../emit/records.js';
import { lowerRaw } from '../lower/index.js';
import type { Node } from '../parse/ast.js';
import { parseRaw } from '../parse/index.js';
import { commandRows, loadProfile, withOverride, type PrinterRef, type Profile, type ProfileInput } from '../profiles/index.js';
import { SYMBOLOGIES, SYMBOLOGY_NAMES, type Symbology } from '../lower/barcode/symbol.js';
import type { Bitmap } from '../lower/ir.js';

export interface SelfTestResult {
  bytes: Uint8Array;
  /** The page's own diagnostics, with spans in `conteudo`. */
  diagnostics: Diagnostic[];
  /** The conteudo the page was built from. */
  conteudo: string;
  /** One record per command and printed line, with spans in `conteudo` (for a listing). */
  records: EmitRecord[];
}

const PAYLOAD = 'https://github.com/bobina/selftest?q=ÇÃÕ-123';
/** One sample per symbology: what each barcode on the page must scan to (EAN and UPC with their check digit). */
export const BARCODE_SAMPLES: Readonly<Record<Symbology, string>> = {
  ean13: '789100031550',
  ean8: '9638507',
  upca: '03600029145',
  code39: 'BOBINA-39',
  code128: 'Bobina-128 0123456789',
  itf: '12345678',
  codabar: 'A40156B',
};
/** The image the page prints, by name (compile's `images`): see testImage(). */
const IMAGE = 'bobina-selftest';
const LETTERS = ['ç ã õ á é í ó ú â ê ô à ü', 'Ç Ã Õ Á É Í Ó Ú Â Ê Ô À Ü'];

/** `....+....1....+....2…` exactly `n` columns: the last mark must sit at the right edge, unwrapped. */
export function ruler(n: number): string {
  let s = '';
  for (let i = 1; i <= n; i++) s += i % 10 === 0 ? String((i / 10) % 10) : i % 5 === 0 ? '+' : '.';
  return s;
}

/** Part of the page: its lines, and the profile it is printed with when not the page's own. */
interface Part {
  lines: string[];
  profile?: Profile;
}

type Alternative = NonNullable<SelfTestData['alternatives']>[number];
/** The alternatives of one part of the page (a QR code by default). */
type Alternatives = (part: NonNullable<Alternative['part']>) => Alternative[];

function describeProfile(p: Profile): string[] {
  const lines = [`template ${p.id} ${p.code}`, `output ${p.output}, code page ${p.codepage.encoding.toUpperCase()} ${p.codepage.select ?? '(stored setting)'}`];
  const commands = p.commands as Record<string, string | null> | undefined;
  if (commands) {
    for (const [label, keys] of commandRows()) lines.push(`${label.padEnd(12)} ${keys.map((k) => commands[k] ?? 'none').join(' / ')}`);
    lines.push(`qr           ${p.qr.command}, ${p.qr.moduleSize} dots, ECC ${p.qr.ecc}`);
    if (p.image) lines.push(`image        ${p.image.command}, ${p.image.widthDots} dots`);
  }
  const sources = Object.entries(profileSources(p));
  lines.push(sources.length ? 'sources (H/M/L confidence):' : 'sources: all defaults are high confidence');
  for (const [path, s] of sources) lines.push(`${s.confidence} ${path}: ${s.source}`);
  return lines;
}

function columnRulers(label: string, normal: number, condensed: number): string[] {
  return [`${label} normal (${normal}): one line, no wrap`, ruler(normal), `${label} condensed (${condensed}):`, `<textCondensedOn>${ruler(condensed)}<textCondensedOff>`];
}

/**
 * A 192×64 test image: a one-dot frame, a diagonal, and blocks of 1-dot and 2-dot checks, so a
 * row dropped, doubled or shifted between bands shows.
 */
export function testImage(): Bitmap {
  const width = 192;
  const height = 64;
  const bytesPerRow = width >> 3;
  const bits = new Uint8Array(bytesPerRow * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const frame = x === 0 || y === 0 || x === width - 1 || y === height - 1 || x === y * 3;
      const checks = y > 8 && y < 56 && ((x > 96 && x < 136 && (x + y) % 2 === 0) || (x > 144 && x < 184 && ((x >> 1) + (y >> 1)) % 2 === 0));
      if (frame || checks) bits[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { width, height, bytesPerRow, bits };
}

/**
 * Bold, underline, invert and sizes 1-3 (up to the profile's largest), each line saying what it
 * must look like; a style the printer lacks is named, not printed (no warning on the page). Bold
 * across a condensed on/off checks that a command resetting the styles is followed by them again.
 */
function styleParts(p: Profile, alternativesOf: Alternatives): Part[] {
  const line = (cap: 'bold' | 'underline' | 'invert', tag: string, text: string) =>
    p.caps.has(cap) ? `<text${tag}On>${text}<text${tag}Off> normal` : `${cap}: none in this profile (the tags are dropped)`;
  const max = p.sizeMax ?? { width: 8, height: 8 };
  const sizes: string[] = [];
  if (p.caps.has('size')) {
    for (let h = 1; h <= Math.min(3, max.height); h++) {
      for (let w = 1; w <= Math.min(3, max.width); w++) sizes.push(`<textSize width="${w}" height="${h}">${w}x${h}<textSize>`);
    }
  }
  const condensed = p.caps.has('condensed') && p.caps.has('bold') ? ['<textBoldOn><textCondensedOn>bold condensed<textCondensedOff> bold again<textBoldOff> normal'] : [];
  const alternatives = alternativesOf('size');
  return [
    {
      lines: [
        `<textAlignLeft>${'-'.repeat(p.columns.normal)}`,
        'STYLES: each word as it says.',
        line('bold', 'Bold', 'bold'),
        line('underline', 'Underline', 'underlined'),
        line('invert', 'Invert', 'inverted: white on black'),
        ...condensed,
        p.caps.has('size') ? `SIZES W x H (largest ${max.width} x ${max.height}): each as many` : 'sizes: none in this profile (<textSize> is dropped)',
        ...(p.caps.has('size') ? ['columns wide and lines tall as it says.', ...sizes] : []),
      ],
    },
    ...alternatives.map(({ label, set }) => ({ lines: [`<textAlignLeft>ALTERNATIVE ${label}`, `set ${JSON.stringify(set)}`, ...WIDTH_LINES], profile: withOverride(p, set as ProfileInput) })),
  ];
}

/**
 * A size alternative's lines: double width switched off in the middle of a line (do its on and off
 * bytes work?), then left on across a line end, the next line sending nothing before its text (is a
 * one-line width, such as ESC SO, ended by the line end?). Each line says what it must look like.
 */
const WIDTH_LINES = [
  'Each 2x double width, the other words normal.',
  'The last line wide if 2x outlasts its line.',
  '<textSize width="2">2x<textSize> normal <textSize width="2">2x<textSize> normal',
  '<textSize width="2">2x to the line end',
  'last line, sent nothing<textSize>',
];

/** Every symbology as the profile prints it (native or raster), then each barcode alternative. */
function barcodeParts(p: Profile, alternativesOf: Alternatives): Part[] {
  const codes = SYMBOLOGIES.map((s) => [`<textAlignLeft>${SYMBOLOGY_NAMES[s]}: ${p.barcode?.types[s] != null ? `native, type ${p.barcode.types[s]}` : 'raster image'}`, `<textAlignCenter><barcode type="${s}">${BARCODE_SAMPLES[s]}</barcode>`]).flat();
  const alternatives = alternativesOf('barcode');
  return [
    { lines: [`<textAlignLeft>${'-'.repeat(p.columns.normal)}`, 'BARCODES: each must scan to the text under it.', ...codes] },
    ...alternatives.map(({ label, set }) => ({
      lines: [`<textAlignLeft>ALTERNATIVE ${label}`, `set ${JSON.stringify(set)}`, ...SYMBOLOGIES.filter((s) => JSON.stringify(set).includes(`"${s}"`)).map((s) => `<textAlignCenter><barcode type="${s}">${BARCODE_SAMPLES[s]}</barcode>`)],
      profile: withOverride(p, set as ProfileInput),
    })),
    {
      lines: [
        `<textAlignLeft>${'-'.repeat(p.columns.normal)}`,
        `IMAGE (${p.image!.command}): a frame, a diagonal and`,
        'two blocks of checks, with no gaps or steps.',
        `<textAlignCenter><image src="${IMAGE}"/>`,
      ],
    },
  ];
}

/** The QR codes: the profile's own, raster too where that is native, then each alternative. */
function qrParts(p: Profile, alternativesOf: Alternatives): Part[] {
  if (p.qr.command === 'text') return [];
  const native = p.caps.has('qr.native');
  const own: Part = {
    lines: [`<textAlignLeft>QR: ${p.qr.command}${native ? ' (native)' : ' (no native QR by default)'}`, `<textAlignCenter><qrcode>${PAYLOAD}</qrcode>`],
  };
  const alternatives = [
    ...(native ? [{ label: 'raster image, same payload', set: { qr: { command: 'raster' } } }] : []),
    ...alternativesOf('qr'),
  ];
  const parts = alternatives.map(({ label, set }) => ({
    lines: [`<textAlignLeft>ALTERNATIVE ${label}`, `set ${JSON.stringify(set)}`, `<textAlignCenter><qrcode>${PAYLOAD}</qrcode>`],
    profile: withOverride(p, set as ProfileInput),
  }));
  const closing = alternatives.length
    ? ['<textAlignLeft>Every QR code must scan to the same text. Keep the', 'first one that does: set it in the profile.']
    : ['<textAlignLeft>It must scan to the text above.'];
  return [own, ...parts, { lines: closing }];
}

function pageParts(p: Profile): Part[] {
  const rule = '-'.repeat(p.columns.normal);
  const extra = profileSelftest(p);
  const alternativesOf: Alternatives = (part) => (extra.alternatives ?? []).filter((a) => (a.part ?? 'qr') === part);
  const alternativeColumns = (extra.columns ?? []).flatMap((c) => columnRulers(`ALTERNATIVE ${c.label}:`, c.normal, c.condensed));
  return [
    {
      lines: [
        '<textAlignCenter>BOBINA SELF-TEST',
        p.printer,
        `<textAlignLeft>${rule}`,
        ...describeProfile(p),
        rule,
        `CODE PAGE ${p.codepage.encoding.toUpperCase()}: Portuguese letters`,
        ...LETTERS,
        rule,
        ...columnRulers('COLUMNS', p.columns.normal, p.columns.condensed),
        ...alternativeColumns,
        'If a ruler wraps or stops short, correct',
        '"columns" (or "geometry") in the profile.',
        rule,
        'ALIGNMENT',
        '<textAlignLeft>left',
        '<textAlignCenter>center',
        '<textAlignRight>right',
        `<textAlignLeft>${rule}`,
      ],
    },
    ...(p.output === 'escpos' ? styleParts(p, alternativesOf) : []),
    ...qrParts(p, alternativesOf),
    ...(p.image ? barcodeParts(p, alternativesOf) : []),
    {
      lines: [`<textAlignLeft>${rule}`, 'Partial cut below, then a full cut.', '<paperCutPartial>After the partial cut.', '<paperCutFull>'],
    },
  ];
}

/**
 * The self-test page for a printer, as bytes to send to it.
 *
 * @example
 * writeFileSync('selftest.bin', selfTest('MAKER4I9').bytes);
 */
export function selfTest(printer: PrinterRef): SelfTestResult {
  const profile = loadProfile(printer);
  const parts = pageParts(profile);
  // Each part starts with a tag, so no text node runs from one part into the next.
  const starts: number[] = [];
  let conteudo = '';
  for (const part of parts) {
    starts.push(conteudo.length);
    conteudo += part.lines.join('\n') + '\n';
  }
  const raw: RawDiagnostic[] = [];
  const ast = parseRaw(conteudo, raw);
  const nodes: Node[][] = parts.map(() => []);
  for (const node of ast.children) {
    let i = starts.length - 1;
    while (starts[i]! > node.start) i--;
    nodes[i]!.push(node);
  }
  const chunks: Uint8Array[] = [];
  const records: EmitRecord[] = [];
  let length = 0;
  parts.forEach((part, i) => {
    const p = part.profile ?? profile;
    const ops = lowerRaw({ type: 'document', source: conteudo, children: nodes[i]! }, p, raw, { images: { [IMAGE]: testImage() } });
    const emitted = emit(ops, p, { records: true, source: conteudo, prologue: i === 0 });
    for (const r of emitted.records!) records.push({ ...r, offset: r.offset + length });
    chunks.push(emitted.bytes);
    length += emitted.bytes.length;
  });
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, diagnostics: resolveDiagnostics(conteudo, raw), conteudo, records };
}
