// `bobina printers`: the templates, their capabilities and what degrades where.
import { listProfiles, type Profile } from '../../index.js';
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
      const rows = profiles.map((p) => ({ id: p.id, code: p.code, nome: p.nome, printer: p.printer, isGeneric: p.isGeneric, capabilities: [...p.caps], missing: missing(p) }));
      io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      return EXIT.ok;
    }
    const rows = [['id', 'code', 'printer', 'partial cut', 'condensed', 'QR', 'code page']];
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
      ]);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) io.stdout.write(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd() + '\n');
    return EXIT.ok;
  },
};

/** What each capability the printer lacks becomes, from its data and lowering's outcome table. */
function missing(p: Profile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [cap, { outcome }] of Object.entries(OUTCOMES)) {
    if (!p.caps.has(cap as keyof typeof OUTCOMES)) out[cap] = p.missing?.[cap as keyof typeof OUTCOMES] ?? outcome;
  }
  if (!p.caps.has('qr.native')) out['qr.native'] = p.qr.command === 'text' ? 'as text' : 'raster image';
  return out;
}
