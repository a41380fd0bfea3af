// The playground's editing features in headless Chromium against a real `bobina serve`: the toolbar
// inserts each tag at the cursor (by mouse and by keyboard), the text survives a reload and opens
// from a shared link, Download waits for a receipt without errors, the page fits a 390-px phone,
// and a keystroke on a 300-line receipt is compiled off the main thread and redraws one preview
// line. Wall time is never asserted: the keystroke → repaint figures are measured, printed and
// written to reports/browser/ (BOBINA_TEST_OUT to change it) with the 390-px screenshot.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { startServe, stop, type Served } from '../support/serve.js';
import { haveChromium, launch, type Browser } from './chromium.js';

const OUT = process.env.BOBINA_TEST_OUT ?? join(ROOT, 'reports', 'browser');

let dir: string;
let served: Served | undefined;
let browser: Browser | undefined;
const pageErrors: string[] = [];
const violations: string[] = [];

async function openPlayground(hash = '', viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser!.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.exposeFunction('reportViolation', (v: string) => void violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(`${served!.base}/playground/${hash}`);
  await page.waitForSelector('#diagnostics li');
  await page.waitForSelector('#conteudo:not([disabled])');
  return page;
}

const value = (page: Page) => page.inputValue('#conteudo');

/** Puts the text in the editor and the selection at [from, to) (to: the caret when left out). */
async function setText(page: Page, text: string, from: number, to = from): Promise<void> {
  await page.fill('#conteudo', text);
  await page.evaluate(([a, b]) => (document.getElementById('conteudo') as HTMLTextAreaElement).setSelectionRange(a!, b!), [from, to]);
}

/** The diagnostics the page shows once it has compiled the text it holds now. */
async function settledDiagnostics(page: Page): Promise<string[]> {
  await page.waitForSelector('#status[data-settled="true"]');
  return page.$$eval('#diagnostics li[data-code]', (items) => items.map((li) => `${li.className} ${(li as HTMLElement).dataset.code}`));
}

/** An 8×8 checkerboard PNG. */
function checkerPng(): Buffer {
  const png = new PNG({ width: 8, height: 8 });
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) png.data.set((x + y) % 2 ? [0, 0, 0, 255] : [255, 255, 255, 255], (y * 8 + x) * 4);
  return PNG.sync.write(png);
}

