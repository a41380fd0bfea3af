// Launching Debian's Chromium for the browser tests, as the house rules say: headless, no sandbox,
// no background traffic, a fresh profile directory, removed afterwards. Without Chromium the
// tests skip with one visible line, except under BOBINA_CI=1 (.ci/run), where that is a failure.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

if (!haveChromium) {
  const why = `no Chromium at ${CHROMIUM} (install it: apt-get install -y chromium)`;
  if (process.env.BOBINA_CI === '1') throw new Error(`browser tests cannot run: ${why}; BOBINA_CI=1 makes this a failure`);
  console.warn(`skipping the browser tests: ${why}`);
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** `timezoneId`: the zone the pages' clocks are in (a test of times shown across zones), else the machine's. */
export async function launch(options: { timezoneId?: string } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'bobina-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...options,
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: 60_000,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
