// All timed suites in one process (benny): throughput per fixture, the raster QR path, the stage
// breakdown of bobina on (b) and the linearity table. Writes bench/out/suites.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import b from 'benny';
import * as A from './adapters.mjs';
import { FIXTURES, linesReceipt, loadReceipt, toOps } from './receipts.mjs';
import { referenceEncode } from './reference.mjs';

const { compile, parse, lower, emit, loadProfile } = await import('../../dist/index.js');

const MAX_TIME = Number(process.env.BENCH_TIME ?? 1.5);
const CASE = { maxTime: MAX_TIME, minSamples: 8 };
const T20 = 'MAKER5T20';
const T20_NATIVE = { extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } };

const length = (x) => (typeof x === 'string' ? x.length : x.length);
const results = { throughput: {}, bytes: {}, raster: {}, stages: {}, linearity: [] };

/** Runs one benny suite; returns { case name → receipts/s (1 / median sample) }. */
async function suite(name, cases) {
  let summary;
  await b.suite(name, ...cases.map(([caseName, fn]) => b.add(caseName, fn, CASE)), b.cycle(), b.complete((s) => { summary = s; }));
  return Object.fromEntries(summary.results.map((r) => [r.name, { perSecond: 1 / r.details.median, benchmarkJsOps: r.ops, samples: r.samples, rme: r.details.relativeMarginOfError }]));
}

// Sinks so nothing is dead code.
let sink = 0;

for (const fixture of FIXTURES) {
  const src = loadReceipt(fixture);
  const ops = toOps(src);
  const rlDoc = A.toReceiptLine(ops);
  const systems = [
    ['bobina', () => compile(src, { printer: T20_NATIVE }).bytes],
    ['reference', () => referenceEncode(src)],
    ['esc-pos-encoder@2', () => A.escPosEncoder2(ops)],
    ['esc-pos-encoder@3', () => A.escPosEncoder3(ops)],
    ['@point-of-sale/receipt-printer-encoder@4', () => A.receiptPrinterEncoder(ops)],
    ['node-thermal-printer', () => A.nodeThermalPrinter(ops)],
    ['receiptline', () => A.receiptLine(rlDoc)],
  ];
  results.bytes[fixture] = Object.fromEntries(systems.map(([n, fn]) => [n, length(fn())]));
  results.throughput[fixture] = await suite(`${fixture} (native QR where there is one)`, systems.map(([n, fn]) => [n, () => { sink ^= length(fn()); }]));
}

// The raster QR path on (b).
{
  const src = loadReceipt('nfce');
  const ops = toOps(src);
  const qrData = ops.find((o) => o.op === 'qr').data;
  await A.prepareReceiptLineImage(ops);
  const rlImageDoc = A.toReceiptLine(ops, true);
  const systems = [
    ['bobina (T20 default: raster QR)', () => compile(src, { printer: T20 }).bytes],
    ['qrcode QRCode.create() alone (floor)', () => A.QRCode.create(qrData, { errorCorrectionLevel: 'M' }).modules.data],
    ['@point-of-sale/receipt-printer-encoder@4 image()', () => A.receiptPrinterEncoderImage(ops)],
    ['receiptline {image:} (PNG made outside the loop)', () => A.receiptLine(rlImageDoc)],
  ];
  results.bytes.nfceRaster = Object.fromEntries(systems.map(([n, fn]) => [n, length(fn())]));
  results.bytes.nfceRaster['node-thermal-printer printImageBuffer(PNG)'] = length(await A.nodeThermalPrinterImage(ops));
  results.raster = await suite('nfce raster QR path', [
    ...systems.map(([n, fn]) => [n, () => { sink ^= length(fn()); }]),
    ['node-thermal-printer printImageBuffer(PNG)', { defer: true, fn: undefined }],
  ].filter(([, fn]) => typeof fn === 'function'));
  // benny's async case: measured separately (it returns a promise per receipt).
  Object.assign(results.raster, await suite('nfce raster QR path (async API)', [
    ['node-thermal-printer printImageBuffer(PNG)', async () => { sink ^= length(await A.nodeThermalPrinterImage(ops)); }],
  ]));
}

// Stage breakdown of bobina on (b), native QR: parse, lower, emit through the public stage API.
{
  const src = loadReceipt('nfce');
  const profile = loadProfile(T20_NATIVE);
  const { ast } = parse(src);
  const { ops } = lower(ast, profile);
  results.stages = await suite('bobina stages on nfce (native QR)', [
    ['compile (whole)', () => { sink ^= compile(src, { printer: profile }).bytes.length; }],
    ['parse', () => { sink ^= parse(src).ast.children.length; }],
    ['lower', () => { sink ^= lower(ast, profile).ops.length; }],
    ['emit', () => { sink ^= emit(ops, profile).bytes.length; }],
  ]);
}

// Linearity: 10 … 10,000 lines.
for (const lines of [10, 100, 1000, 10000]) {
  const src = linesReceipt(lines);
  const out = compile(src, { printer: T20_NATIVE }).bytes.length;
  const r = await suite(`linearity ${lines} lines`, [[`bobina ${lines} lines`, () => { sink ^= compile(src, { printer: T20_NATIVE }).bytes.length; }]]);
  const perSecond = r[`bobina ${lines} lines`].perSecond;
  results.linearity.push({ lines, inputChars: src.length, outputBytes: out, perSecond, inputMBps: (src.length * perSecond) / 1e6, outputMBps: (out * perSecond) / 1e6 });
}

results.versions = A.versions;
results.sink = sink;
mkdirSync(new URL('../out/', import.meta.url), { recursive: true });
writeFileSync(new URL('../out/suites.json', import.meta.url), JSON.stringify(results, null, 2));
