// The operator console end to end, as an operator uses it: `bobina serve` (SQLite, a real process
// on 127.0.0.1), a virtual printer and a `bobina agent` for terminal PDV-1; headless Chromium logs
// in with the partner's e-mail and password (and renews its token when an answer says 401), sees
// the terminal online, cancels a held job, reprints a completed one, opens a preview, starts a held
// job, pages through the job list, replays a webhook message, pauses while the tab is hidden, sees
// the printer's paper-out reason, and sees the terminal go offline once its agent is SIGKILLed. No
// policy violation, no page error, no token in a URL or in storage. Screenshots go to
// reports/console/ (git-ignored).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualPrinter, type VirtualPrinter } from '../../src/delivery/index.js';
import { renderSvg } from '../../src/index.js';
import { CLI, ROOT } from '../support/cli.js';
import { startServe, stop, type Served } from '../support/serve.js';
import { CHILD_ENV } from '../support/store-target.js';
import { haveChromium, launch, type Browser } from './chromium.js';

const EMAIL = 'operador@example.com';
const PASSWORD = 'pw-console-1';
const TERMINAL = 'PDV-1';
const SHOTS = join(ROOT, 'reports', 'console');
/** The heartbeat the agent sends while idle, in seconds, and the service's grace after two missed: short, so "offline" comes within seconds. */
const HEARTBEAT = 1;
const GRACE = 1;
/**
 * Webhooks to a receiver on 127.0.0.1 need the operator's switches (README: Webhooks). The service
 * runs in one time zone and the browser in another (UTC+05:30 and UTC−03:00), as an operator far from
 * the server is: every time must read the same way, in the service's zone.
 */
const ENV = { BOBINA_WEBHOOKS_ALLOW_PRIVATE: '1', BOBINA_WEBHOOKS_HTTP_HOSTS: '127.0.0.1', TZ: 'Asia/Kolkata' };
const BROWSER_ZONE = 'America/Sao_Paulo';
/** More terminals than PDV-1 (never heard from: offline), for the pages of the terminal list. */
const OTHERS = ['PDV-2', 'PDV-3', 'PDV-4'];

let dir: string;
let served: Served | undefined;
let vp: VirtualPrinter | undefined;
let agent: ChildProcess | undefined;
let receiver: Server | undefined;
let browser: Browser | undefined;
let page: Page;
let apiKey: string;
let accessToken = '';
/** Every access and refresh token the service handed the page. */
const tokens: string[] = [];
const grants: string[] = [];
const deliveries: string[] = [];
const violations: string[] = [];
const pageErrors: string[] = [];
const requested: string[] = [];
const notFound: string[] = [];
/** The terminal list's requests, whatever their query (limite, cursor, situacao). */
const TERMINAL_LIST = /\/Terminal\/GetAll(\?|$)/;

