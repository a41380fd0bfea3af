// Summarises StrykerJS JSON reports (default reports/mutation/mutation.json, written by
// `npm run mutation`) per folder, as the Markdown table in bench/MUTATION.md, then lists every
// mutant marked equivalent in the source (a `Stryker disable` comment, with its reason) and every
// surviving or uncovered one (file:line:column, the code it changes, the replacement).
//   node bench/mutation-summary.mjs [report.json ...] [--files]   (--files: one row per file)
// Several reports (runs of different folders) are read in order; a file in a later one replaces
// the same file in an earlier one.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const paths = args.filter((a) => !a.startsWith('--'));
const files = new Map();
for (const path of paths.length ? paths : ['reports/mutation/mutation.json']) {
  for (const [file, data] of Object.entries(JSON.parse(readFileSync(path, 'utf8')).files)) files.set(file, data);
}

const STATIC = /^Static mutant/;
const empty = () => ({ Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Equivalent: 0, Static: 0, other: 0 });
const rows = new Map();
const undetected = [];
const equivalent = [];
const where = (file, m) => `${file}:${m.location.start.line}:${m.location.start.column}`;
/** The code a mutant replaces (first line of it), and its replacement. */
function change(source, m) {
  const { start, end } = m.location;
  const line = source.split('\n')[start.line - 1] ?? '';
  const code = start.line === end.line ? line.slice(start.column - 1, end.column - 1) : `${line.slice(start.column - 1)}…`;
  const short = (s) => (s.length > 70 ? `${s.slice(0, 70)}…` : s);
  return `\`${short(code)}\` → \`${short(String(m.replacement ?? ''))}\``;
}

for (const [file, { source, mutants }] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
  const folder = args.includes('--files') ? file : file.split('/').slice(0, 2).join('/');
  const row = rows.get(folder) ?? empty();
  for (const m of mutants) {
    if (m.status === 'Ignored') {
      if (STATIC.test(m.statusReason ?? '')) row.Static++;
      else {
        row.Equivalent++;
        equivalent.push(`${where(file, m)} ${m.mutatorName} ${change(source, m)}: ${m.statusReason}`);
      }
    } else if (m.status in row) row[m.status]++;
    else row.other++;
    if (m.status === 'Survived' || m.status === 'NoCoverage') undetected.push(`${where(file, m)} ${m.status} ${m.mutatorName} ${change(source, m)}`);
  }
  rows.set(folder, row);
}

const score = (r) => {
  const detected = r.Killed + r.Timeout;
  const valid = detected + r.Survived + r.NoCoverage;
  return valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)}%`;
};
const total = empty();
console.log('| folder | killed | timeout | survived | no coverage | equivalent (marked) | static (skipped) | errors | score |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [folder, r] of rows) {
  for (const k of Object.keys(total)) total[k] += r[k];
  console.log(`| ${folder} | ${r.Killed} | ${r.Timeout} | ${r.Survived} | ${r.NoCoverage} | ${r.Equivalent} | ${r.Static} | ${r.other} | ${score(r)} |`);
}
console.log(`| **total** | ${total.Killed} | ${total.Timeout} | ${total.Survived} | ${total.NoCoverage} | ${total.Equivalent} | ${total.Static} | ${total.other} | **${score(total)}** |`);
console.log(`\n${equivalent.length} mutant(s) marked equivalent in the source:`);
for (const line of equivalent) console.log(`- ${line}`);
console.log(`\n${undetected.length} undetected mutant(s):`);
for (const line of undetected) console.log(`- ${line}`);
