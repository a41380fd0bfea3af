// The public entry, bundled for the browser as a web app would bundle it (esbuild, platform
// browser, one file), runs in a bare V8 context that has only web-standard globals — no process,
// Buffer or require — and gives exactly what Node gives: the same bytes, listing, diagnostics,
// disassembly and SVG preview for every fixture × template (raster QR codes included).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import * as esbuild from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

type Bobina = typeof import('../src/index.js');

const FIXTURES = join(ROOT, 'fixtures');
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.txt'));

/** Everything the core promises, as plain strings (so nothing crosses realms but strings). */
function outputs(b: Bobina, source: string, printer: number) {
  const { bytes, diagnostics } = b.compile(source, { printer });
  return {
    hex: Array.from(bytes, (x) => x.toString(16).padStart(2, '0')).join(''),
    diagnostics: JSON.stringify(diagnostics),
    listing: b.listing(source, { printer }).listing,
    disassembly: b.formatDisassembly(bytes, b.disassemble(bytes, { printer })),
    svg: b.renderSvg(bytes, { printer }),
  };
}

let node: Bobina;
let browser: Bobina;
let bundleErrors: esbuild.Message[];

beforeAll(async () => {
  node = (await import(join(ROOT, 'dist', 'index.js'))) as Bobina;
  const built = await esbuild.build({
    entryPoints: [join(ROOT, 'dist', 'index.js')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'bobina',
    write: false,
    logLevel: 'silent',
  });
  bundleErrors = built.errors;
  // Only what a browser, a worker or any web-standard runtime has beyond the language itself.
  const context = vm.createContext({ TextEncoder, TextDecoder, URL, console });
  vm.runInContext(built.outputFiles[0]!.text, context, { filename: 'bobina.browser.js' });
  browser = vm.runInContext('bobina', context) as Bobina;
  expect(vm.runInContext('[typeof process, typeof Buffer, typeof require, typeof global].join()', context)).toBe('undefined,undefined,undefined,undefined');
}, 60_000);

describe('the public entry bundled for platform=browser, in a bare V8 context', () => {
  it('bundles into one file without errors', () => {
    expect(bundleErrors).toEqual([]);
  });

  describe.each(fixtures)('fixture %s', (fixture) => {
    const source = readFileSync(join(FIXTURES, fixture), 'utf8');
    it.each([0, 1, 2, 3, 4, 5, 6])('gives what Node gives for template %i', (printer) => {
      expect(outputs(browser, source, printer)).toEqual(outputs(node, source, printer));
    });
  });

  it('says what it cannot do there: a PNG needs Node', () => {
    const bytes = browser.compile('x', { printer: 5 }).bytes;
    expect(() => browser.renderPng(bytes, { printer: 5 })).toThrow(/needs Node, with the package @resvg\/resvg-js/);
  });
});
