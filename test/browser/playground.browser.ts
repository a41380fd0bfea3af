// The playground end to end, as a person uses it: `bobina serve` (the built CLI, a real process on
// 127.0.0.1) serves /playground to headless Chromium; a receipt with an unclosed <qrcode> shows
// the error at its line, highlighted in the source; fixed, the QR code appears in the preview;
// on the DR800 the partial cut becomes a warning; the .bin downloaded is the bytes Node compiles.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { ROOT } from '../support/cli.js';
import { haveChromium, launch, type Browser } from './chromium.js';

let dir: string;
let server: ChildProcess | undefined;
let url: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

/** `bobina serve` on a free port; resolves with its URL once it says it is listening. */
function serve(): Promise<string> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'serve', '--host', '127.0.0.1', '--port', '0', '--db', join(dir, 'db.sqlite')], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server = child;
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`bobina serve did not start in 30 s: ${err}`)), 30_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`bobina serve exited with ${code}: ${err}`)));
  });
}

beforeAll(async () => {
  if (!haveChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'bobina-playground-'));
  url = await serve();
  browser = await launch();
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${url}/playground`);
  await page.waitForSelector('#diagnostics li');
});

afterAll(async () => {
  await browser?.close();
  if (server?.pid && server.exitCode === null) process.kill(server.pid, 'SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const RECEIPT = (qr: string) => `<textAlignCenter>PADARIA SÃO JOÃO\nTotal R$ 12,50\n<qrcode>https://nfce.example/q?p=4223|2|1${qr}\nObrigado!\n<paperCutPartial>`;

/** The diagnostics the page shows: code, line and column of each. */
const shown = (p: Page) => p.$$eval('#diagnostics li[data-code]', (items) => items.map((li) => `${(li as HTMLElement).dataset.code}@${(li as HTMLElement).dataset.line}:${(li as HTMLElement).dataset.column}`));

/** Horizontal runs of black dots drawn in the preview (a QR code is hundreds of them). */
const dotRuns = (p: Page) => p.$$eval('#preview svg path', (paths) => paths.reduce((n, path) => n + (path.getAttribute('d')?.split('M').length ?? 1) - 1, 0));

describe.skipIf(!haveChromium)('the playground at /playground', () => {
  it('shows an unclosed <qrcode> as an error at its line, highlighted in the source', async () => {
    await page.selectOption('#printer', { label: '5 MAKER5T20 — Epson TM-T20' });
    await page.fill('#conteudo', RECEIPT(''));
    await expect.poll(() => shown(page)).toContain('parse/unclosed-qrcode@3:1');
    expect(await page.textContent('#diagnostics li.error')).toContain('<qrcode> is never closed');
    expect(await page.textContent('#backdrop mark.error')).toBe('<qrcode>');
    expect(await page.textContent('#status')).toContain('errors');
  });

  it('draws the QR code in the preview once the tag is closed', async () => {
    await page.fill('#conteudo', RECEIPT('</qrcode>'));
    await expect.poll(() => shown(page)).not.toContain('parse/unclosed-qrcode@3:1');
    expect(await shown(page)).toEqual(['lower/qr-raster-fallback@3:1']);
    await expect.poll(() => dotRuns(page), { timeout: 10_000 }).toBeGreaterThan(200);
    // The listing waits for a pause in typing (200 ms) before it is asked for: poll, do not read once.
    await expect.poll(() => page.textContent('#listing'), { timeout: 10_000 }).toContain('print raster bit image');
  });

  it('warns about the partial cut on the DR800, and downloads the bytes Node compiles', async () => {
    await page.selectOption('#printer', { label: '3 MAKER3DR800 — Daruma DR800' });
    await expect.poll(() => shown(page)).toContain('lower/partial-cut-fallback@5:1');
    expect(await page.textContent('#diagnostics li.warning')).toContain('Daruma DR800 has no partial cut');
    expect(await page.textContent('#backdrop mark.warning')).toBe('<paperCutPartial>');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    expect(download.suggestedFilename()).toBe('receipt-MAKER3DR800.bin');
    const bytes = readFileSync((await download.path())!);
    expect(bytes.equals(Buffer.from(compile(RECEIPT('</qrcode>'), { printer: 'MAKER3DR800' }).bytes))).toBe(true);
  });

  it('highlights each diagnostic at its own place, also inside another one’s span', async () => {
    await page.selectOption('#printer', { label: '5 MAKER5T20 — Epson TM-T20' });
    // The raster-fallback info spans the whole tag; the two attribute errors (at the values) are inside it.
    await page.fill('#conteudo', '<qrcode size="99" ecc="Z">https://example.com</qrcode>\nsegunda linha');
    await expect.poll(() => shown(page)).toEqual(['lower/qr-raster-fallback@1:1', 'parse/attribute-invalid@1:15', 'parse/attribute-invalid@1:24']);
    await expect.poll(() => page.$$eval('#backdrop mark.error', (m) => m.map((e) => e.textContent))).toEqual(['99', 'Z']);
    expect(await page.$$eval('#backdrop mark.info', (m) => m.map((e) => e.textContent).join(''))).toBe('<qrcode size="" ecc="">https://example.com</qrcode>');
    expect(await page.$$eval('#backdrop > div', (lines) => lines[1]!.innerHTML)).toBe('segunda linha');
  });

  it('ran all of it without a script error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
