// `node bench/virtual-printer.mjs [jobs]` (after `npm run build`): one process delivers the NFC-e
// receipt, one job after another, to an in-process virtual printer with deliver() (status check,
// write, close; on the TM-T20 also the end-of-print confirmation and a status after it), and reports
// p50/p99 per job and jobs per second. Not a test: timings on a shared VM move between runs.
import { readFileSync } from 'node:fs';
import { compile } from '../dist/index.js';
import { deliver, openPrinter, startVirtualPrinter } from '../dist/delivery.js';

const jobs = Number(process.argv[2] ?? 200);
const conteudo = readFileSync(new URL('../fixtures/nfce.txt', import.meta.url), 'utf8');
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

for (const printer of ['MAKER5T20', 'MAKER4I9', 'MAKER3DR800']) {
  const { bytes } = compile(conteudo, { printer });
  const vp = await startVirtualPrinter({ printer });
  const times = [];
  const start = performance.now();
  for (let i = 0; i < jobs; i++) {
    const t = performance.now();
    const r = await deliver(openPrinter(vp.address, printer), { id: String(i), token: 't', bytes });
    if (r.outcome !== 'completed') throw new Error(`${printer} job ${i}: ${r.outcome} ${r.detail}`);
    times.push(performance.now() - t);
  }
  const total = (performance.now() - start) / 1000;
  await vp.close();
  times.sort((a, b) => a - b);
  console.log(`${printer.padEnd(12)} ${bytes.length} bytes/job  p50 ${pct(times, 50).toFixed(2)} ms  p99 ${pct(times, 99).toFixed(2)} ms  ${(jobs / total).toFixed(0)} jobs/s  (${jobs} jobs, ${vp.jobs.length} printed)`);
}
