// The fleet's health in process, on the store under test: contacts (polls and heartbeats) and what
// GET /Terminal/GetAll and GetById show of them, the offline rule and its sweep, the printer's
// reasons, stuck jobs, and the events each writes to the outbox — once per change, whoever sweeps.
import { afterEach, describe, expect, it } from 'vitest';
import { newTerminalKey, sha256 } from '../../src/server/auth/secrets.js';
import type { FleetSettings } from '../../src/server/fleet/settings.js';
import type { WebhookMessage } from '../../src/server/store/types.js';
import { fleetOutbox, webhookOutbox } from '../../src/server/webhooks/outbox.js';
import { ALICE, BOB, harness, login, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const FLEET_EVENTS = ['terminal.offline', 'terminal.online', 'printer.status', 'job.stuck'];
/** Heartbeats every 100 ms, offline after 2 × 100 + 100 ms of silence; every printer change announced at once. */
const FAST: Partial<FleetSettings> = { heartbeatMs: 100, offlineGraceMs: 100, sweepMs: 1_000_000, printerEventEveryMs: 0 };

async function service(fleet: Partial<FleetSettings> = FAST) {
  const h = await harness({
    fleet, jobEvents: webhookOutbox(), fleetEvents: fleetOutbox(), webhookPolicy: { allowPrivate: true, httpHosts: ['127.0.0.1'] },
  });
  open.push(h);
  const key = (await login(h.app)).access_token;
  const alice = (await h.store.accounts.findByEmail(ALICE.email))!;
  const terminalKey = newTerminalKey();
  await h.store.credentials.setTerminalKey(alice.id, 'CAIXA-01', sha256(terminalKey), terminalKey.slice(0, 11));
  const hook = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: 'http://127.0.0.1:9/fleet', events: FLEET_EVENTS } });
  expect(hook.statusCode, hook.body).toBe(200);
  return { h, key, alice, terminalKey };
}

type Health = {
  terminalId: string; online: boolean; ultimoContato: string | null; versaoAgente: string | null;
  impressora: { pronta: boolean | null; motivos: string[]; verificadoEm: string | null };
  fila: { profundidade: number; maisAntigaEm: string | null; idadeMaisAntigaSegundos: number | null };
};

