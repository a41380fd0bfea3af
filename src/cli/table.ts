// Plain text columns for the account listings: a header, then one padded row per item. Every cell
// goes through printable(): listings show what partners and terminals stored (cli/printable.ts).
import { printable } from './printable.js';

export function columns(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = rows.map((r) => r.map(printable));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(header), ...cells.map(line)].join('\n') + '\n';
}
