// One fresh process for the cold-start comparison: import one library and encode (b) once. bobina
// compiles the conteudo (native QR); esc-pos-encoder@2 (canvas stubbed: it does not build here)
// replays (b)'s operations from bench/out/nfce-ops.json; `empty` only reads that file, as both do.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [what] = process.argv.slice(2);
const dist = process.env.BOBINA_DIST ?? new URL('../../dist/index.js', import.meta.url).href;

if (what === 'bobina') {
  const { compile } = await import(dist);
  const src = readFileSync(new URL('../../fixtures/nfce.txt', import.meta.url), 'utf8');
  compile(src, { printer: { extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } } });
} else if (what === 'esc-pos-encoder@2') {
  const require = createRequire(new URL('../package.json', import.meta.url));
  const Module = require('node:module');
  const stub = new URL('./canvas-stub.cjs', import.meta.url).pathname;
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return request === 'canvas' ? stub : resolve.call(this, request, ...rest);
  };
  const EscPosEncoder = require('esc-pos-encoder');
  const ops = JSON.parse(readFileSync(new URL('../out/nfce-ops.json', import.meta.url), 'utf8'));
  const e = new EscPosEncoder();
  e.initialize().codepage('cp850');
  for (const o of ops) {
    if (o.op === 'line') e.line(o.text);
    else if (o.op === 'align') e.align(o.value);
    else if (o.op === 'condensed') e.size(o.on ? 'small' : 'normal');
    else if (o.op === 'qr') e.qrcode(o.data, 2, 6, 'm');
    else if (o.op === 'cut') e.cut(o.partial ? 'partial' : 'full');
    else if (o.op === 'drawer') e.pulse();
    else if (o.op === 'feed') e.newline().newline().newline();
  }
  e.encode();
} else if (what === 'empty') {
  readFileSync(new URL('../out/nfce-ops.json', import.meta.url), 'utf8');
} else throw new Error(`unknown system ${what}`);