const getAll = async (h: Harness, key: string) => {
  const res = await h.app.inject({ url: `/Terminal/GetAll?key=${key}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { terminais: Health[] }).terminais;
};
const one = async (h: Harness, key: string, id = 'CAIXA-01') => (await getAll(h, key)).find((t) => t.terminalId === id)!;

const signal = (h: Harness, terminalKey: string, motivos: string[] = [], pronta = motivos.length === 0) => h.app.inject({
  method: 'POST', url: '/TerminalImpressao/Sinal', headers: { authorization: `Bearer ${terminalKey}` },
  payload: { impressora: { pronta, motivos }, versaoAgente: '1.2.3' },
});

/** The outbox's fleet messages of an account, oldest first. */
const events = async (h: Harness, accountId: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> =>
  (await h.store.webhooks.listMessages(accountId, { limit: 100 })).reverse().filter((m: WebhookMessage) => FLEET_EVENTS.includes(m.eventType))
    .map((m) => JSON.parse(m.body) as { type: string; data: Record<string, unknown> });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Each test builds its own database (migrations, two scrypt hashes, a login): seconds on PostgreSQL under load. */
const EACH = { timeout: 20_000 };

describe('the fleet view', EACH, () => {
  it('lists the account\'s terminals, never seen until their client says something', async () => {
    const { h, key } = await service();
    const all = await getAll(h, key);
    expect(all.map((t) => t.terminalId)).toEqual(['ANDROID', 'CAIXA-01', 'CAIXA-OFF']);
    expect(all[1]).toEqual({
      terminalId: 'CAIXA-01', online: false, ultimoContato: null, versaoAgente: null,
      impressora: { pronta: null, motivos: [], verificadoEm: null }, fila: { profundidade: 0, maisAntigaEm: null, idadeMaisAntigaSegundos: null },
    });
  });

  it('shows a heartbeat: online, last contact, version, the printer, and the queue with its oldest job', async () => {
    const { h, key, terminalKey } = await service({ ...FAST, heartbeatMs: 60_000 });
    for (const n of [1, 2]) {
      const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: `pedido ${n}`, terminalId: 'CAIXA-01' } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await signal(h, terminalKey, ['media-low'], true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ intervaloSegundos: 60 });
    const t = await one(h, key);
    expect(t).toMatchObject({ online: true, versaoAgente: '1.2.3', impressora: { pronta: true, motivos: ['media-low'] }, fila: { profundidade: 2 } });
    expect(t.ultimoContato).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d\.\d{3}$/);
    expect(t.impressora.verificadoEm).toMatch(/^\d\d\/\d\d\/\d{4} /);
    expect(t.fila.maisAntigaEm).toMatch(/^\d\d\/\d\d\/\d{4} /);
    expect(t.fila.idadeMaisAntigaSegundos).toBeGreaterThanOrEqual(0);
    const byId = await h.app.inject({ url: `/Terminal/GetById?terminalId=CAIXA-01&key=${key}` });
    expect(byId.statusCode).toBe(200);
    expect(byId.json().terminal).toEqual(t);
  });

  it('a poll says as much as a heartbeat; a poll without a body is a contact all the same', async () => {
    const { h, key, terminalKey } = await service({ ...FAST, heartbeatMs: 60_000 });
    const bare = await h.app.inject({ method: 'POST', url: '/TerminalImpressao/ObterProxima?espera=0', headers: { authorization: `Bearer ${terminalKey}` } });
    expect(bare.statusCode, bare.body).toBe(200);
    // Every poll's answer says the heartbeat the service expects, as Sinal's does (the agent follows it).
    expect(bare.json()).toMatchObject({ trabalho: null, intervaloSegundos: 60 });
    expect(await one(h, key)).toMatchObject({ online: true, versaoAgente: null, impressora: { pronta: null } });
    const poll = await h.app.inject({
      method: 'POST', url: '/TerminalImpressao/ObterProxima?espera=0', headers: { authorization: `Bearer ${terminalKey}` },
      payload: { impressora: { pronta: false, motivos: ['cover-open'] }, versaoAgente: '2.0.0' },
    });
    expect(poll.statusCode, poll.body).toBe(200);
    expect(await one(h, key)).toMatchObject({ online: true, versaoAgente: '2.0.0', impressora: { pronta: false, motivos: ['cover-open'] } });
  });

  it('writes a contact that says nothing new with the others of its tick, and every one held when the service stops', async () => {
    // Offline after 2 × 1 s + 1 s: contacts 350 ms apart are each written, in the batch (they come within half of that).
    const { h, alice, terminalKey } = await service({ heartbeatMs: 1000, offlineGraceMs: 1000, sweepMs: 1_000_000 });
    const stored = async () => (await h.store.terminals.health({ accountId: alice.id, terminalId: 'CAIXA-01' }))[0]!.lastSeenAt!.getTime();
    await signal(h, terminalKey);
    const first = await stored();
    await sleep(350);
    await signal(h, terminalKey);
    // Read from the store itself, not through the fleet (which writes the batch before it reads): the tick wrote it.
    await expect.poll(stored, { timeout: 5000 }).toBeGreaterThan(first);
    await sleep(350);
    let heard = Date.now();
    await signal(h, terminalKey);
    await h.app.fleet.close();
    expect(await stored()).toBeGreaterThanOrEqual(heard);
    // Once stopping, a contact is written at once.
    await sleep(350);
    heard = Date.now();
    await signal(h, terminalKey);
    expect(await stored()).toBeGreaterThanOrEqual(heard);
    // Nothing it said was new: one terminal.online, nothing else.
    expect((await events(h, alice.id)).map((e) => e.type)).toEqual(['terminal.online']);
  });

  it('refuses a malformed heartbeat with a problem body, and a partner key on it', async () => {
    const { h, key, terminalKey } = await service();
    const bad = await h.app.inject({ method: 'POST', url: '/TerminalImpressao/Sinal', headers: { authorization: `Bearer ${terminalKey}` }, payload: { impressora: { pronta: 'sim', motivos: [] }, versaoAgente: '1' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid-request' });
    const partner = await h.app.inject({ method: 'POST', url: `/TerminalImpressao/Sinal?key=${key}`, payload: { impressora: { pronta: true, motivos: [] }, versaoAgente: '1' } });
    expect(partner.statusCode).toBe(403);
    const asTerminal = await h.app.inject({ url: '/Terminal/GetAll', headers: { authorization: `Bearer ${terminalKey}` } });
    expect(asTerminal.statusCode).toBe(403);
  });

  it('refuses a versaoAgente with a lone surrogate (Sinal and ObterProxima), which would be stored as other characters, and keeps a surrogate pair as sent', async () => {
    const { h, key, terminalKey } = await service();
    const auth = { authorization: `Bearer ${terminalKey}` };
    for (const url of ['/TerminalImpressao/Sinal', '/TerminalImpressao/ObterProxima?espera=0']) {
      for (const versaoAgente of ['1.0\ud800', '\udc00', 'a\ud83d']) {
        const res = await h.app.inject({ method: 'POST', url, headers: auth, payload: { impressora: { pronta: true, motivos: [] }, versaoAgente } });
        expect(res.statusCode, `${url} ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'invalid-request', errors: expect.arrayContaining([expect.objectContaining({ path: '/versaoAgente' })]) });
      }
    }
    expect(await one(h, key)).toMatchObject({ versaoAgente: null, ultimoContato: null });
    const pair = await h.app.inject({ method: 'POST', url: '/TerminalImpressao/Sinal', headers: auth, payload: { impressora: { pronta: true, motivos: [] }, versaoAgente: '1.0 \ud83d\ude00' } });
    expect(pair.statusCode, pair.body).toBe(200);
    expect((await one(h, key)).versaoAgente).toBe('1.0 \ud83d\ude00');
  });

  it('answers a page at a time: limite (default 100, at most 500) and the cursor, no terminal twice or skipped', async () => {
    const { h, key, alice } = await service();
    // 150 more terminals: the default page holds 100 of the 153, the second the rest.
    for (let i = 0; i < 150; i++) await h.store.terminals.put({ accountId: alice.id, terminalId: `LOJA-${String(i).padStart(3, '0')}`, printerId: null, enabled: true });
    const page = async (query: string) => {
      const res = await h.app.inject({ url: `/Terminal/GetAll?key=${key}${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { terminais: Health[]; proximoCursor: string | null };
    };
    const first = await page('');
    expect(first.terminais).toHaveLength(100);
    const second = await page(`&cursor=${first.proximoCursor}`);
    expect(second.terminais).toHaveLength(53);
    expect(second.proximoCursor).toBeNull();
    const ids = [...first.terminais, ...second.terminais].map((t) => t.terminalId);
    expect(new Set(ids).size).toBe(153);
    expect(ids).toEqual([...ids].sort());
    // Each row keeps the fields it had.
    expect(Object.keys(first.terminais[0]!).sort()).toEqual(['fila', 'impressora', 'online', 'terminalId', 'ultimoContato', 'versaoAgente']);
    let small = await page('&limite=2');
    expect(small.terminais.map((t) => t.terminalId)).toEqual(['ANDROID', 'CAIXA-01']);
    small = await page(`&limite=2&cursor=${small.proximoCursor}`);
    expect(small.terminais.map((t) => t.terminalId)).toEqual(['CAIXA-OFF', 'LOJA-000']);
    for (const bad of ['limite=0', 'limite=501', 'limite=abc', 'cursor=not_a_cursor%21', `cursor=${Buffer.from([0xff]).toString('base64url')}`, 'situacao=todos']) {
      const res = await h.app.inject({ url: `/Terminal/GetAll?key=${key}&${bad}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json(), bad).toMatchObject({ code: 'invalid-request' });
    }
  });

  it('shows only the terminals needing attention with situacao: offline, a printer problem, or either', async () => {
    const { h, key, terminalKey } = await service();
    const ids = async (situacao: string) => {
      const res = await h.app.inject({ url: `/Terminal/GetAll?key=${key}&situacao=${situacao}` });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { terminais: Health[] }).terminais.map((t) => t.terminalId);
    };
    await signal(h, terminalKey);
    expect(await ids('offline')).toEqual(['ANDROID', 'CAIXA-OFF']);
    expect(await ids('impressora')).toEqual([]);
    await signal(h, terminalKey, ['media-low'], true);
    expect(await ids('impressora')).toEqual(['CAIXA-01']);
    expect(await ids('problema')).toEqual(['ANDROID', 'CAIXA-01', 'CAIXA-OFF']);
    await signal(h, terminalKey, ['media-empty']);
    expect(await ids('impressora')).toEqual(['CAIXA-01']);
    await signal(h, terminalKey);
    expect(await ids('problema')).toEqual(['ANDROID', 'CAIXA-OFF']);
    // Silent past the offline rule (300 ms here), it is offline.
    await expect.poll(() => ids('offline'), { timeout: 5000 }).toEqual(['ANDROID', 'CAIXA-01', 'CAIXA-OFF']);
  });

  it("never shows one account's terminals to another", async () => {
    const { h, terminalKey } = await service();
    await signal(h, terminalKey);
    const bob = (await login(h.app, BOB)).access_token;
    expect((await getAll(h, bob)).map((t) => t.terminalId)).toEqual(['BOB-01']);
    const other = await h.app.inject({ url: `/Terminal/GetById?terminalId=CAIXA-01&key=${bob}` });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'terminal-not-found' });
  });
});

