// The fleet's health with real clients, on the store under test: a `bobina agent` child (SIGKILLed
// and started again) and the service's own direct delivery, each in front of a virtual printer whose
// paper runs out and comes back. The service runs in this process (short heartbeats by option) on
// 127.0.0.1, port 0; every wait is for a condition, bounded.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/index.js';
import { newTerminalKey, sha256 } from '../../src/server/auth/secrets.js';
import { fleetOutbox, webhookOutbox } from '../../src/server/webhooks/outbox.js';
import { CLI } from '../support/cli.js';
import { ALICE, harness, login, type Harness } from '../server/helpers.js';
import { child, tempDir, virtualPrinter, type Child } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

/** Heartbeats every 200 ms: offline after 2 × 200 + 200 ms of silence. */
const FLEET = { heartbeatMs: 200, offlineGraceMs: 200 };
const PRINTER = 'MAKER5T20';

async function service(directDelivery?: { stateDir: string }, fleet = FLEET) {
  const h = await harness({
    fleet, jobEvents: webhookOutbox(), fleetEvents: fleetOutbox(), webhookPolicy: { allowPrivate: true, httpHosts: ['127.0.0.1'] },
    ...(directDelivery ? { directDelivery } : {}),
  });
  open.push(h);
  const key = (await login(h.app)).access_token;
  const alice = (await h.store.accounts.findByEmail(ALICE.email))!;
  const hook = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: 'http://127.0.0.1:9/fleet', events: ['terminal.offline', 'terminal.online', 'printer.status'] } });
  expect(hook.statusCode, hook.body).toBe(200);
  return { h, key, accountId: alice.id };
}

