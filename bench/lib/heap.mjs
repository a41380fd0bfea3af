// JS heap allocated per receipt. Run with --expose-gc and a young generation large enough that no
// GC happens inside the measured loop (checked with a PerformanceObserver on 'gc' entries), so the
// heapUsed delta over N receipts is what they allocated. Array buffers (off-heap backing stores of
// Uint8Arrays) are reported separately. Prints JSON to stdout.
import { PerformanceObserver } from 'node:perf_hooks';
import * as A from './adapters.mjs';
import { loadReceipt, toOps } from './receipts.mjs';
import { referenceEncode } from './reference.mjs';

const { compile, loadProfile } = await import('../../dist/index.js');
const N = Number(process.env.HEAP_N ?? 2000);
const src = loadReceipt('nfce');
const ops = toOps(src);
const native = loadProfile({ extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } });

const gcTimes = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) gcTimes.push(e.startTime); }).observe({ entryTypes: ['gc'] });
const windows = [];

const keep = [];
function measure(fn, n) {
  for (let i = 0; i < 200; i++) fn(); // warm up (JIT)
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) keep[i & 1] = fn();
  const t1 = performance.now();
  const after = process.memoryUsage();
  const result = {
    receipts: n,
    heapBytesPerReceipt: (after.heapUsed - before.heapUsed) / n,
    arrayBufferBytesPerReceipt: (after.arrayBuffers - before.arrayBuffers) / n,
  };
  windows.push([result, t0, t1]);
  return result;
}
const out = {};
const cases = {
  'bobina (native QR)': [() => compile(src, { printer: native }), N],
  'bobina (raster QR)': [() => compile(src, { printer: 'MAKER5T20' }), Math.min(N, 100)],
  reference: [() => referenceEncode(src), N],
  'esc-pos-encoder@2': [() => A.escPosEncoder2(ops), N],
};
for (const [name, [fn, n]] of Object.entries(cases)) {
  await new Promise((r) => setTimeout(r, 20)); // let the gc observer deliver
  out[name] = measure(fn, n);
}
await new Promise((r) => setTimeout(r, 50));
// A GC inside a loop would hide allocations: flag it (the loop sizes are chosen to avoid it).
for (const [result, t0, t1] of windows) result.gcDuringLoop = gcTimes.some((t) => t >= t0 && t <= t1);
process.stdout.write(JSON.stringify(out));
