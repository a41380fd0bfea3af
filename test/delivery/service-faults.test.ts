// Issue 11 §4: delivery end to end with real processes on 127.0.0.1 — `bobina serve`, `bobina agent`
// and a virtual printer — and the faults a shop sees: printer offline, paper out, cover open, the
// agent or the service killed with SIGKILL, a lease that runs out, a stale token, cancel, expiry,
// a held job, insert order. Each ends with the job printed exactly once, counted at the printer,
// with the bytes compile() gives, and the expected history. Every wait is bounded; every process
// started here is killed by pid after the test (helpers.ts).
import { spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/net.js';
import { startServe, stop } from '../support/serve.js';
import { CHILD_ENV, freshDatabase, type TestDatabase } from '../support/store-target.js';
import { compile } from '../../src/index.js';
import { CLI } from '../support/cli.js';
import { child, fixture, virtualPrinter, type Child } from './helpers.js';

const PRINTER = 'MAKER5T20';
const EMAIL = 'loja@example.com';

let database: TestDatabase;
let dir: string;
let port: number;
let base: string;
/** The service outlives single tests, so it is started and killed (by pid) here, not by helpers.ts. */
let service: ChildProcess | undefined;
let apiKey: string;
let terminals = 0;

interface Intencao {
  id: number;
  status: string;
  estado: string;
  motivos: string[];
  tentativas: number;
  confirmacao: string;
  historico: { estado: string; motivos: string[]; origem: string; evento: string }[];
}

function cli(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args, ...database.flags], { encoding: 'utf8', env: { ...process.env, ...CHILD_ENV }, timeout: 20_000 });
  if (r.status !== 0) throw new Error(`bobina ${args.join(' ')}: ${r.status} ${r.stderr}`);
  return r.stdout;
}

async function startService(...flags: string[]): Promise<ChildProcess> {
  // Direct delivery's journals go in this run's dir, whichever store it is.
  const served = await startServe({ flags: [...database.flags, '--state-dir', join(dir, 'direct'), '--lease', '2s', ...flags], port });
  return served.proc;
}

async function killService() {
  const proc = service;
  service = undefined;
  if (proc) await stop(proc, 'SIGKILL');
}

/** A new terminal linked to PRINTER with its own key, so tests never share a queue. */
function newTerminal(...flags: string[]): { id: string; key: string } {
  const id = `PDV-${++terminals}`;
  const out = cli('terminals', 'add', '--email', EMAIL, '--terminal', id, '--printer', PRINTER, '--print-key', ...flags).trim().split('\n');
  return { id, key: out.at(-1)! };
}

function agent(t: { id: string; key: string }, device: string, stateDir: string): Child {
  return child([CLI, 'agent', '--url', base, '--key', t.key, '--terminal', t.id, '--device', device, '--state-dir', stateDir, '--wait', '5', '--retry-ms', '100']);
}

async function api(method: string, path: string, body?: object, key = apiKey): Promise<{ status: number; json: { intencaoImpressao: Intencao } & Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as { intencaoImpressao: Intencao } };
}

async function insert(terminalId: string, conteudo: string, extra: object = {}): Promise<Intencao> {
  const r = await api('POST', '/IntencaoImpressao/Insert', { conteudo, terminalId, ...extra });
  expect(r.status).toBe(200);
  return r.json.intencaoImpressao;
}

const getById = async (id: number) => (await api('GET', `/IntencaoImpressao/GetById?intencaoImpressaoId=${id}`)).json.intencaoImpressao;

