// docs/printers.md from the profiles themselves (`npm run printers-doc`): per model, every command,
// its bytes, its source and confidence, and what the self-test page checks. The per-model tables
// are generated from the data, so they cannot drift from it; a test compares the committed file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listProfiles, profileSelftest, profileSources, type Profile } from '../src/index.js';
import { SYMBOLOGIES, SYMBOLOGY_NAMES } from '../src/lower/barcode/symbol.js';

type Row = { what: string; bytes: string; source: string | undefined; checks: string };

const code = (s: string) => `\`${s}\``;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The profile's source for a fact: its own entry, else the first of the fallbacks given. */
function sourceOf(p: Profile, ...paths: string[]): string | undefined {
  for (const path of paths) {
    const s = profileSources(p)[path];
    if (s) return `${s.confidence} — ${s.source}`;
  }
  return undefined;
}

/** Bold, underline, invert and size: bytes, or what the tag becomes without them. */
function styleRows(p: Profile): Row[] {
  const c = p.commands!;
  const none = (what: string) => `none: ${what} is dropped, with a warning`;
  const out: Row[] = [];
  for (const [on, off, what, name] of [
    ['boldOn', 'boldOff', 'bold on / off', 'bold'],
    ['underlineOn', 'underlineOff', 'underline on / off', 'underline'],
    ['invertOn', 'invertOff', 'invert on / off', 'invert'],
  ] as const) {
    const bytes = c[on] && c[off] ? `${code(c[on])} / ${code(c[off])}` : none(`<text${name[0]!.toUpperCase()}${name.slice(1)}On>`);
    out.push({ what, bytes, source: sourceOf(p, `commands.${on}`), checks: `STYLES: the ${name} line` });
  }
  const max = p.sizeMax ?? { width: 8, height: 8 };
  out.push({
    what: 'text size W × H',
    bytes: c.size ? `${code(c.size)} (w = W − 1, h = H − 1, wh = w × 16 + h), at most ${max.width} × ${max.height}` : none('<textSize>'),
    source: sourceOf(p, 'commands.size'),
    checks: 'SIZES: 1×1 to 3×3, each as wide and tall as it says',
  });
  if (p.resetsStyles?.length) {
    out.push({ what: 'styles again after', bytes: p.resetsStyles.map((k) => code(c[k] ?? k)).join(', '), source: sourceOf(p, 'resetsStyles'), checks: 'STYLES: the bold condensed line is still bold' });
  }
  return out;
}

