// What importing the built package loads: compiling must not load the previewer's PNG renderer,
// TypeBox or iconv-lite (CP850 comes from a generated table), and nothing of qrcode from
// node_modules (its core is bundled); each optional part loads on first use, from the ES module
// build and the CommonJS build alike.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

const HEAVY = /node_modules\/(@resvg\/|pngjs\/|typebox\/|iconv-lite\/|qrcode\/lib\/(server|renderer)\b)/;
const QRCODE = /node_modules\/qrcode\//;

/**
 * Runs `first` then `then` in a fresh node, with `b` = the built package, and returns the CJS
 * modules matching `watch` that were loaded after each.
 */
function loaded(kind: 'esm' | 'cjs', watch: RegExp, first: string, then: string): { first: string[]; then: string[] } {
  const load = kind === 'esm' ? `const b = await import(${JSON.stringify(join(ROOT, 'dist', 'index.js'))});` : `const b = require(${JSON.stringify(join(ROOT, 'dist', 'cjs', 'index.cjs'))});`;
  const seen = `Object.keys(require('node:module')._cache).filter((f) => ${watch}.test(f.replaceAll('\\\\', '/')))`;
  const script = `${kind === 'esm' ? "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" : ''}
    ${load} ${first}; const first = ${seen}; ${then}; console.log(JSON.stringify({ first, then: ${seen} }));`;
  const r = spawnSync(process.execPath, [`--input-type=${kind === 'esm' ? 'module' : 'commonjs'}`, '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { first: string[]; then: string[] };
}

const receipt = JSON.stringify(readFileSync(join(ROOT, 'fixtures', 'nfce.txt'), 'utf8'));
const native = `b.compile(${receipt}, { printer: { extends: 'MAKER5T20', qr: { command: 'epson-gs-k' } } })`;
const raster = `const bytes = b.compile(${receipt}, { printer: 'MAKER5T20' }).bytes`;

describe.each(['esm', 'cjs'] as const)('the built package (%s)', (kind) => {
  it('compiles without the PNG renderer, qrcode renderers, TypeBox or iconv-lite, and loads resvg for the first PNG', () => {
    const r = loaded(kind, HEAVY, `${native}; ${raster}`, 'if (!(b.renderPng(bytes, { printer: 5 }).length > 1000)) throw new Error("no png")');
    expect(r.first).toEqual([]);
    expect(r.then.some((f) => f.includes('@resvg/resvg-js'))).toBe(true);
  });

  it('disassembles text through the built-in code pages, without iconv-lite', () => {
    const r = loaded(kind, /node_modules\/iconv-lite\//, `${raster}`, 'if (!b.disassemble(bytes, { printer: 5 }).some((i) => i.kind === "text")) throw new Error("no text")');
    expect(r.first).toEqual([]);
    expect(r.then).toEqual([]);
  });

  it('rasterises a QR code with the bundled qrcode core, loading nothing of qrcode from node_modules', () => {
    const r = loaded(kind, QRCODE, native, `${raster}; if (!(bytes.length > 10000)) throw new Error("no raster")`);
    expect(r.first).toEqual([]);
    expect(r.then).toEqual([]);
  });

  it('loads TypeBox only to explain a bad profile', () => {
    const bad = `let message = ''; try { b.loadProfile({ extends: 5, commands: { drawer: '1B 70 0' } }) } catch (e) { message = e.message }`;
    const r = loaded(kind, HEAVY, `${native}; ${raster}`, `${bad}; if (!message.includes('/commands/drawer must match pattern')) throw new Error(message)`);
    expect(r.first).toEqual([]);
  });
});

it('keeps static imports of TypeBox, resvg, pngjs, qrcode, iconv-lite and node: modules out of the library', () => {
  const chunks = [...readFileSync(join(ROOT, 'dist', 'index.js'), 'utf8').matchAll(/from"\.\/([^"]+)"/g)].map((m) => m[1]!);
  expect(chunks.length).toBeGreaterThan(0);
  for (const file of ['index.js', ...chunks]) {
    expect(readFileSync(join(ROOT, 'dist', file), 'utf8')).not.toMatch(/(from ?|require\(|import\()"(node:[a-z_]+|typebox|@resvg\/resvg-js|qrcode|pngjs|iconv-lite)(\/[^"]*)?"/);
  }
});
