// `npm run bench:quick`: a fast check while optimising (seconds, not minutes). bobina, the
// hand-written reference and esc-pos-encoder@2 on the three fixtures, run in turns in one process
// (rounds interleaved, so load on a shared machine hits all three alike); prints the best round of
// each and the ratios. `npm run bench` stays the measurement of record (benny, RESULTS.md).
import { buildLibrary, installBenchPackage } from './lib/setup.mjs';

installBenchPackage();
buildLibrary();

const A = await import('./lib/adapters.mjs');
const { FIXTURES, loadReceipt, toOps } = await import('./lib/receipts.mjs');
const { referenceEncode } = await import('./lib/reference.mjs');
const { compile, loadProfile } = await import('../dist/index.js');

const native = loadProfile({ extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } });
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const us = (ms) => `${(ms * 1000).toFixed(2)} µs`;

for (const fixture of FIXTURES) {
  const src = loadReceipt(fixture);
  const ops = toOps(src);
  const systems = {
    bobina: () => compile(src, { printer: native }).bytes,
    reference: () => referenceEncode(src),
    'esc-pos-encoder@2': () => A.escPosEncoder2(ops),
  };
  // Warm up each system (JIT) for ~300 ms, then size rounds at ~20 ms of work per system.
  let iterations = 0;
  for (const fn of Object.values(systems)) {
    let calls = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 300) for (let i = 0; i < 10; i++, calls++) fn();
    if (fn === systems.bobina) iterations = Math.max(10, Math.round((calls * 20) / (performance.now() - t0)));
  }
  const best = Object.fromEntries(Object.keys(systems).map((name) => [name, Infinity]));
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(systems)) {
      const t0 = performance.now();
      for (let i = 0; i < iterations; i++) sink ^= fn().length;
      best[name] = Math.min(best[name], (performance.now() - t0) / iterations);
    }
  }
  const ratio = (name) => `${(best[name] / best.bobina).toFixed(2)}×`;
  console.log(
    `${fixture.padEnd(7)} bobina ${us(best.bobina)} | reference ${us(best.reference)} (bobina ÷ reference ${ratio('reference')})` +
      ` | esc-pos-encoder@2 ${us(best['esc-pos-encoder@2'])} (bobina ÷ it ${ratio('esc-pos-encoder@2')})${sink === -1 ? '' : ''}`,
  );
}