beforeAll(async () => {
  if (!haveChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'bobina-playground-editing-'));
  served = await startServe({ flags: ['--db', join(dir, 'db.sqlite')], timeoutMs: 30_000 });
  browser = await launch();
  mkdirSync(OUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  if (served) await stop(served.proc, 'SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!haveChromium)('editing in the playground', () => {
  it('inserts each tag at the cursor from the toolbar, with the names and attributes of the language', async () => {
    const page = await openPlayground();
    const cases: [tool: string, selection: string, inserted: string, choice?: string][] = [
      ['align-left', '', '<textAlignLeft>'],
      ['align-center', '', '<textAlignCenter>'],
      ['align-right', '', '<textAlignRight>'],
      ['bold', 'BC', '<textBoldOn>BC<textBoldOff>'],
      ['underline', 'BC', '<textUnderlineOn>BC<textUnderlineOff>'],
      ['invert', '', '<textInvertOn><textInvertOff>'],
      ['condensed', 'BC', '<textCondensedOn>BC<textCondensedOff>'],
      ['size', 'BC', '<textSize width="3" height="3">BC<textSize>', '3×3'],
      ['barcode', '', '<barcode type="code128" height="80" module="2" text="below">Bobina 128</barcode>', 'code128'],
      ['barcode', '', '<barcode type="ean13" height="80" module="2" text="below">789100031550</barcode>', 'ean13'],
      ['qrcode', '', '<qrcode size="5" ecc="M">https://example.com</qrcode>'],
      ['row', '', '<row><cell width="*">Item</cell><cell width="12" align="right">R$ 0,00</cell></row>'],
      ['rule', '', '<rule/>'],
      ['feed', '', '<paperFeed>'],
      ['cut-full', '', '<paperCutFull>'],
      ['cut-partial', '', '<paperCutPartial>'],
      ['drawer', '', '<cashDrawerOpen>'],
    ];
    for (const [tool, selection, inserted, choice] of cases) {
      // "A" + selection + "D": the tag replaces the selection (or goes at the caret) between A and D.
      await setText(page, `A${selection}D\n`, 1, 1 + selection.length);
      if (choice) await page.selectOption(`#tool-${tool}-choice`, choice);
      await page.click(`#tool-${tool}`);
      expect(await value(page), tool).toBe(`A${inserted}D\n`);
      const diagnostics = await settledDiagnostics(page);
      expect(diagnostics.filter((d) => d.startsWith('error') || d.includes('parse/')), tool).toEqual([]);
    }
    await page.close();
  });

  it('inserts an image from a PNG file as a data: URI that compiles without errors', async () => {
    const page = await openPlayground();
    const png = checkerPng();
    await setText(page, 'logo:\n\nfim', 6);
    await page.setInputFiles('#tool-image-file', { name: 'logo.png', mimeType: 'image/png', buffer: png });
    const expected = `logo:\n<image src="data:image/png;base64,${png.toString('base64')}"/>\nfim`;
    await expect.poll(() => value(page)).toBe(expected);
    expect((await settledDiagnostics(page)).filter((d) => d.startsWith('error'))).toEqual([]);
    await page.close();
  });

  it('is usable from the keyboard: every tool has a name, Tab reaches it, Enter runs it, Ctrl+B wraps the selection in bold', async () => {
    const page = await openPlayground();
    const unnamed = await page.$$eval('#tools button, #tools select, .bar button, .bar select', (els) => els.filter((e) => !(e.getAttribute('aria-label') || e.textContent?.trim())).map((e) => e.outerHTML));
    expect(unnamed).toEqual([]);
    await setText(page, 'AD', 1);
    await page.focus('#tool-cut-partial');
    await page.keyboard.press('Tab'); // onto the drawer button, the next tab stop
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tool-drawer');
    await page.keyboard.press('Enter');
    expect(await value(page)).toBe('A<cashDrawerOpen>D');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('conteudo');
    await setText(page, 'total 9', 0, 5);
    await page.keyboard.press('Control+B');
    expect(await value(page)).toBe('<textBoldOn>total<textBoldOff> 9');
    await page.close();
  });

  it('keeps the text across a reload, and a shared link opens its own text even where another is saved', async () => {
    const page = await openPlayground();
    await page.fill('#conteudo', 'Guardado <paperCutFull>');
    await page.selectOption('#printer', { label: '3 MAKER3DR800 — Daruma DR800' });
    await page.reload();
    await page.waitForSelector('#conteudo:not([disabled])');
    expect(await value(page)).toBe('Guardado <paperCutFull>');
    expect(await page.$eval('#printer option:checked', (o) => o.textContent)).toBe('3 MAKER3DR800 — Daruma DR800');

    const shared = 'Compartilhado: pão, café & <qrcode>https://example.com/ação</qrcode>\n<paperCutPartial>';
    await page.fill('#conteudo', shared);
    await page.selectOption('#printer', { label: '5 MAKER5T20 — Epson TM-T20' });
    await page.click('#share');
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#p=MAKER5T20&z=[\w-]+$/);
    const link = await page.inputValue('#share-link');
    expect(link).toBe(await page.evaluate(() => location.href));
    // This browser now saves another text; the link still opens the shared one, on its template.
    await page.fill('#conteudo', 'outro texto');
    expect(await page.evaluate(() => location.hash)).toBe(''); // the first edit drops the hash
    await page.reload();
    await page.waitForSelector('#conteudo:not([disabled])');
    expect(await value(page)).toBe('outro texto');
    const opened = await openPlayground(link.slice(link.indexOf('#')));
    expect(await value(opened)).toBe(shared);
    expect(await opened.$eval('#printer option:checked', (o) => o.textContent)).toBe('5 MAKER5T20 — Epson TM-T20');
    // An uncompressed link (#t=, base64url of UTF-8) opens too, as a browser without CompressionStream writes it.
    const plain = await openPlayground(`#p=MAKER3DR800&t=${Buffer.from('Olá <paperCutFull>').toString('base64url')}`);
    expect(await value(plain)).toBe('Olá <paperCutFull>');
    // A link that does not decode leaves the saved text, and says the link could not be read.
    expect(await plain.textContent('#notice')).toBe('');
    const broken = await openPlayground('#p=MAKER5T20&z=AAAA-garbage');
    expect(await value(broken)).toBe('outro texto');
    expect(await broken.textContent('#notice')).toContain('This link could not be read');
    for (const p of [page, opened, plain, broken]) await p.close();
  });

  it('has an icon of its own origin (no request for /favicon.ico), under the page\'s policy', async () => {
    const page = await openPlayground();
    // Asked for from here: the page's policy may allow it no fetch (the playground's connect-src 'none').
    const href = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? 'no icon link');
    expect(href).toBe(`${served!.base}/playground/favicon.svg`);
    const res = await fetch(href);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    await page.close();
  });

  it('disables Download while the receipt has errors', async () => {
    const page = await openPlayground();
    await page.fill('#conteudo', '<qrcode>aberto\n<paperCutFull>');
    await expect.poll(() => page.isDisabled('#download')).toBe(true);
    expect(await page.getAttribute('#download', 'title')).toContain('errors');
    await page.fill('#conteudo', '<qrcode>fechado</qrcode>\n<paperCutFull>');
    await expect.poll(() => page.isDisabled('#download')).toBe(false);
    // A warning (partial cut on the DR800) does not stop it.
    await page.selectOption('#printer', { label: '3 MAKER3DR800 — Daruma DR800' });
    await page.fill('#conteudo', 'x\n<paperCutPartial>');
    await expect.poll(() => page.$$eval('#diagnostics li[data-code]', (l) => l.map((li) => (li as HTMLElement).dataset.code))).toContain('lower/partial-cut-fallback');
    expect(await page.isDisabled('#download')).toBe(false);
    await page.close();
  });

  it('fits a 390-px phone: no sideways scroll of the page, the toolbar wraps inside the width', async () => {
    const page = await openPlayground('', { width: 390, height: 844 });
    const layout = await page.evaluate(() => {
      const tools = [...document.querySelectorAll('#tools button, #tools select, .bar > *')].filter((e) => (e as HTMLElement).offsetParent !== null);
      return {
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
        rows: new Set(tools.map((e) => Math.round(e.getBoundingClientRect().top))).size,
        beyond: tools.filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => e.id || e.textContent),
        preview: document.querySelector('#preview svg')!.getBoundingClientRect().right,
      };
    });
    expect(layout.clientWidth).toBe(390);
    expect(layout.scrollWidth).toBeLessThanOrEqual(390);
    expect(layout.beyond).toEqual([]);
    expect(layout.rows).toBeGreaterThan(2);
    expect(layout.preview).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(OUT, 'playground-390.png'), fullPage: true });
    console.log(`playground at 390 px: ${join(OUT, 'playground-390.png')}`);
    await page.close();
  });

  it('compiles off the main thread and redraws only the changed line on a 300-line receipt; measures keystroke → repaint', async () => {
    const page = await openPlayground();
    const lines = ['<textAlignCenter><textBoldOn>MERCADO BOA VISTA<textBoldOff>', 'CNPJ 12.345.678/0001-90', '<textAlignLeft>'];
    for (let i = 1; lines.length < 296; i++) lines.push(`${String(i).padStart(3, '0')} Produto número ${i} un ${(i % 7) + 1} x ${(i * 1.37).toFixed(2).replace('.', ',')}`);
    lines.push('<textAlignCenter><qrcode>https://nfce.example/q?p=4223|2|1</qrcode>', '<barcode type="code128">35200714200166000187650010000000071234567890</barcode>', 'Obrigado!', '<paperCutPartial>');
    expect(lines).toHaveLength(300);
    await page.fill('#conteudo', lines.join('\n'));
    await page.waitForFunction(() => Number(document.getElementById('preview')!.dataset.marks) >= 296);
    const marks = Number(await page.getAttribute('#preview', 'data-marks'));
    const inDocument = () => page.$$eval('#preview g.marks > g', (g) => g.length);
    // Only the marks in sight of the preview box are in the document: its size does not grow with the receipt.
    const shown = await inDocument();
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(marks / 2);
    // Scrolled to the end, the end is drawn (the QR code and the barcode: paths of bars).
    expect(await page.$$eval('#preview g.marks path', (p) => p.length)).toBe(0);
    await page.$eval('#preview', (box) => (box.scrollTop = box.scrollHeight));
    await page.waitForFunction(() => document.querySelectorAll('#preview g.marks path').length >= 2);
    await page.$eval('#preview', (box) => (box.scrollTop = 0));
    await page.waitForFunction(() => document.querySelectorAll('#preview g.marks path').length === 0);

    // The compiler runs in the worker: its timeline has the compiles, the page's none, and the
    // page's own script never loads the library (the worker imports it).
    const workers = page.workers();
    expect(workers.map((w) => new URL(w.url()).pathname)).toEqual(['/playground/worker.js']);
    expect(await workers[0]!.evaluate(() => performance.getEntriesByName('compile').length)).toBeGreaterThan(0);
    expect(await page.evaluate(() => performance.getEntriesByName('compile').length)).toBe(0);
    const script = await (await fetch(`${served!.base}/playground/playground.js`)).text();
    expect(script).not.toMatch(/lib\/|import\(/);

    // Counts the elements put into and taken out of the preview's marks and the editor's backdrop lines.
    await page.evaluate(() => {
      const w = window as unknown as { counts: Record<string, number> };
      w.counts = { added: 0, removed: 0, linesAdded: 0, linesRemoved: 0 };
      const count = (added: string, removed: string) => (records: MutationRecord[]) => {
        for (const r of records) {
          w.counts[added]! += [...r.addedNodes].filter((n) => n.nodeType === 1).length;
          w.counts[removed]! += [...r.removedNodes].filter((n) => n.nodeType === 1).length;
        }
      };
      new MutationObserver(count('added', 'removed')).observe(document.querySelector('#preview g.marks')!, { childList: true });
      new MutationObserver(count('linesAdded', 'linesRemoved')).observe(document.querySelector('#backdrop')!, { childList: true });
    });
    const repaints = () => page.evaluate(() => performance.getEntriesByName('keystroke→repaint').length);
    const mutations = () =>
      page.evaluate(() => {
        const w = window as unknown as { counts: Record<string, number> };
        const out = { ...w.counts };
        for (const k of Object.keys(w.counts)) w.counts[k] = 0;
        return out;
      });
    /** One key at the end of line `line` (1-based), then the repaint it causes. */
    const keystroke = async (line: number, key: string) => {
      const before = await repaints();
      await page.evaluate((n) => {
        const t = document.getElementById('conteudo') as HTMLTextAreaElement;
        let at = -1;
        for (let i = 0; i < n; i++) at = t.value.indexOf('\n', at + 1);
        t.focus();
        t.setSelectionRange(at, at);
      }, line);
      await mutations();
      await page.keyboard.press(key);
      await page.waitForFunction((n) => performance.getEntriesByName('keystroke→repaint').length > n, before);
      return mutations();
    };

    // A letter in line 10 (in sight in the preview) replaces that line's one mark, and that line's
    // one <div> behind the editor's text; no other is touched.
    expect(await keystroke(10, 'x')).toEqual({ added: 1, removed: 1, linesAdded: 1, linesRemoved: 1 });
    // A new line moves the marks below it by their transform (the page frame, a few elements, grows):
    // at most the edited mark and one coming into sight at the bottom are drawn.
    const enter = await keystroke(10, 'Enter');
    expect(enter.added).toBeLessThanOrEqual(2);
    expect(enter.linesAdded).toBeLessThanOrEqual(2);
    expect(Number(await page.getAttribute('#preview', 'data-marks'))).toBe(marks);

    // The figures: 30 single keystrokes on lines in sight in the preview (each one redraws a mark:
    // the worst case), each waited for.
    await page.evaluate(() => performance.clearMeasures());
    for (let k = 0; k < 30; k++) await keystroke(5 + k, k % 10 === 9 ? 'Enter' : 'y');
    const figures = await page.evaluate(() => ({
      repaint: performance.getEntriesByName('keystroke→repaint').map((e) => e.duration),
      dom: performance.getEntriesByName('repaint:dom').map((e) => e.duration),
    }));
    const compile = await workers[0]!.evaluate(() => performance.getEntriesByName('compile').slice(-30).map((e) => e.duration));
    expect(figures.repaint).toHaveLength(30);
    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const at = (q: number) => Number(s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(1));
      return { n: s.length, min: at(0), median: at(0.5), p90: at(0.9), max: at(1) };
    };
    const report = {
      what: 'playground keystroke → repaint (input event → the frame after the preview, diagnostics and highlight are updated), 300-line receipt, Epson TM-T20, headless Chromium',
      command: 'npx vitest run --config vitest.browser.config.ts test/browser/playground-editing.browser.ts',
      marks,
      marksInDocument: shown,
      keystrokeToRepaintMs: stats(figures.repaint),
      workerCompileMs: stats(compile),
      mainThreadDomMs: stats(figures.dom),
      loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
      at: new Date().toISOString(),
    };
    writeFileSync(join(OUT, 'playground-keystrokes.json'), JSON.stringify(report, null, 2) + '\n');
    console.log(`keystroke → repaint, ms: ${JSON.stringify(report.keystrokeToRepaintMs)}; compile + layout in the worker, ms: ${JSON.stringify(report.workerCompileMs)}; main-thread DOM update, ms: ${JSON.stringify(report.mainThreadDomMs)}; load average ${report.loadAverage1m} (${join(OUT, 'playground-keystrokes.json')})`);
    await page.close();
  });

  it('ran all of it under the page policy, without a script error', () => {
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