function rows(p: Profile): Row[] {
  const c = p.commands!;
  const out: Row[] = [
    { what: 'job start', bytes: code(c.init), source: sourceOf(p, 'commands.init'), checks: 'the page prints at all; its listing starts with these commands' },
    {
      what: 'code page',
      bytes: p.codepage.select ? `${code(p.codepage.select)} (${p.codepage.encoding.toUpperCase()})` : `none: the printer's stored page, text in ${p.codepage.encoding.toUpperCase()}`,
      source: sourceOf(p, 'codepage.select'),
      checks: 'the two lines of Portuguese letters',
    },
  ];
  for (const [key, what] of [['alignLeft', 'align left'], ['alignCenter', 'align centre'], ['alignRight', 'align right']] as const) {
    out.push({ what, bytes: code(c[key]), source: sourceOf(p, `commands.${key}`), checks: 'ALIGNMENT: left, center, right' });
  }
  for (const [key, what] of [['condensedOn', 'condensed on'], ['condensedOff', 'condensed off']] as const) {
    out.push({ what, bytes: c[key] ? code(c[key]) : 'none: the tag is dropped, with a warning', source: sourceOf(p, `commands.${key}`), checks: 'the condensed ruler' });
  }
  out.push(
    { what: 'full cut', bytes: code(c.cutFull), source: sourceOf(p, 'commands.cutFull'), checks: 'the full cut at the end' },
    { what: 'partial cut', bytes: c.cutPartial ? code(c.cutPartial) : 'none: a full cut instead, with a warning', source: sourceOf(p, 'commands.cutPartial'), checks: 'the partial cut before the end' },
  );
  if (p.feedBeforeCut) out.push({ what: 'before a cut', bytes: `the feed, ${p.feedBeforeCut} lines`, source: sourceOf(p, 'feedBeforeCut'), checks: 'the last line clears the cutter' });
  out.push(
    { what: 'feed n lines', bytes: code(c.feed), source: sourceOf(p, 'commands.feed'), checks: 'not on the page' },
    {
      what: 'drawer pulse',
      bytes: `${code(c.drawer)}${p.drawerPin ? ` (pin ${p.drawerPin})` : ' (the printer’s own pin)'}`,
      source: sourceOf(p, 'commands.drawer'),
      checks: 'not on the page (it would open the drawer)',
    },
    ...styleRows(p),
    { what: 'QR code', bytes: qrBytes(p), source: sourceOf(p, 'qr.command', 'qr'), checks: 'the QR scans to the payload printed above it' },
  );
  if (p.qr.params) out.push({ what: 'QR parameters (GS k Q N2 N3 N4)', bytes: code(p.qr.params), source: sourceOf(p, 'qr.params'), checks: 'the GS k Q alternative scans' });
  if (p.qr.bracket) {
    out.push({ what: `around a ${p.qr.bracket.command} symbol`, bytes: `${code(p.qr.bracket.enter)} … ${code(p.qr.bracket.leave)}`, source: sourceOf(p, 'qr.bracket'), checks: 'the alternative prints, and the text after it is still CP850 and aligned' });
  }
  if (p.qr.moduleRange) out.push({ what: 'native QR module sizes', bytes: `${p.qr.moduleRange.min}..${p.qr.moduleRange.max}`, source: sourceOf(p, 'qr.moduleRange'), checks: 'the native alternative scans' });
  out.push(...barcodeRows(p));
  out.push({ what: 'images (raster QR, barcodes, `<image>`)', bytes: imageBytes(p), source: sourceOf(p, 'image.command'), checks: 'the raster QR scans, with no gaps between bands' });
  if (p.image!.command === 'esc-star-24') out.push({ what: 'between image bands', bytes: bandBytes(p), source: sourceOf(p, 'image.bandEnd', 'image.lineSpacing'), checks: 'no white lines across the raster QR' });
  out.push({
    what: 'paper',
    bytes: `${p.geometry.dotsPerLine} dots; fonts ${p.geometry.cell.normal.width}×${p.geometry.cell.normal.height} / ${p.geometry.cell.condensed.width}×${p.geometry.cell.condensed.height}; ${p.columns.normal} / ${p.columns.condensed} columns`,
    source: sourceOf(p, 'geometry', 'columns'),
    checks: 'each ruler fills one line exactly, without wrapping',
  });
  return out;
}

function qrBytes(p: Profile): string {
  const family: Record<string, string> = {
    raster: 'raster image (see images)',
    'epson-gs-k': `${code('GS ( k')}: model 2, module ${p.qr.moduleSize}, ECC ${p.qr.ecc}, store, print`,
    'bematech-gs-k-q': `${code('GS k Q')}, ECC ${p.qr.ecc}`,
    'daruma-esc-81': `${code('ESC 0x81')}, module ${p.qr.moduleSize}, ECC ${p.qr.ecc}`,
    text: 'the payload as a line of text',
  };
  return `${family[p.qr.command]}; ${p.qr.moduleSize} dots per module, ECC ${p.qr.ecc}`;
}

function barcodeRows(p: Profile): Row[] {
  const b = p.barcode;
  const checks = 'each barcode scans to the text printed with it';
  if (!b) return [{ what: 'barcodes', bytes: 'raster images (see images), the text as lines of the normal font', source: undefined, checks }];
  const epson = b.command === 'epson-gs-k';
  const text = b.text.join(', ');
  const rows: Row[] = [
    {
      what: 'barcode settings',
      bytes: epson
        ? `${code('GS h n')} height ${b.heightRange.min}..${b.heightRange.max}, ${code('GS w n')} module ${b.moduleRange.min}..${b.moduleRange.max}, ${code('GS H n')} text (${text})`
        : `in the command: module ${b.moduleRange.min}..${b.moduleRange.max}, height ${b.heightRange.min}..${b.heightRange.max}, text ${text}`,
      source: sourceOf(p, 'barcode.command'),
      checks: 'the barcodes print at the height, width and text position asked; outside these ranges bobina prints a raster image',
    },
  ];
  for (const s of SYMBOLOGIES) {
    const type = b.types[s];
    const command = epson ? `GS k ${type} n d1…dn` : `ESC b ${type} width height text d1…dk NUL`;
    const how = s === 'code128' && type != null ? (b.code128 === 'sets' ? ' (code sets {A {B {C as bobina chose them)' : ' (as text: the printer picks the code sets)') : '';
    rows.push({
      what: `barcode ${SYMBOLOGY_NAMES[s]}`,
      bytes: type == null ? 'none: a raster image' : `${code(command)}${how}`,
      source: sourceOf(p, `barcode.types.${s}`, ...(s === 'code128' ? ['barcode.code128'] : [])) ?? 'as the barcode settings',
      checks,
    });
  }
  return rows;
}

