// `bobina printers`: the templates, their capabilities and what degrades where.
import { listProfiles, type Profile } from '../../index.js';
import { SYMBOLOGIES, SYMBOLOGY_NAMES, type Symbology } from '../../lower/barcode/symbol.js';
import { OUTCOMES } from '../../lower/index.js';
import { parse } from '../args.js';
import { EXIT, type Command } from '../io.js';

export const printersCommand: Command = {
  name: 'printers',
  usage: 'bobina printers [--json]',
  summary: 'list the printer templates and their capabilities',
  run(args, io) {
    const { values } = parse(args, { json: { type: 'boolean' } }, 0);
    const profiles = listProfiles();
    if (values.json) {
      const rows = profiles.map((p) => ({ id: p.id, code: p.code, nome: p.nome, printer: p.printer, isGeneric: p.isGeneric, capabilities: [...p.caps], missing: missing(p), ...(p.caps.has('size') && { sizeMax: p.sizeMax ?? { width: 8, height: 8 } }), barcodes: barcodes(p) }));
      io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      return EXIT.ok;
    }
    const rows = [['id', 'code', 'printer', 'partial cut', 'condensed', 'QR', 'code page', 'styles', 'barcodes']];
    for (const p of profiles) {
      const lacks = missing(p);
      rows.push([
        String(p.id),
        p.code,
        p.printer,
        lacks['cut.partial'] ?? 'yes',
        lacks.condensed ?? 'yes',
        lacks['qr.native'] ?? `native (${p.qr.command})`,
        p.codepage.encoding.toUpperCase(),
        styleSummary(p, lacks),
        barcodeSummary(p),
      ]);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) io.stdout.write(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd() + '\n');
    return EXIT.ok;
  },
};

/** Per symbology: `native` (the profile's command), `raster image`, or `as text` (plain text). */
function barcodes(p: Profile): Record<Symbology, string> {
  return Object.fromEntries(SYMBOLOGIES.map((s) => [s, !p.image ? 'as text' : p.barcode?.types[s] != null ? 'native' : 'raster image'])) as Record<Symbology, string>;
}

/** "bold underline invert size≤8x8", "bold underline size≤2x2, invert dropped", "removed". */
function styleSummary(p: Profile, lacks: Record<string, string>): string {
  const styles = ['bold', 'underline', 'invert', 'size'] as const;
  const held = styles.filter((s) => p.caps.has(s)).map((s) => (s === 'size' ? `size≤${p.sizeMax?.width ?? 8}x${p.sizeMax?.height ?? 8}` : s));
  const outcomes = [...new Set(styles.filter((s) => !p.caps.has(s)).map((s) => lacks[s]!))];
  if (held.length === 0) return outcomes.length === 1 ? outcomes[0]! : 'none';
  const lacking = styles.filter((s) => !p.caps.has(s)).map((s) => `${s} ${lacks[s]}`);
  return [held.join(' '), ...lacking].join(', ');
}

/** "native (epson-gs-k)", "native (daruma-esc-b), CODE128 raster", "as text". */
function barcodeSummary(p: Profile): string {
  if (!p.image) return 'as text';
  const raster = SYMBOLOGIES.filter((s) => p.barcode?.types[s] == null).map((s) => SYMBOLOGY_NAMES[s]);
  if (!p.barcode || raster.length === SYMBOLOGIES.length) return 'raster image';
  return `native (${p.barcode.command})${raster.length ? `, ${raster.join(' ')} raster` : ''}`;
}

/** What each capability the printer lacks becomes, from its data and lowering's outcome table. */
function missing(p: Profile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [cap, { outcome }] of Object.entries(OUTCOMES)) {
    if (!p.caps.has(cap as keyof typeof OUTCOMES)) out[cap] = p.missing?.[cap as keyof typeof OUTCOMES] ?? outcome;
  }
  if (!p.caps.has('qr.native')) out['qr.native'] = p.qr.command === 'text' ? 'as text' : 'raster image';
  return out;
}
