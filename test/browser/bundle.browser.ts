// The public entry bundled for the browser (esbuild, platform browser, one file) in headless
// Chromium, in a page and in a Web Worker: the same bytes as Node for every fixture × template.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { haveChromium, launch, type Browser } from './chromium.js';

type Bobina = typeof import('../../src/index.js');

const fixtures = readdirSync(join(ROOT, 'fixtures')).filter((f) => f.endsWith('.txt'));
const cases: [string, string, number][] = fixtures.flatMap((f) => [0, 1, 2, 3, 4, 5, 6].map((p) => [f, readFileSync(join(ROOT, 'fixtures', f), 'utf8'), p] as [string, string, number]));

/** What the page and the worker run on each case, beside the bundle (Node runs the same). */
const HEX_OF = 'function hexOf(src, printer) { return Array.from(bobina.compile(src, { printer }).bytes, (x) => x.toString(16).padStart(2, "0")).join(""); }';
const hexOf = (b: Bobina, src: string, printer: number) => Array.from(b.compile(src, { printer }).bytes, (x) => x.toString(16).padStart(2, '0')).join('');

let browser: Browser;
let bundle: string;
let expected: string[];

beforeAll(async () => {
  if (!haveChromium) return;
  const node = (await import(join(ROOT, 'dist', 'index.js'))) as Bobina;
  expected = cases.map(([, src, printer]) => hexOf(node, src, printer));
  const built = await esbuild.build({ entryPoints: [join(ROOT, 'dist', 'index.js')], bundle: true, platform: 'browser', format: 'iife', globalName: 'bobina', write: false, logLevel: 'silent' });
  bundle = built.outputFiles[0]!.text;
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!haveChromium)('the browser bundle in headless Chromium', () => {
  it('gives the same bytes as Node in a page, for every fixture × template', async () => {
    const page = await browser.context.newPage();
    await page.setContent('<!doctype html><title>bobina</title>');
    await page.addScriptTag({ content: `${bundle}\n${HEX_OF}` });
    const got = await page.evaluate((all) => all.map(([, src, printer]) => (globalThis as unknown as { hexOf: (s: string, p: number) => string }).hexOf(src, printer)), cases);
    expect(got).toEqual(expected);
    await page.close();
  });

  it('gives the same bytes as Node in a Web Worker, for every fixture × template', async () => {
    const page = await browser.context.newPage();
    await page.setContent('<!doctype html><title>bobina worker</title>');
    const worker = `${bundle}\n${HEX_OF}\nonmessage = ({ data }) => postMessage(data.map(([, src, printer]) => hexOf(src, printer)));`;
    const got = await page.evaluate(
      ([code, all]) =>
        new Promise<string[]>((resolve, reject) => {
          const w = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
          w.onmessage = (e) => resolve(e.data as string[]);
          w.onerror = (e) => reject(new Error(e.message));
          w.postMessage(all);
        }),
      [worker, cases] as const,
    );
    expect(got).toEqual(expected);
    await page.close();
  });
});
