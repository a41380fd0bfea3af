// `npm run bench:styled`: the styled receipt (issue 21 §6) beside receipt-printer-encoder@4, and the
// dithering of a 576×300 image beside receipt-printer-encoder's, timed in one process with the
// systems alternating round by round (so load on a shared machine hits both alike); medians of
// the rounds and their ratio. Writes the styled section of bench/RESULTS.md (between its markers)
// and bench/out/styled.json. The same comparisons in instructions are in INSTRUCTIONS.md
// (`npm run bench:instructions`). ROUNDS=<n> changes the number of rounds (default 41).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { benchDir, buildLibrary, installBenchPackage, step, thisMachine } from './lib/setup.mjs';

installBenchPackage();
if (!process.argv.includes('--no-build')) buildLibrary();

const { compile, loadProfile } = await import('../dist/index.js');
const S = await import('./lib/styled.mjs');

/** The markers of the section of RESULTS.md this script rewrites. */
const START = '<!-- styled:start (npm run bench:styled rewrites this section) -->';
const END = '<!-- styled:end -->';
const ROUNDS = Number(process.env.ROUNDS ?? 41);
const printer = loadProfile(S.NATIVE);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * Alternating rounds of `systems` ({ name: fn }); each round runs each system `iterations` times
 * (sized for ~20 ms of the first system's work) after a warm-up of ~300 ms each. Medians in µs per call.
 */
function alternate(systems) {
  const fns = Object.entries(systems);
  let iterations = 0;
  for (const [, fn] of fns) {
    let calls = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 300) for (let i = 0; i < 5; i++, calls++) fn();
    if (iterations === 0) iterations = Math.max(3, Math.round((calls * 20) / (performance.now() - t0)));
  }
  const times = Object.fromEntries(fns.map(([name]) => [name, []]));
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of round % 2 ? [...fns].reverse() : fns) {
      const t0 = performance.now();
      for (let i = 0; i < iterations; i++) sink ^= fn().length;
      times[name].push(((performance.now() - t0) / iterations) * 1000);
    }
  }
  if (sink === 0.5) console.log(sink);
  return { iterations, rounds: ROUNDS, medianUs: Object.fromEntries(fns.map(([name]) => [name, median(times[name])])) };
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();

step(`styled receipt: bobina beside receipt-printer-encoder@4 (${ROUNDS} alternating rounds)`);
const bobina = S.bobinaStyled(compile, printer);
const rpe = S.rpeStyled();
const diagnostics = compile(S.STYLED, { printer, images: { logo: S.LOGO.png } }).diagnostics;
if (diagnostics.length > 0) throw new Error(`the styled receipt has diagnostics: ${JSON.stringify(diagnostics)}`);
const styled = { ...alternate({ bobina, 'receipt-printer-encoder@4': rpe }), bytes: { bobina: bobina().length, 'receipt-printer-encoder@4': rpe().length } };
console.log(styled);

step(`dithering a ${S.PHOTO.width}×${S.PHOTO.height} image: bobina's <image> beside receipt-printer-encoder@4's image()`);
const dither = {};
for (const [method, rpeName] of [['floyd-steinberg', 'floydsteinberg'], ['atkinson', 'atkinson'], ['threshold', 'threshold']]) {
  const src = `<image src="photo" dither="${method}"/>`;
  const images = { photo: S.PHOTO.png };
  const photo = S.PHOTO.rgba;
  dither[method] = alternate({
    bobina: () => compile(src, { printer, images }).bytes,
    'receipt-printer-encoder@4': () => new S.ReceiptPrinterEncoder(S.RPE_OPTIONS).image(photo, S.PHOTO.width, S.PHOTO.height, rpeName).encode(),
  });
  console.log(method, dither[method]);
}
const loadAfter = load();

const out = { styled, dither, load: { before: loadBefore, after: loadAfter }, machine: thisMachine(), date: new Date().toISOString() };
mkdirSync(`${benchDir}out`, { recursive: true });
writeFileSync(`${benchDir}out/styled.json`, JSON.stringify(out, null, 2));

const us = (n) => `${n.toFixed(1)} µs`;
const x = (n) => `${n.toFixed(2)}×`;
const L = ['## The styled receipt and dithering beside receipt-printer-encoder (issue 21 §6)', ''];
L.push(`Run: \`npm run bench:styled\`, ${out.date.slice(0, 16).replace('T', ' ')} UTC, ${out.machine.nproc} cores, ${out.machine.cpuModel}, Node ${out.machine.node}; load average (1, 5, 15 min) ${loadBefore} before and ${loadAfter} after (a shared machine: the two systems alternate round by round, ${ROUNDS} rounds, so load hits both alike; medians of the rounds). The same comparisons are counted in instructions, which load cannot move, by \`npm run bench:instructions\` (INSTRUCTIONS.md; this session's counts are in the notes below).`, '');
L.push('The receipt is bench/fixtures/styled.txt: a 384-dot logo (PNG, Floyd–Steinberg), a 2×2 bold title, rows and cells, rules (`-` and `=`), bold, underline, invert, an EAN-13, the 44-digit access key as CODE128 (set C) and a native QR, for the Epson TM-T20. receipt-printer-encoder@4 builds the same receipt with its own commands (`table`, `rule`, `barcode`, `qrcode`, `image`; bench/lib/styled.mjs). bobina decodes the logo\'s PNG on every compile; receipt-printer-encoder has no PNG decoder and gets the same pixels already decoded (RGBA, made once), which flatters it.', '');
L.push('| system | µs per receipt (median) | output bytes | bobina ÷ system (speed) |', '|---|---:|---:|---:|');
for (const [name, t] of Object.entries(styled.medianUs)) L.push(`| ${name} | ${us(t)} | ${styled.bytes[name]} | ${name === 'bobina' ? '—' : x(t / styled.medianUs.bobina)} |`);
const ratio = styled.medianUs['receipt-printer-encoder@4'] / styled.medianUs.bobina;
L.push('', `Target: bobina ≥ 2× faster: **${x(ratio)}** (${ratio >= 2 ? '**met**' : '**not met**'}).`, '');
L.push(`### Dithering a ${S.PHOTO.width}×${S.PHOTO.height} grey image`, '');
L.push('bobina compiles `<image src="photo" dither="…"/>` (PNG decoded, 576 dots wide as given, dithered, sent as `GS v 0`); receipt-printer-encoder@4 runs `image(rgba, 576, 300, algorithm)` and `encode()` on a fresh encoder (dithered by its canvas-dither, sent as `GS v 0`). Both include their own raster encoding; only bobina includes decoding a PNG.', '');
L.push('| method | bobina | receipt-printer-encoder@4 | bobina ÷ it (speed) |', '|---|---:|---:|---:|');
for (const [method, r] of Object.entries(dither)) L.push(`| ${method} | ${us(r.medianUs.bobina)} | ${us(r.medianUs['receipt-printer-encoder@4'])} | ${x(r.medianUs['receipt-printer-encoder@4'] / r.medianUs.bobina)} |`);
L.push('');
const section = `${START}\n${L.join('\n')}\n${END}`;
const results = `${benchDir}RESULTS.md`;
const text = readFileSync(results, 'utf8');
const at = text.indexOf(START);
const next = at >= 0 ? text.slice(0, at) + section + text.slice(text.indexOf(END) + END.length) : text.replace('\n## Throughput', `\n${section}\n\n## Throughput`);
writeFileSync(results, next);
step('wrote the styled section of bench/RESULTS.md');
