// One measured process for `npm run bench:instructions`: loads one system and runs it on one
// receipt `iterations` times, or (`startup`) imports bobina and compiles (b) once. The parent runs
// it under valgrind with different iteration counts; the difference of the instruction totals,
// divided by the difference of the counts, is the steady-state cost of one receipt.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [what, fixture, iterationsArg] = process.argv.slice(2);
const iterations = Number(iterationsArg ?? 0);
const NATIVE = { extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } };
// BOBINA_DIST: another build of the library to count (an A/B of a change), instead of dist/;
// instructions.mjs passes it as a file URL, a path is taken from the current directory.
const ab = process.env.BOBINA_DIST;
const dist = !ab ? '../../dist/index.js' : ab.startsWith('file:') ? ab : pathToFileURL(resolve(ab)).href;

if (['empty', 'import', 'startup'].includes(what)) {
  // Start-up: [import] + read (b) + [first compile]; every variant reads the file, so the
  // differences between them are the import and the compile alone.
  let compile;
  if (what !== 'empty') ({ compile } = await import(dist));
  const { readFileSync } = await import('node:fs');
  const src = readFileSync(new URL('../../fixtures/nfce.txt', import.meta.url), 'utf8');
  if (what === 'startup') compile(src, { printer: fixture === 'raster' ? 'MAKER5T20' : NATIVE });
} else {
  const { loadReceipt, toOps } = await import('./receipts.mjs');
  const src = ['styled', 'floyd-steinberg', 'atkinson', 'threshold'].includes(fixture) ? '' : loadReceipt(fixture);
  let run;
  if (what === 'bobina' || what === 'bobina-raster') {
    const { compile, loadProfile } = await import(dist);
    const printer = loadProfile(what === 'bobina' ? NATIVE : 'MAKER5T20');
    run = () => compile(src, { printer }).bytes;
  } else if (what === 'bobina-styled' || what === 'rpe-styled') {
    // The styled receipt (lib/styled.mjs): `fixture` is 'styled', the conteudo is bench/fixtures/styled.txt.
    const S = await import('./styled.mjs');
    if (what === 'rpe-styled') run = S.rpeStyled();
    else {
      const { compile, loadProfile } = await import(dist);
      run = S.bobinaStyled(compile, loadProfile(S.NATIVE));
    }
  } else if (what === 'bobina-dither' || what === 'rpe-dither') {
    // Dithering the 576×300 image (lib/styled.mjs's PHOTO) with the method `fixture` names.
    const S = await import('./styled.mjs');
    if (what === 'rpe-dither') {
      const algorithm = { 'floyd-steinberg': 'floydsteinberg' }[fixture] ?? fixture;
      run = () => new S.ReceiptPrinterEncoder(S.RPE_OPTIONS).image(S.PHOTO.rgba, S.PHOTO.width, S.PHOTO.height, algorithm).encode();
    } else {
      const { compile, loadProfile } = await import(dist);
      const printer = loadProfile(S.NATIVE);
      const images = { photo: S.PHOTO.png };
      const conteudo = `<image src="photo" dither="${fixture}"/>`;
      run = () => compile(conteudo, { printer, images }).bytes;
    }
  } else if (what === 'reference') {
    const { referenceEncode } = await import('./reference.mjs');
    run = () => referenceEncode(src);
  } else if (what === 'qrcode-create') {
    const { QRCode } = await import('./adapters.mjs');
    const data = toOps(src).find((o) => o.op === 'qr').data;
    run = () => QRCode.create(data, { errorCorrectionLevel: 'M' }).modules.data;
  } else if (what === 'esc-pos-encoder@2') {
    const { escPosEncoder2 } = await import('./adapters.mjs');
    const ops = toOps(src);
    run = () => escPosEncoder2(ops);
  } else {
    throw new Error(`unknown system ${what}`);
  }
  let sink = 0;
  for (let i = 0; i < iterations; i++) sink ^= run().length;
  if (sink === 0.5) console.log(sink); // never: keeps the loop's result alive
}