const terminalView = async (h: Harness, key: string, id: string) => {
  const res = await h.app.inject({ url: `/Terminal/GetById?terminalId=${id}&key=${key}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().terminal as { online: boolean; versaoAgente: string | null; impressora: { pronta: boolean | null; motivos: string[] } };
};

const events = async (h: Harness, accountId: string) => (await h.store.webhooks.listMessages(accountId, { limit: 100 })).reverse()
  .map((m) => JSON.parse(m.body) as { type: string; data: { terminalId: string; motivos?: string[]; pronta?: boolean } });

const typesOf = async (h: Harness, accountId: string, terminalId: string) => (await events(h, accountId)).filter((e) => e.data.terminalId === terminalId).map((e) => e.type);

/** The printer.status events' reasons for a terminal, in order. */
const printerEvents = async (h: Harness, accountId: string, terminalId: string) => (await events(h, accountId))
  .filter((e) => e.type === 'printer.status' && e.data.terminalId === terminalId).map((e) => e.data.motivos);

describe('the fleet with real clients', () => {
  it('a killed agent goes offline with one terminal.offline; back, terminal.online; its printer\'s paper out and back are printer.status', async () => {
    const { h, key, accountId } = await service();
    const url = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const vp = await virtualPrinter({ printer: PRINTER });
    await h.store.terminals.put({ accountId, terminalId: 'PDV-AGENT', printerId: loadProfile(PRINTER).id, enabled: true });
    const terminalKey = newTerminalKey();
    await h.store.credentials.setTerminalKey(accountId, 'PDV-AGENT', sha256(terminalKey), terminalKey.slice(0, 11));
    const stateDir = tempDir();
    const agent = (): Child => child([CLI, 'agent', '--url', url, '--key', terminalKey, '--terminal', 'PDV-AGENT', '--device', vp.address,
      '--state-dir', join(stateDir, 'journal'), '--wait', '1', '--retry-ms', '100', '--heartbeat', '0.2']);

    let first = agent();
    await expect.poll(() => terminalView(h, key, 'PDV-AGENT'), { timeout: 15_000 }).toMatchObject({ online: true, impressora: { pronta: true, motivos: [] } });
    expect((await terminalView(h, key, 'PDV-AGENT')).versaoAgente).toMatch(/^\d+\.\d+\.\d+/);

    await vp.setState({ paper: 'out' });
    await expect.poll(() => printerEvents(h, accountId, 'PDV-AGENT'), { timeout: 10_000 }).toEqual([['media-empty']]);
    expect(await terminalView(h, key, 'PDV-AGENT')).toMatchObject({ impressora: { pronta: false, motivos: ['media-empty'] } });
    await vp.setState({ paper: 'ok' });
    await expect.poll(() => printerEvents(h, accountId, 'PDV-AGENT'), { timeout: 10_000 }).toEqual([['media-empty'], []]);

    first.process.kill('SIGKILL');
    await first.exited;
    await expect.poll(() => typesOf(h, accountId, 'PDV-AGENT'), { timeout: 10_000 }).toContain('terminal.offline');
    expect((await terminalView(h, key, 'PDV-AGENT')).online).toBe(false);
    // Sweeping again finds nothing more to announce: one change, one event.
    expect(await h.app.fleet.sweepOffline()).toBe(0);
    expect((await typesOf(h, accountId, 'PDV-AGENT')).filter((t) => t.startsWith('terminal.'))).toEqual(['terminal.online', 'terminal.offline']);

    first = agent();
    await expect.poll(async () => (await typesOf(h, accountId, 'PDV-AGENT')).filter((t) => t.startsWith('terminal.')), { timeout: 15_000 })
      .toEqual(['terminal.online', 'terminal.offline', 'terminal.online']);
    expect((await terminalView(h, key, 'PDV-AGENT')).online).toBe(true);
    first.process.kill('SIGKILL');
    await first.exited;
  }, 60_000);

  it("an agent parked in a long poll beats as often as the service asks, not its own --heartbeat's 15 s", async () => {
    // Offline after 2 × 1 s + 3 s of silence (a grace wide enough that a loaded machine's pauses
    // do not count); the agent waits 30 s per poll and its own heartbeat is the default 15 s, so only
    // the interval every poll's answer gives keeps it online.
    const { h, key, accountId } = await service(undefined, { heartbeatMs: 1000, offlineGraceMs: 3000 });
    const url = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const vp = await virtualPrinter({ printer: PRINTER });
    await h.store.terminals.put({ accountId, terminalId: 'PDV-PARKED', printerId: loadProfile(PRINTER).id, enabled: true });
    const terminalKey = newTerminalKey();
    await h.store.credentials.setTerminalKey(accountId, 'PDV-PARKED', sha256(terminalKey), terminalKey.slice(0, 11));
    const agent = child([CLI, 'agent', '--url', url, '--key', terminalKey, '--terminal', 'PDV-PARKED', '--device', vp.address,
      '--state-dir', join(tempDir(), 'journal'), '--wait', '30']);
    // The polls at start (one that does not wait, then the parked one) are one contact (the fleet
    // writes contacts closer than 500 ms once), then one per heartbeat: eight distinct contact times
    // is seven heartbeats, past the 5 s of silence that would make the terminal offline.
    const contacts = new Set<string>();
    await expect.poll(async () => {
      const t = await h.app.inject({ url: `/Terminal/GetById?terminalId=PDV-PARKED&key=${key}` });
      const seen = t.json().terminal.ultimoContato as string | null;
      if (seen) contacts.add(seen);
      return contacts.size;
    }, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(8);
    expect(await h.app.fleet.sweepOffline()).toBe(0);
    expect((await typesOf(h, accountId, 'PDV-PARKED')).filter((t) => t.startsWith('terminal.'))).toEqual(['terminal.online']);
    agent.process.kill('SIGKILL');
    await agent.exited;
  }, 30_000);

  it("direct delivery reports its printer the same way, from the service's own process", async () => {
    const vp = await virtualPrinter({ printer: PRINTER });
    const { h, key, accountId } = await service({ stateDir: tempDir() });
    await h.store.terminals.put({ accountId, terminalId: 'PDV-DIRECT', printerId: loadProfile(PRINTER).id, enabled: true, device: vp.address });
    // Direct delivery picks a new terminal up at its next scan (a few seconds).
    await expect.poll(() => terminalView(h, key, 'PDV-DIRECT'), { timeout: 15_000 }).toMatchObject({ online: true, impressora: { pronta: true } });
    await vp.setState({ cover: 'open' });
    await expect.poll(() => printerEvents(h, accountId, 'PDV-DIRECT'), { timeout: 10_000 }).toEqual([['cover-open']]);
    await vp.setState({ cover: 'closed' });
    await expect.poll(() => printerEvents(h, accountId, 'PDV-DIRECT'), { timeout: 10_000 }).toEqual([['cover-open'], []]);
  }, 30_000);
});