function imageBytes(p: Profile): string {
  const i = p.image!;
  return i.command === 'gs-v-0'
    ? `${code('GS v 0')} bands of at most ${i.maxBandBytes} bytes${i.maxBandRows ? ` and ${i.maxBandRows} rows` : ''}, ${i.widthDots} dots wide at most`
    : `${code('ESC * 33')} 24-dot bands, ${i.widthDots} dots wide at most`;
}

function bandBytes(p: Profile): string {
  const i = p.image!;
  return [`before: ${i.lineSpacing ? code(i.lineSpacing) : 'nothing'}`, `after each band: ${i.bandEnd ? code(i.bandEnd) : 'nothing'}`, `after: ${i.lineSpacingReset ? code(i.lineSpacingReset) : 'nothing'}`].join('; ');
}

function model(p: Profile): string {
  const lines = [`## ${p.id} ${code(p.code)} — ${p.printer}`, ''];
  if (p.output === 'text') {
    lines.push(
      'Plain UTF-8 text, no printer commands: the tags are removed as the spec says (its data: `missing` cut, partial cut, condensed and drawer: `removed`); alignment is done with spaces to',
      `${p.columns.normal} columns, a feed is blank lines, a QR code is its payload on a line. The self-test page prints the letters, the rulers and the alignments.`,
      '',
    );
    return lines.join('\n');
  }
  lines.push('| what | bytes | confidence — source | the self-test page checks |', '|---|---|---|---|');
  for (const r of rows(p)) lines.push(`| ${r.what} | ${cell(r.bytes)} | ${cell(r.source ?? '—')} | ${r.checks} |`);
  const alternatives = profileSelftest(p).alternatives ?? [];
  const columns = profileSelftest(p).columns ?? [];
  if (alternatives.length || columns.length || p.caps.has('qr.native')) {
    lines.push('', 'The self-test page also prints, labelled:', '');
    if (p.caps.has('qr.native')) lines.push('- a raster QR code beside the native one: `set {"qr":{"command":"raster"}}`');
    for (const a of alternatives) lines.push(`- ALTERNATIVE ${a.label}: ${code(`set ${JSON.stringify(a.set)}`)}`);
    for (const c of columns) lines.push(`- the rulers for ${c.normal} / ${c.condensed} columns (${c.label}): ${code(`set {"columns":{"normal":${c.normal},"condensed":${c.condensed}}}`)}`);
  }
  lines.push('');
  return lines.join('\n');
}