describe('the fleet events', EACH, () => {
  it('terminal.offline once after 2 × the heartbeat + the grace of silence, whoever sweeps; terminal.online when it is back', async () => {
    const { h, key, alice, terminalKey } = await service();
    await signal(h, terminalKey);
    expect((await events(h, alice.id)).map((e) => e.type)).toEqual(['terminal.online']);
    await expect.poll(async () => (await one(h, key)).online, { timeout: 5000 }).toBe(false);
    // Two sweeps at once (two instances): one flips, one event.
    const flipped = await Promise.all([h.app.fleet.sweepOffline(), h.app.fleet.sweepOffline()]);
    expect(flipped.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await h.app.fleet.sweepOffline()).toBe(0);
    const offline = (await events(h, alice.id)).filter((e) => e.type === 'terminal.offline');
    expect(offline).toHaveLength(1);
    expect(offline[0]!.data).toMatchObject({ terminalId: 'CAIXA-01', online: false });
    expect(typeof offline[0]!.data.ultimoContato).toBe('string');
    await signal(h, terminalKey);
    await signal(h, terminalKey);
    expect((await events(h, alice.id)).map((e) => e.type)).toEqual(['terminal.online', 'terminal.offline', 'terminal.online']);
  });

  it("printer.status when the printer's set of reasons changes, and only then", async () => {
    const { h, alice, terminalKey } = await service({ ...FAST, heartbeatMs: 60_000 });
    await signal(h, terminalKey);
    await signal(h, terminalKey, ['media-empty']);
    await signal(h, terminalKey, ['media-empty']);
    await signal(h, terminalKey, ['media-empty', 'cover-open']);
    await signal(h, terminalKey);
    const printer = (await events(h, alice.id)).filter((e) => e.type === 'printer.status').map((e) => e.data);
    expect(printer.map((d) => [d.pronta, d.motivos, d.motivosAntes])).toEqual([
      [false, ['media-empty'], []],
      [false, ['media-empty', 'cover-open'], ['media-empty']],
      [true, [], ['media-empty', 'cover-open']],
    ]);
    expect(printer[0]).toMatchObject({ terminalId: 'CAIXA-01' });
  });

  it('printer.status at most once per printerEventEveryMs: a printer that flips on every contact makes one, and the state it settles in is announced with the next contact after that time', async () => {
    const { h, key, alice } = await service({ ...FAST, heartbeatMs: 60_000, printerEventEveryMs: 5_000 });
    const terminal = { kind: 'terminal' as const, accountId: alice.id, terminalId: 'CAIXA-01' };
    const t0 = Date.now();
    const contact = (ms: number, motivos: string[]) => h.app.fleet.contact(terminal, { printer: { ready: motivos.length === 0, reasons: motivos } }, new Date(t0 + ms));
    const printer = async () => (await events(h, alice.id)).filter((e) => e.type === 'printer.status').map((e) => [e.data.motivos, e.data.motivosAntes]);
    await contact(0, []);
    // Ten flips within 5 s: the first is announced; the others are written without the printer's word.
    for (let n = 0; n < 10; n++) await contact(100 + 200 * n, n % 2 === 0 ? ['media-empty'] : []);
    expect(await printer()).toEqual([[['media-empty'], []]]);
    // Settled on ready: shown and announced with the first contact 5 s after the last event.
    await contact(4_900, []);
    expect(await printer()).toHaveLength(1);
    await contact(5_200, []);
    expect(await printer()).toEqual([[['media-empty'], []], [[], ['media-empty']]]);
    expect((await one(h, key)).impressora.motivos).toEqual([]);
    // Back to the same state within the time: nothing to announce, nothing waits.
    await contact(5_300, ['cover-open']);
    await contact(5_400, []);
    await contact(10_300, []);
    expect(await printer()).toHaveLength(2);
  });

  it("job.stuck once for a job queued longer than the account's threshold, and once more when, leased, it makes no progress", async () => {
    const { h, key, alice, terminalKey } = await service({ ...FAST, heartbeatMs: 60_000 });
    expect(await h.store.accounts.setStuckAfter(alice.id, 50)).toBe(true);
    const res = await h.app.inject({ method: 'POST', url: `/IntencaoImpressao/Insert?key=${key}`, payload: { conteudo: 'preso', terminalId: 'CAIXA-01', referencia: 'pedido-9' } });
    const id = (res.json() as { intencaoImpressao: { id: number } }).intencaoImpressao.id;
    await sleep(100);
    const swept = await Promise.all([h.app.fleet.sweepStuck(), h.app.fleet.sweepStuck()]);
    expect(swept.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await h.app.fleet.sweepStuck()).toBe(0);
    const stuck = (await events(h, alice.id)).filter((e) => e.type === 'job.stuck');
    expect(stuck).toHaveLength(1);
    expect(stuck[0]!.data).toMatchObject({ intencaoImpressaoId: id, referencia: 'pedido-9', terminalId: 'CAIXA-01', estado: 'queued', motivo: 'queued', limiteSegundos: 0.05 });
    const message = (await h.store.webhooks.listMessages(alice.id, { limit: 10 })).find((m) => m.eventType === 'job.stuck')!;
    expect(message.intencaoImpressaoId).toBe(id);
    expect(message.url).toContain(`intencaoImpressaoId=${id}`);
    // Leased and then nothing: stuck again, in another state, without progress.
    const leased = await h.app.inject({ method: 'POST', url: '/TerminalImpressao/ObterProxima?espera=0', headers: { authorization: `Bearer ${terminalKey}` } });
    expect(leased.json().trabalho.intencaoImpressaoId).toBe(id);
    await sleep(100);
    expect(await h.app.fleet.sweepStuck()).toBe(1);
    expect(await h.app.fleet.sweepStuck()).toBe(0);
    const again = (await events(h, alice.id)).filter((e) => e.type === 'job.stuck');
    expect(again.map((e) => [e.data.estado, e.data.motivo])).toEqual([['queued', 'queued'], ['acquired', 'no-progress']]);
    // Another account's default (5 min) is not this one's.
    const bob = (await h.store.accounts.findByEmail(BOB.email))!;
    expect(await events(h, bob.id)).toEqual([]);
  });

  it('sends nothing to an endpoint that did not ask for the fleet events, and accepts them by name only', async () => {
    const { h, key } = await service();
    const bad = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: 'http://127.0.0.1:9/x', events: ['terminal.gone'] } });
    expect(bad.statusCode).toBe(400);
    const plain = await h.app.inject({ method: 'POST', url: `/Webhook/Insert?key=${key}`, payload: { url: 'http://127.0.0.1:9/plain' } });
    expect(plain.json().webhook.events).toEqual(['completed', 'failed', 'canceled', 'expired']);
  });

  it('counts the fleet: online and offline terminals, online printers by reason', async () => {
    const { h, alice, terminalKey } = await service({ ...FAST, heartbeatMs: 60_000 });
    await signal(h, terminalKey, ['media-empty', 'cover-open']);
    const counts = await h.store.terminals.fleetCounts(new Date(), 60_000);
    // Alice's CAIXA-01 and ANDROID, Bob's BOB-01 are enabled; only CAIXA-01 was heard from.
    expect(counts).toEqual({ online: 1, offline: 2, printersReady: 0, printersByReason: { 'media-empty': 1, 'cover-open': 1 } });
    expect(await h.store.terminals.fleetCounts(new Date(Date.now() + 120_000), 60_000)).toMatchObject({ online: 0, offline: 3, printersByReason: {} });
    expect(alice.id).toBeTruthy();
  });
});