/** Polls GetById (the spec's fallback) until `check` holds; fails after `timeoutMs`. */
async function until(id: number, check: (i: Intencao) => boolean, timeoutMs = 20_000): Promise<Intencao> {
  const end = Date.now() + timeoutMs;
  let last: Intencao | undefined;
  for (;;) {
    try {
      last = await getById(id);
      if (check(last)) return last;
    } catch {
      // The service is restarting.
    }
    if (Date.now() > end) throw new Error(`job ${id} never got there; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const states = (i: Intencao) => i.historico.map((h) => (h.motivos.length ? `${h.estado}(${h.motivos.join(',')})` : h.estado));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bytesOf = (conteudo: string) => Buffer.from(compile(conteudo, { printer: PRINTER }).bytes);

beforeAll(async () => {
  database = await freshDatabase('bobina-faults-');
  dir = database.dir;
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  cli('users', 'add', '--email', EMAIL, '--password', 'pw-loja-1', '--name', 'Loja');
  apiKey = cli('keys', 'create', '--email', EMAIL).trim();
}, 30_000);

afterAll(async () => {
  await killService();
  await database?.drop();
});

describe('delivery through bobina agent', () => {
  beforeAll(async () => {
    service = await startService();
  }, 30_000);

  it('prints two jobs of one terminal in insert order, each exactly once, byte-identical to compile()', async () => {
    const vp = await virtualPrinter({ printer: PRINTER });
    const t = newTerminal();
    const a = await insert(t.id, fixture('nfce.txt'));
    const b = await insert(t.id, 'Segundo<br><paperCutFull>');
    agent(t, vp.address, join(dir, t.id));
    const [doneA, doneB] = [await until(a.id, (i) => i.estado === 'completed'), await until(b.id, (i) => i.estado === 'completed')];
    expect(vp.jobs).toHaveLength(2);
    expect(Buffer.from(vp.jobs[0]!.bytes).equals(bytesOf(fixture('nfce.txt')))).toBe(true);
    expect(Buffer.from(vp.jobs[1]!.bytes).equals(bytesOf('Segundo<br><paperCutFull>'))).toBe(true);
    for (const done of [doneA, doneB]) {
      expect(done).toMatchObject({ status: 'Impresso', confirmacao: 'printer', tentativas: 1 });
      expect(states(done)).toEqual(['queued', 'acquired', 'printing', 'completed']);
      expect(done.historico.at(-1)!.origem).toBe('printer');
    }
  }, 60_000);

  it('exits 1 when the service refuses its key, and says so without the key', async () => {
    const t = newTerminal();
    const wrong = agent({ id: t.id, key: 'bobt_not-a-key' }, '-', join(dir, `${t.id}-wrong`));
    expect((await wrong.exited).code).toBe(1);
    expect(wrong.stderr()).toMatch(/refused this client: .*401 unauthorized/);
    expect(wrong.stderr()).not.toContain('bobt_not-a-key');
    const other = agent({ id: 'PDV-NOT-MINE', key: t.key }, '-', join(dir, `${t.id}-other`));
    expect((await other.exited).code).toBe(1);
    expect(other.stderr()).toMatch(/403 terminal-mismatch/);
  }, 30_000);

  it.each([
    ['paper out', { paper: 'out' } as const, 'media-empty'],
    ['cover open', { cover: 'open' } as const, 'cover-open'],
  ])('stops on %s and prints once the printer is back', async (_name, fault, reason) => {
    const vp = await virtualPrinter({ printer: PRINTER, state: fault });
    const t = newTerminal();
    agent(t, vp.address, join(dir, t.id));
    const job = await insert(t.id, 'Recibo<paperCutFull>');
    const stopped = await until(job.id, (i) => i.estado === 'stopped');
    expect(stopped).toMatchObject({ status: 'ImpressaoEnviada', motivos: [reason] });
    await sleep(300);
    expect(vp.jobs).toHaveLength(0);
    await vp.setState({ paper: 'ok', cover: 'closed' });
    const done = await until(job.id, (i) => i.estado === 'completed');
    expect(vp.jobs).toHaveLength(1);
    expect(states(done)).toEqual(['queued', 'acquired', `stopped(${reason})`, 'queued', 'acquired', 'printing', 'completed']);
    expect(done.tentativas).toBe(2);
  }, 60_000);

  it('stops while the printer is offline and prints once it is back', async () => {
    const vp = await virtualPrinter({ printer: PRINTER });
    await vp.setState({ offline: 'refuse' });
    const t = newTerminal();
    agent(t, vp.address, join(dir, t.id));
    const job = await insert(t.id, 'Offline<paperCutFull>');
    expect(await until(job.id, (i) => i.estado === 'stopped')).toMatchObject({ motivos: ['offline'] });
    await vp.setState({ offline: 'no' });
    const done = await until(job.id, (i) => i.estado === 'completed');
    expect(vp.jobs).toHaveLength(1);
    expect(states(done)).toEqual(['queued', 'acquired', 'stopped(offline)', 'queued', 'acquired', 'printing', 'completed']);
  }, 60_000);

  it('prints a held job only after the client starts it', async () => {
    const vp = await virtualPrinter({ printer: PRINTER });
    const t = newTerminal();
    agent(t, vp.address, join(dir, t.id));
    const job = await insert(t.id, 'Retido<paperCutFull>', { aguardarClienteIniciarImpressao: true });
    expect(job.estado).toBe('held');
    await sleep(1000);
    expect(vp.jobs).toHaveLength(0);
    const listed = await api('GET', '/TerminalImpressao/ListarRetidas', undefined, t.key);
    expect((listed.json.intencoes as Intencao[]).map((i) => i.id)).toEqual([job.id]);
    expect((await api('POST', `/TerminalImpressao/Iniciar?intencaoImpressaoId=${job.id}`, undefined, t.key)).status).toBe(200);
    const done = await until(job.id, (i) => i.estado === 'completed');
    expect(vp.jobs).toHaveLength(1);
    expect(states(done)).toEqual(['held', 'queued', 'acquired', 'printing', 'completed']);
  }, 60_000);

  it('never prints a job canceled while queued', async () => {
    const vp = await virtualPrinter({ printer: PRINTER });
    const t = newTerminal();
    const canceled = await insert(t.id, 'Cancelado<paperCutFull>');
    expect((await api('POST', `/IntencaoImpressao/Cancelar?intencaoImpressaoId=${canceled.id}`)).json.intencaoImpressao).toMatchObject({ status: 'Cancelado', estado: 'canceled' });
    const after = await insert(t.id, 'Depois<paperCutFull>');
    agent(t, vp.address, join(dir, t.id));
    await until(after.id, (i) => i.estado === 'completed');
    expect(vp.jobs).toHaveLength(1);
    expect(Buffer.from(vp.jobs[0]!.bytes).equals(bytesOf('Depois<paperCutFull>'))).toBe(true);
    expect(states(await getById(canceled.id))).toEqual(['queued', 'canceled']);
  }, 60_000);

  it('offers a job again when its lease runs out, and ignores the stale token of the lost client', async () => {
    const vp = await virtualPrinter({ printer: PRINTER });
    const t = newTerminal();
    const job = await insert(t.id, 'Lease<paperCutFull>');
    // A client that takes the job and vanishes.
    const lost = (await api('POST', '/TerminalImpressao/ObterProxima?espera=0', undefined, t.key)).json.trabalho as { tokenEntrega: string };
    expect(lost.tokenEntrega).toBeTruthy();
    const requeued = await until(job.id, (i) => i.estado === 'queued' && i.tentativas === 1, 20_000);
    expect(requeued.historico.at(-1)).toMatchObject({ estado: 'queued', motivos: ['lease-expired'], origem: 'server' });
    agent(t, vp.address, join(dir, t.id));
    await until(job.id, (i) => i.estado === 'completed');
    const stale = await api('POST', '/TerminalImpressao/Reportar', { intencaoImpressaoId: job.id, tokenEntrega: lost.tokenEntrega, estado: 'failed', motivos: ['other'] }, t.key);
    expect(stale.json.aceito).toBe(false);
    const done = await getById(job.id);
    expect(done).toMatchObject({ estado: 'completed', tentativas: 2 });
    expect(states(done)).toEqual(['queued', 'acquired', 'queued(lease-expired)', 'acquired', 'printing', 'completed', 'completed(other)']);
    expect(done.historico.at(-1)!.evento).toBe('ignored-report');
    expect(vp.jobs).toHaveLength(1);
  }, 60_000);

  it('never prints twice when the agent is killed mid-job: restarted, it reports outcome-unknown', async () => {
    // 4 KB/s: the agent is still waiting for the printer's confirmation when it is killed.
    const vp = await virtualPrinter({ printer: PRINTER, state: { slow: 4000 } });
    const t = newTerminal();
    const state = join(dir, t.id);
    const first = agent(t, vp.address, state);
    const job = await insert(t.id, fixture('nfce.txt'));
    await until(job.id, (i) => i.estado === 'printing');
    await waitFor(() => vp.received > 1000, 20_000, 'the printer to be reading the job');
    process.kill(first.process.pid!, 'SIGKILL');
    await first.exited;
    await vp.setState({ slow: 0 });
    agent(t, vp.address, state);
    const stopped = await until(job.id, (i) => i.estado === 'stopped', 30_000);
    expect(stopped.motivos).toEqual(['outcome-unknown']);
    expect(states(stopped)).toEqual(['queued', 'acquired', 'printing', 'queued(lease-expired)', 'acquired', 'stopped(outcome-unknown)']);
    await vp.waitForJobs(1, 10_000);
    await sleep(500);
    expect(vp.jobs).toHaveLength(1);
    expect(Buffer.from(vp.jobs[0]!.bytes).equals(bytesOf(fixture('nfce.txt')))).toBe(true);
    // It waits for a person: listed to be started again.
    const listed = await api('GET', '/TerminalImpressao/ListarRetidas', undefined, t.key);
    expect((listed.json.intencoes as Intencao[]).map((i) => i.id)).toEqual([job.id]);
  }, 90_000);

  it('prints once when the service is killed while the job is acquired, then restarted', async () => {
    const vp = await virtualPrinter({ printer: PRINTER, state: { slow: 4000 } });
    const t = newTerminal();
    agent(t, vp.address, join(dir, t.id));
    const job = await insert(t.id, fixture('nfce.txt'));
    await until(job.id, (i) => i.estado === 'printing');
    await killService();
    await vp.setState({ slow: 0 });
    await vp.waitForJobs(1, 20_000);
    // Leases are not expired within one lease length of a start: the agent's report gets in first.
    service = await startService('--lease', '20s');
    const done = await until(job.id, (i) => i.estado === 'completed', 30_000);
    expect(vp.jobs).toHaveLength(1);
    expect(states(done)).toEqual(['queued', 'acquired', 'printing', 'completed']);
  }, 90_000);
});

describe('the service on its own', () => {
  it('delivers to a terminal registered with --device, in process', async () => {
    const vp = await virtualPrinter({ printer: PRINTER });
    const t = newTerminal('--device', vp.address);
    // The service looks for terminals with a device every few seconds.
    const job = await insert(t.id, 'Direto<paperCutFull>');
    const done = await until(job.id, (i) => i.estado === 'completed', 30_000);
    expect(vp.jobs).toHaveLength(1);
    expect(Buffer.from(vp.jobs[0]!.bytes).equals(bytesOf('Direto<paperCutFull>'))).toBe(true);
    expect(done).toMatchObject({ confirmacao: 'printer' });
    expect(states(done)).toEqual(['queued', 'acquired', 'printing', 'completed']);
  }, 60_000);

  it('expires a job never printed in time', async () => {
    await killService();
    service = await startService('--job-ttl', '1s');
    try {
      const t = newTerminal();
      const job = await insert(t.id, 'Expira<paperCutFull>');
      const expired = await until(job.id, (i) => i.estado === 'expired', 20_000);
      expect(expired).toMatchObject({ status: 'Expirado', tentativas: 0 });
      expect(states(expired)).toEqual(['queued', 'expired']);
    } finally {
      await killService();
    }
  }, 60_000);
});