function cli(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args, '--db', join(dir, 'db.sqlite')], { encoding: 'utf8', env: { ...process.env, ...CHILD_ENV, ...ENV }, timeout: 20_000, killSignal: 'SIGKILL' });
  if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.status} ${r.stderr}`);
  return r.stdout;
}

async function api<T>(method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${served!.base}${path}`, {
    method, headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type Job = { id: number; estado: string };
const RECEIPT = [
  '<textAlignCenter><textSize width="2" height="2">PADARIA SÃO JOÃO<textSize>',
  'Av. Paulista, 1000 - São Paulo/SP',
  '<textAlignLeft>------------------------------------------------',
  '1 Café expresso                             5,00',
  '1 Pão na chapa                              7,50',
  '------------------------------------------------',
  '<textAlignRight><textBoldOn>Total R$ 12,50<textBoldOff>',
  '<textAlignCenter><qrcode>https://nfce.example/q?p=4223|2|1</qrcode>',
  'Obrigado!',
  '<paperCutPartial>',
].join('\n');
const insert = async (extra: object = {}) =>
  (await api<{ intencaoImpressao: Job }>('POST', '/IntencaoImpressao/Insert', { conteudo: RECEIPT, terminalId: TERMINAL, ...extra })).intencaoImpressao;

/** Polls GetById until the job is in `estado`; fails after `timeoutMs` with the last state. */
async function until(id: number, estado: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < end) {
    last = (await api<{ intencaoImpressao: Job }>('GET', `/IntencaoImpressao/GetById?intencaoImpressaoId=${id}`)).intencaoImpressao.estado;
    if (last === estado) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} never became ${estado}; last: ${last}`);
}

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const row = (terminal: string) => page.locator(`tr[data-terminal="${terminal}"]`);
/** Opens the terminals view afresh (it asks at once, not at the next poll). */
async function reopenTerminals(): Promise<void> {
  await page.getByRole('link', { name: 'Jobs' }).click();
  await page.locator('#jobs-title').waitFor();
  await page.getByRole('link', { name: 'Terminals' }).click();
}

beforeAll(async () => {
  if (!haveChromium) return;
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'bobina-console-'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      deliveries.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', r));
  cli('users', 'add', '--email', EMAIL, '--password', PASSWORD, '--name', 'Padaria São João');
  apiKey = cli('keys', 'create', '--email', EMAIL).trim();
  const terminalKey = cli('terminals', 'add', '--email', EMAIL, '--terminal', TERMINAL, '--printer', 'MAKER5T20', '--print-key').trim().split('\n').at(-1)!;
  for (const other of OTHERS) cli('terminals', 'add', '--email', EMAIL, '--terminal', other, '--printer', 'MAKER5T20');
  served = await startServe({ flags: ['--db', join(dir, 'db.sqlite'), '--state-dir', join(dir, 'direct'), '--heartbeat', `${HEARTBEAT}s`, '--offline-grace', `${GRACE}s`], env: ENV, timeoutMs: 30_000 });
  await api('POST', '/Webhook/Insert', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['completed'] });
  vp = await startVirtualPrinter({ printer: 'MAKER5T20' });
  agent = spawn(process.execPath, [CLI, 'agent', '--url', served.base, '--terminal', TERMINAL, '--device', vp.address, '--state-dir', join(dir, 'agent'),
    '--wait', '5', '--retry-ms', '100', '--heartbeat', String(HEARTBEAT)], { env: { ...process.env, BOBINA_TERMINAL_KEY: terminalKey }, stdio: ['ignore', 'ignore', 'pipe'] });
  agent.stderr!.resume();
  browser = await launch({ timezoneId: BROWSER_ZONE });
  page = await browser.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.exposeFunction('reportViolation', (v: string) => void violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('response', (r) => void (r.status() === 404 && notFound.push(r.url())));
  page.on('request', (r) => {
    requested.push(r.url());
    if (r.url().endsWith('/auth/reconciliation/token')) grants.push((JSON.parse(r.postData() ?? '{}') as { grant_type: string }).grant_type);
  });
  page.on('response', async (r) => {
    if (!r.url().endsWith('/auth/reconciliation/token') || !r.ok()) return;
    const answer = (await r.json()) as { access_token: string; refresh_token: string };
    accessToken = answer.access_token;
    tokens.push(answer.access_token, answer.refresh_token);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (agent?.pid && agent.exitCode === null && agent.signalCode === null) process.kill(agent.pid, 'SIGKILL');
  if (served) await stop(served.proc, 'SIGKILL');
  await vp?.close();
  await new Promise((r) => (receiver ? (receiver.closeAllConnections(), receiver.close(r)) : r(undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!haveChromium)('the operator console at /console', () => {
  it('logs in with the e-mail and password under a policy without inline code, and sees the terminal online', async () => {
    const res = await page.goto(`${served!.base}/console`);
    const csp = res!.headers()['content-security-policy']!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('terminals-title');
    await row(TERMINAL).and(page.locator('[data-online="true"]')).waitFor();
    // Online comes with the agent's first poll, which cannot carry the printer's state yet (the agent
    // learns the printer's dialect from that answer); the state follows with its next heartbeat and
    // the page's next refresh, so wait for it rather than read it once.
    await expect.poll(() => row(TERMINAL).locator('[data-field="printer"]').textContent(), { timeout: 15_000 }).toBe('ready');
    await shot('terminals-online');
  });

  it('refuses to parse any string as markup (Trusted Types with no policy)', async () => {
    const other = await browser!.context.newPage();
    await other.goto(`${served!.base}/console/`);
    const tried = await other.evaluate(() => {
      try {
        document.createElement('div').innerHTML = '<img src=x onerror=alert(1)>';
        return 'assigned';
      } catch (err) {
        return (err as Error).name;
      }
    });
    await other.close();
    expect(tried).toBe('TypeError');
  });

  it('renews the token with the refresh token when an answer says 401, and stays logged in', async () => {
    const before = accessToken;
    await page.route(TERMINAL_LIST, (route) => route.fulfill({ status: 401, contentType: 'application/json', body: '{"message":"expired","code":"invalid-access-token"}' }), { times: 1 });
    await reopenTerminals();
    await expect.poll(() => accessToken, { timeout: 20_000 }).not.toBe(before);
    expect(grants).toEqual(['password', 'refresh_token']);
    // The request is sent again with the new token: the terminal is still shown, the login is not.
    await row(TERMINAL).and(page.locator('[data-online="true"]')).waitFor();
    expect(await page.locator('#login').isHidden()).toBe(true);
  });

  it('says so in place when the service has no endpoint for a view', async () => {
    await page.route(TERMINAL_LIST, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"message":"no such route","code":"route-not-found"}' }), { times: 1 });
    await reopenTerminals();
    await page.locator('[data-not-available]', { hasText: 'The terminal list is not available' }).waitFor();
    await reopenTerminals();
    await page.locator('[data-not-available]').waitFor({ state: 'hidden' });
    await row(TERMINAL).waitFor();
  });

  it('keeps the tokens in memory only: in no URL, no storage, no cookie', async () => {
    expect(tokens.length).toBe(4);
    for (const token of tokens) expect(requested.filter((u) => u.includes(token))).toEqual([]);
    const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]));
    expect(stored).toBe('[{},{},""]');
  });

  it('says "Wrong e-mail or password" for a wrong password, not the API\'s wording', async () => {
    const other = await browser!.context.newPage();
    await other.goto(`${served!.base}/console/`);
    await other.getByLabel('E-mail').fill(EMAIL);
    await other.getByLabel('Password').fill('not-the-password');
    await other.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => other.textContent('#login-error')).toBe('Wrong e-mail or password.');
    await other.close();
  });

  it('has an icon of its own origin, so no browser asks for /favicon.ico', async () => {
    // Asked for from here: the page's policy may allow it no fetch (the playground's connect-src 'none').
    const href = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? 'no icon link');
    expect(href).toBe(`${served!.base}/console/favicon.svg`);
    const res = await fetch(href);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(notFound.filter((u) => u.includes('favicon'))).toEqual([]);
  });

  it('lists jobs with the API filters, and cancels a held job from its page', async () => {
    const held = await insert({ aguardarClienteIniciarImpressao: true, referencia: 'pedido-held' });
    await page.getByRole('link', { name: 'Jobs' }).click();
    await page.locator(`tr[data-job="${held.id}"]`).waitFor();
    await page.getByLabel('State').selectOption('held');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.$$eval('tr[data-job]', (rows) => rows.map((r) => (r as HTMLElement).dataset.estado))).toEqual(['held']);
    await shot('jobs-held');
    await page.getByRole('link', { name: `#${held.id}` }).click();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await page.locator('[data-field="estado"]', { hasText: 'canceled' }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel job' }).isHidden()).toBe(true);
    await until(held.id, 'canceled');
  });

  it('reprints a completed job with a marker, and draws the copy from its stored bytes, marker and all', async () => {
    const job = await insert({ referencia: 'pedido-1' });
    await until(job.id, 'completed');
    // A reload forgets the session (it lives in the page's memory): the page asks to log in again.
    await page.evaluate((id) => (location.hash = `#job/${id}`), job.id);
    await page.reload();
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('[data-field="estado"]', { hasText: 'completed' }).waitFor();
    await page.getByLabel('Marker (optional)').fill('2ª VIA');
    await page.getByRole('button', { name: 'Reprint' }).click();
    const link = page.locator('a[data-reprint]');
    await link.waitFor();
    const copy = Number(await link.getAttribute('data-reprint'));
    expect(copy).toBeGreaterThan(job.id);
    await until(copy, 'completed');
    expect((await vp!.waitForJobs(2, 20_000)).length).toBe(2);
    await link.click();
    await page.locator('.facts a', { hasText: `job #${job.id}` }).waitFor();
    await page.locator('[data-field="estado"]', { hasText: 'completed' }).waitFor();
    await page.getByRole('button', { name: 'Show preview' }).click();
    const img = page.locator('#preview img');
    await img.waitFor();
    expect(await img.getAttribute('data-printer')).toBe('MAKER5T20');
    // The image is the library's SVG of the copy's stored bytes (its size in dots), which print the marker.
    const stored = await fetch(`${served!.base}/IntencaoImpressao/GetBytes?intencaoImpressaoId=${copy}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const svg = renderSvg(new Uint8Array(await stored.arrayBuffer()), { printer: stored.headers.get('x-codigo-impressora')! });
    expect(svg).toMatch(/>2ª<.*>VIA</s);
    const [, width, height] = /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg)!;
    expect(await img.evaluate((i) => [(i as HTMLImageElement).naturalWidth, (i as HTMLImageElement).naturalHeight])).toEqual([Number(width), Number(height)]);
    await shot('job-preview');
  });

  it('starts a held job from its page, and its printer prints it', async () => {
    const held = await insert({ aguardarClienteIniciarImpressao: true, referencia: 'pedido-start' });
    const printed = vp!.jobs.length;
    await page.evaluate((id) => (location.hash = `#job/${id}`), held.id);
    await page.locator('[data-field="estado"]', { hasText: 'held' }).waitFor();
    await page.getByRole('button', { name: 'Start printing' }).click();
    await until(held.id, 'completed');
    await page.locator('[data-field="estado"]', { hasText: 'completed' }).waitFor();
    expect((await vp!.waitForJobs(printed + 1, 20_000)).length).toBe(printed + 1);
  });

  it('pages through the job list with the cursor, forward and back', async () => {
    await page.evaluate(() => (location.hash = '#jobs?limite=2'));
    const ids = () => page.$$eval('tr[data-job]', (rows) => rows.map((r) => Number((r as HTMLElement).dataset.job)));
    await expect.poll(ids).toHaveLength(2);
    const first = await ids();
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(ids).not.toEqual(first);
    const second = await ids();
    // Newest first, and no job on both pages.
    expect(Math.max(...second)).toBeLessThan(Math.min(...first));
    expect(await page.textContent('[data-field="page"]')).toContain('Page 2');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(ids).toEqual(first);
  });

  it('replays a webhook message from the log', async () => {
    await expect.poll(() => deliveries.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const before = deliveries.length;
    await page.getByRole('link', { name: 'Webhook log' }).click();
    const first = page.locator('tr[data-message]').first();
    await first.waitFor();
    await first.getByRole('button', { name: /^Replay/ }).click();
    await expect.poll(() => page.textContent('#live')).toMatch(/queued to be sent again/);
    await expect.poll(() => deliveries.length, { timeout: 20_000 }).toBe(before + 1);
  });

  it("shows every time one way, in the service's zone, and the date filter reads a time as it is shown", async () => {
    // A completed job whose webhook message is in the log (the test before made one).
    const job = (await api<{ intencoes: Array<Job & { dataCriacao: string }> }>('GET', '/IntencaoImpressao/GetAll?estado=completed&limite=1')).intencoes[0]!;
    const created = job.dataCriacao.replace(/\.\d{3}$/, '');
    await page.evaluate((id) => (location.hash = `#job/${id}`), job.id);
    await page.locator('[data-field="estado"]', { hasText: 'completed' }).waitFor();
    const fact = await page.locator('.facts dd').nth(5).textContent();
    expect(fact).toBe(created);
    const logged = page.locator('tr[data-message] td').first();
    await logged.waitFor();
    // The webhook log's time (an ISO instant from the API) reads like the job's, in the same zone, seconds after it.
    const spec = /^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d):(\d\d)$/;
    const asUtc = (t: string) => {
      const m = spec.exec(t);
      expect(m, t).not.toBeNull();
      return Date.UTC(+m![3]!, +m![2]! - 1, +m![1]!, +m![4]!, +m![5]!, +m![6]!);
    };
    const gap = asUtc((await logged.textContent())!) - asUtc(created);
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThan(60_000);
    expect(await page.textContent('#updated')).toContain('UTC+05:30');
    // Typed as shown (the service's time), the filter finds the job; the label says the zone.
    await page.evaluate(() => (location.hash = '#jobs'));
    const [, d, mo, y, hms] = /^(\d\d)\/(\d\d)\/(\d{4}) (.*)$/.exec(created)!;
    await page.getByLabel(/^Created from/).fill(`${y}-${mo}-${d}T${hms}`);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator(`tr[data-job="${job.id}"]`).waitFor();
    expect(await page.textContent('label[for="f-desde"]')).toBe('Created from (UTC+05:30)');
    const ids = await page.$$eval('tr[data-job]', (rows) => rows.map((r) => Number((r as HTMLElement).dataset.job)));
    expect(ids).toContain(job.id);
  });

  it('asks nothing while the tab is hidden, and refreshes at once when it is shown again', async () => {
    await page.getByRole('link', { name: 'Terminals' }).click();
    await row(TERMINAL).waitFor();
    const polls = () => requested.filter((u) => TERMINAL_LIST.test(u)).length;
    const setHidden = (hidden: boolean) => page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { value: h, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
    await setHidden(true);
    const before = polls();
    // Longer than the page's 3-s interval: a running poll would have asked again.
    await new Promise((r) => setTimeout(r, 4000));
    expect(polls()).toBe(before);
    // Hidden, the page keeps no timer: any request now is the one made on being shown.
    await setHidden(false);
    await expect.poll(polls, { timeout: 10_000 }).toBeGreaterThan(before);
  });

  it('shows the terminals a page at a time, and only those needing attention when asked', async () => {
    const shown = () => page.$$eval('tr[data-terminal]', (rows) => rows.map((r) => (r as HTMLElement).dataset.terminal));
    await page.evaluate(() => (location.hash = '#terminals?limite=2'));
    await expect.poll(shown).toEqual([TERMINAL, 'PDV-2']);
    expect(requested.filter((u) => TERMINAL_LIST.test(u)).at(-1)).toContain('limite=2');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(shown).toEqual(['PDV-3', 'PDV-4']);
    expect(await page.textContent('[data-field="page"]')).toContain('Page 2');
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(shown).toEqual([TERMINAL, 'PDV-2']);
    // The others were never heard from: offline; PDV-1's agent is polling.
    await page.getByLabel('Show', { exact: true }).selectOption('offline');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(shown).toEqual(['PDV-2', 'PDV-3']);
    expect(await page.evaluate(() => location.hash)).toBe('#terminals?situacao=offline&limite=2');
    await page.evaluate(() => (location.hash = '#terminals'));
    await expect.poll(shown).toEqual([TERMINAL, ...OTHERS]);
  });

  it('says when it last showed the service\'s answer, and that the data is stale while refreshes fail', async () => {
    const line = () => page.textContent('#updated');
    await expect.poll(line).toMatch(/^Updated \d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d/);
    await page.route(TERMINAL_LIST, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"unavailable","code":"database-unavailable"}' }));
    try {
      await page.locator('#updated[data-stale]').waitFor({ timeout: 10_000 });
      const stale = await line();
      expect(stale).toContain('stale');
      // Refreshes keep failing (more than one 3-s interval): the time shown stays the last good one.
      await new Promise((r) => setTimeout(r, 4000));
      expect((await line())!.slice(0, 27)).toBe(stale!.slice(0, 27));
    } finally {
      await page.unroute(TERMINAL_LIST);
    }
    await page.locator('#updated:not([data-stale])').waitFor({ timeout: 10_000 });
    expect(await line()).not.toContain('stale');
  });

  it('shows a job that does not exist as missing, without actions, and stops asking for it', async () => {
    const asked = () => requested.filter((u) => u.includes('/IntencaoImpressao/GetById?intencaoImpressaoId=999999')).length;
    await page.evaluate(() => (location.hash = '#job/999999'));
    await page.locator('[data-field="not-found"]').waitFor();
    expect(await page.textContent('[data-field="not-found"]')).toContain('There is no job #999999');
    expect(await page.getByRole('button', { name: 'Reprint' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Show preview' }).count()).toBe(0);
    expect(await page.locator('main').textContent()).not.toContain('failed');
    const before = asked();
    // Longer than the page's 3-s interval: a polling page would have asked again.
    await new Promise((r) => setTimeout(r, 4000));
    expect(asked()).toBe(before);
    await page.getByRole('link', { name: 'Terminals' }).click();
    await row(TERMINAL).waitFor();
  });

  it("shows the printer's paper-out reason, at 390 px too", async () => {
    await vp!.setState({ paper: 'out' });
    await row(TERMINAL).locator('[data-reasons~="media-empty"]').waitFor();
    expect(await row(TERMINAL).locator('[data-field="printer"]').textContent()).toContain('paper');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot('terminals-paper-out-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows the terminal offline once its agent is killed', async () => {
    process.kill(agent!.pid!, 'SIGKILL');
    await row(TERMINAL).and(page.locator('[data-online="false"]')).waitFor({ timeout: (2 * HEARTBEAT + GRACE) * 1000 + 15_000 });
    await expect.poll(() => page.textContent('#live')).toContain(`${TERMINAL}: offline`);
    await shot('terminals-offline');
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
