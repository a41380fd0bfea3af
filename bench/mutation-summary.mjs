// Summarises a StrykerJS JSON report (default reports/mutation/mutation.json, written by
// `npm run mutation`) per folder, as the Markdown table in bench/MUTATION.md, then lists every
// surviving or uncovered mutant (file:line, mutator, replacement) for review.
//   node bench/mutation-summary.mjs [report.json] [--files]   (--files: one row per file)
import { readFileSync } from 'node:fs';

const file = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'reports/mutation/mutation.json';
const report = JSON.parse(readFileSync(file, 'utf8'));

const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const rows = new Map();
const undetected = [];
for (const [path, { mutants }] of Object.entries(report.files)) {
  const folder = process.argv.includes('--files') ? path : path.split('/').slice(0, 2).join('/');
  const row = rows.get(folder) ?? { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, other: 0 };
  for (const m of mutants) {
    if (m.status in row) row[m.status]++;
    else row.other++;
    if (UNDETECTED.has(m.status)) undetected.push(`${path}:${m.location.start.line}:${m.location.start.column} ${m.status} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? '')}`);
  }
  rows.set(folder, row);
}
const score = (r) => {
  const detected = r.Killed + r.Timeout;
  const valid = detected + r.Survived + r.NoCoverage;
  return valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(2)}%`;
};
const total = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, other: 0 };
console.log('| folder | killed | timeout | survived | no coverage | ignored (static) | errors | score |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const [folder, r] of [...rows].sort()) {
  for (const k of Object.keys(total)) total[k] += r[k];
  console.log(`| ${folder} | ${r.Killed} | ${r.Timeout} | ${r.Survived} | ${r.NoCoverage} | ${r.Ignored} | ${r.other} | ${score(r)} |`);
}
console.log(`| **total** | ${total.Killed} | ${total.Timeout} | ${total.Survived} | ${total.NoCoverage} | ${total.Ignored} | ${total.other} | **${score(total)}** |`);
console.log(`\n${undetected.length} undetected mutant(s):`);
for (const line of undetected) console.log(`- ${line}`);

