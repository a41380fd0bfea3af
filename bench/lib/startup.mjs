// One fresh process: import bobina and compile (b) once. Prints JSON timings (ms) to stdout.
const t0 = performance.now();
const { compile } = await import('../../dist/index.js');
const t1 = performance.now();
const { readFileSync } = await import('node:fs');
const src = readFileSync(new URL('../../fixtures/nfce.txt', import.meta.url), 'utf8');
const t2 = performance.now();
compile(src, { printer: process.argv[2] === 'raster' ? 'MAKER5T20' : { extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } } });
const t3 = performance.now();
process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstCompileMs: t3 - t2, totalMs: t1 - t0 + (t3 - t2) }));
