// Insert → last byte at a virtual printer, per job: inserts at a steady rate, each job carrying a
// marker line that the printer's "printed" event is matched to by its bytes. Shared by
// bench/delivery.mjs and bench/postgres.mjs.
import { startVirtualPrinter } from '../../dist/delivery.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const marker = (n) => `BENCH-${String(n).padStart(6, '0')}`;

/** A virtual printer whose "job N: …" events call `printer.onPrinted`: the bench's clock for "last byte". */
export async function benchPrinter(model) {
  const printer = { onPrinted: () => {} };
  printer.vp = await startVirtualPrinter({ printer: model, onEvent: (line) => /^job \d+:/.test(line) && printer.onPrinted() });
  return printer;
}

/**
 * Inserts `total` jobs for `terminalId` at `rate` per second at `s.base` (with `s.apiKey`), markers
 * numbered from `first`, and waits (up to 60 s) until `printer` has printed them all. Latency: from
 * just before the Insert request to the printer having the job's last byte.
 */
export async function latency(s, printer, terminalId, rate, total, first, conteudo) {
  const { vp } = printer;
  const sentAt = new Map();
  const doneAt = new Map();
  const seen = vp.jobs.length;
  printer.onPrinted = () => {
    const now = performance.now();
    for (const job of vp.jobs.slice(seen)) {
      const m = /BENCH-(\d{6})/.exec(Buffer.from(job.bytes).toString('latin1'));
      if (m && !doneAt.has(Number(m[1]))) doneAt.set(Number(m[1]), now);
    }
  };
  const inserts = [];
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const n = first + i;
    sentAt.set(n, performance.now());
    inserts.push(fetch(`${s.base}/IntencaoImpressao/Insert`, {
      method: 'POST', headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ referencia: marker(n), conteudo: `${marker(n)}<br>${conteudo}`, terminalId }),
    }).then((r) => {
      if (r.status !== 200) throw new Error(`Insert ${r.status}`);
      return r.arrayBuffer();
    }));
  }
  await Promise.all(inserts);
  const end = Date.now() + 60_000;
  while (doneAt.size < total && Date.now() < end) await sleep(5);
  if (doneAt.size < total) throw new Error(`only ${doneAt.size} of ${total} jobs printed`);
  const times = [...doneAt].map(([n, t]) => t - sentAt.get(n)).sort((a, b) => a - b);
  return { jobs: total, p50: pct(times, 50), p99: pct(times, 99), max: times.at(-1) };
}