const INTRO = `# The printers bobina supports

<!-- Generated by \`npm run printers-doc\` from src/profiles/builtin/*.json: edit the profiles, not this file. -->

For each template: every command bobina sends, its bytes, what it was checked against and how
sure that is, and what the self-test page (\`bobina selftest --printer <id>\`) shows so that a person
with the printer can tell whether it is right. Confidence: **H** a primary manual, or two
independent implementations tested on the printer, agree; **M** one good source; **L** inferred,
not verified. Anything the page shows wrong is fixed with a profile override, without code (see
the README, *Profiles are data*).

Sources read for this table (stored copies, through the project's search tools): ACBr
\`Fontes/ACBrSerial/ACBrEscBematech.pas\`, \`ACBrEscDaruma.pas\`, \`ACBrEscPosEpson.pas\`,
\`ACBrPosPrinterClass.pas\` (frones/ACBr); pyescpos \`escpos/impl/*.py\` and \`pyescpos/impl/*.py\`
(base4sistemas/pyescpos); node-thermal-printer \`lib/types/{daruma,tanca}*.js\`
(Klemen1337/node-thermal-printer); Vip.Printer \`src/Vip.Printer/Esc{Pos,Bema,Daruma}Commands/*\` and
its README's table of printers tested (leandrovip/Vip.Printer); OpenAC.Net.EscPos
\`Interpreter/Daruma/*\` (OpenAC-Net/OpenAC.Net.EscPos); escpos-printer-db
\`data/profile/TM-T20II.yml\` and issue #34; the Bematech MP-4200 TH Programmer's Manual rev 1.0
(per-page copy); Epson's TM-T20 ESC/POS Quick Reference and TM-T88III / TM-U210 specifications;
the ESC/P command summaries of Epson's SQ-850/2550 and DFX-5000 manuals (\`ESC SO\`, \`DC4\`);
escpos-coffee-samples issue #3 and Gerene.DFe.EscPos issue #8.
Not found anywhere: a command manual for the CIS PR 3000, the Tanca TP-450 and the Elgin i9;
the MP-4200 manual's pages for \`GS V\`, \`ESC d\` and \`GS k\` in ESC/POS mode; the unit of
\`ESC 3\` and the factory column setting of the DR800; ACBr's \`ACBrUSBID.ini\` (not in the stored
copies).

## The decisions the sources could not settle alone

| point | decision | why (sources) | the self-test page prints |
|---|---|---|---|
| MP-4200 native QR | raster (\`GS v 0\`) by default | every \`GS k Q\` sender (ACBr, Vip.Printer, pyescpos) sends it in ESC/Bema mode; escpos-printer-db #34: no 2D codes in ESC/POS mode; \`GS ( k\` needed a firmware update (escpos-coffee-samples #3) | A: \`GS k Q\` with the printer switched to ESC/Bema for the symbol (\`GS F9 20 30\` … \`GS F9 20 31\`, manual p.10, then code page and alignment again); B: \`GS ( k\` |
| MP-4200 feed | \`LF\` × n | \`ESC d\` is not in the manual's ESC/POS pages and is double height in ESC/Bema; \`LF\` is in both | — |
| MP-4200 columns | 36 / 48 (512 dots, fonts 14×24 and 10.5×24) | manual pp.44, 80, 83; 48 / 64 is the ESC/Bema figure | the 48 / 64 rulers |
| DR800 \`ESC *\` bands | \`ESC 3 0\`, bands with no \`LF\`, \`ESC 2\` | Vip.Printer and OpenAC send no \`LF\` on Daruma (Vip does on ESC/POS); an \`LF\` would open gaps in a QR code | A: bands ended by \`LF\`, \`ESC 3 24\`; B: native \`ESC 0x81\` |
| DR800 condensed columns | 64 | ACBr programs 64 for DR800 models, 57 for the DR700; pyescpos DR800 48 / 64; it is a stored setting | the 57-column ruler |
| i9 condensed | dropped (the spec's table) | pyescpos \`ESC M 1\`, ACBr and Vip.Printer \`ESC ! 1\`: probably supported, override to enable | — |
| T20, TP-450 native QR | raster (the spec's table) | the TM-T20 quick reference lists \`GS ( k\`; node-thermal-printer's Tanca type sends it | native \`GS ( k\` |
| DR800 CODE128 | raster image | Daruma's \`ESC b 5\` takes the data as text and the printer picks the code sets (ACBr, Vip.Printer): an access key might come out in set B, twice the paper's width | C: native \`ESC b 5\` |
| DR800 double width | \`ESC W 1\` / \`ESC W 0\` (lasting) | ACBr and OpenAC send \`ESC W n\`; Vip.Printer (tested on the DR800) and node-thermal-printer send \`ESC SO\` \`1B 0E 00\`, Vip ending it with \`DC4\`; \`ESC SO\` lasts one line on ESC/P (Epson SQ-850, DFX-5000 manuals) and ESC/Bema printers (MP-4200 TH manual p.25); no Daruma manual found | D: \`ESC SO\` … \`DC4\` (\`w[14\\|1B0E00]\`: the bytes for width 1 \\| 2), and a line after it that sends nothing: wide only if \`ESC SO\` outlasts the line |
| MP-4200 CODE128 | Epson's \`GS k 73\` with \`{A {B {C\` | Vip.Printer sends \`{C\` in ESC/POS mode on the MP-4200; in ESC/Bema the printer picks the sets (MP-4000 manual p.53) | C: CODE128 as a raster image |
| barcodes outside a command's ranges | raster image | a module, height or text position the command does not take (Epson \`GS w\` 2–6; Daruma width 2–5, height 50–200, text below only), or bars wider than the paper | — |
| \`sources\` entries | every entry says what its source really sends | mp4200 condensed and cuts, dr800 image, tp450 cuts and drawer were wrong | — |

`;

/** The whole document. */
export function printersDoc(): string {
  return INTRO + listProfiles().map(model).join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = join(import.meta.dirname, '..', 'docs', 'printers.md');
  writeFileSync(out, printersDoc());
  console.log(`wrote ${out}`);
}
