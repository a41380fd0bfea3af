// `bobina printers`: the templates, their capabilities and what degrades where.
import { listProfiles } from '../../index.js';
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
      const rows = profiles.map((p) => ({ id: p.id, code: p.code, nome: p.nome, printer: p.printer, isGeneric: p.isGeneric, capabilities: [...p.caps] }));
      io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      return EXIT.ok;
    }
    const yes = (b: boolean, no: string) => (b ? 'yes' : no);
    const rows = [['id', 'code', 'printer', 'partial cut', 'condensed', 'QR', 'code page']];
    for (const p of profiles) {
      rows.push([
        String(p.id),
        p.code,
        p.printer,
        p.isGeneric ? 'removed' : yes(p.caps.has('cut.partial'), 'full cut'),
        p.isGeneric ? 'removed' : yes(p.caps.has('condensed'), 'dropped'),
        p.isGeneric ? 'as text' : p.caps.has('qr.native') ? `native (${p.qr.command})` : 'raster image',
        p.codepage.encoding.toUpperCase(),
      ]);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) io.stdout.write(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd() + '\n');
    return EXIT.ok;
  },
};
