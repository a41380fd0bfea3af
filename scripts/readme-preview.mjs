// Generates the README picture: the NFC-e fixture as the Epson TM-T20 would print it, rendered
// from the compiled bytes through the disassembler. Run after a build: `npx tsup && node scripts/readme-preview.mjs`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { compile, renderPng } from '../dist/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const printer = process.argv[2] ?? 'MAKER5T20';
const out = join(root, 'docs', process.argv[3] ?? 'nfce-t20.png');

const { bytes } = compile(readFileSync(join(root, 'fixtures', 'nfce.txt'), 'utf8'), { printer });
mkdirSync(dirname(out), { recursive: true });
// Re-encoded as 8-bit grey (the picture has no colour worth keeping): a third of the RGBA size.
const image = PNG.sync.read(Buffer.from(renderPng(bytes, { printer })));
writeFileSync(out, PNG.sync.write(image, { colorType: 0, inputColorType: 6, deflateLevel: 9 }));
console.log(`wrote ${out} (${printer})`);
