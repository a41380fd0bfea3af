// A file that several benchmarks write into (bench/FLEET.md): each owns the text between its own
// markers, `<!-- bench:NAME -->` … `<!-- /bench:NAME -->`, and replaces only that; a new section is
// appended after a blank line.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeSection(file, name, text) {
  const [start, end] = [`<!-- bench:${name} -->`, `<!-- /bench:${name} -->`];
  const section = `${start}\n${text}\n${end}`;
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = old.indexOf(start);
  const to = old.indexOf(end);
  const next = at >= 0 && to > at ? old.slice(0, at) + section + old.slice(to + end.length) : `${old}${old && !old.endsWith('\n\n') ? '\n' : ''}${section}\n`;
  writeFileSync(file, next);
}
