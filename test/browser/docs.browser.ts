// The API docs page (Swagger UI at /docs) under its Content-Security-Policy, in headless Chromium
// against a real `bobina serve`: it renders every route of the OpenAPI document, and the browser
// reports no violation of the policy (a policy that blocked its scripts would leave a blank page).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stop, type Served } from '../support/serve.js';
import { haveChromium, launch, type Browser } from './chromium.js';

let dir: string;
let served: Served | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!haveChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'bobina-docs-'));
  served = await startServe({ flags: ['--db', join(dir, 'db.sqlite')], timeoutMs: 30_000 });
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  if (served) await stop(served.proc, 'SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!haveChromium)('the docs page at /docs', () => {
  it('renders every operation under its Content-Security-Policy, with no violation reported', async () => {
    const page = await browser!.context.newPage();
    const violations: string[] = [];
    const errors: string[] = [];
    await page.exposeFunction('reportViolation', (v: string) => void violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(`${served!.base}/docs/`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
    const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
    expect(paths).toEqual(expect.arrayContaining(['/IntencaoImpressao/Insert', '/TerminalImpressao/ObterProxima', '/Webhook/Insert']));
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });
});
