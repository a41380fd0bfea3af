// Issue 11 §4: delivery end to end with real processes on 127.0.0.1 — `bobina serve`, `bobina agent`
// and a virtual printer — and the faults a shop sees: printer offline, paper out, cover open, the
// agent or the service killed with SIGKILL, a lease that runs out, a stale token, cancel, expiry,
// a held job, insert order. Each ends with the job printed exactly once, counted at the printer,
// with the bytes compile() gives, and the expected history. Every wait is bounded; every process
// started here is killed by pid after the test (helpers.ts).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, virtualPrinter } from './helpers.js';
import { serviceHarness, sleep, states, waitFor, type Intencao, type Terminal } from './service-harness.js';

const PRINTER = 'MAKER5T20';
const h = serviceHarness({ printer: PRINTER, serveFlags: ['--lease', '2s'] });
const { until, insert, getById, api, bytesOf } = h;
const newTerminal = (...flags: string[]) => h.terminal(flags);
const agent = (t: Terminal, device: string, stateDir: string) => h.agent(t, device, [], stateDir);

describe('delivery through bobina agent', () => {
  beforeAll(async () => {
    await h.start();
  }, 30_000);

  it('prints two jobs of one terminal in insert order, each exactly once, byte-identical to compile()', async () => {
    const vp = await virtualPrinter({ printer: PRINTER });
    const t = newTerminal();
    const a = await insert(t.id, fixture('nfce.txt'));
    const b = await insert(t.id, 'Segundo<br><paperCutFull>');
    agent(t, vp.address, join(h.dir, t.id));
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
    const wrong = agent({ id: t.id, key: 'bobt_not-a-key' }, '-', join(h.dir, `${t.id}-wrong`));
    expect((await wrong.exited).code).toBe(1);
    expect(wrong.stderr()).toMatch(/refused this client: .*401 unauthorized/);
    expect(wrong.stderr()).not.toContain('bobt_not-a-key');
    const other = agent({ id: 'PDV-NOT-MINE', key: t.key }, '-', join(h.dir, `${t.id}-other`));
    expect((await other.exited).code).toBe(1);
    expect(other.stderr()).toMatch(/403 terminal-mismatch/);
  }, 30_000);

  it.each([
    ['paper out', { paper: 'out' } as const, 'media-empty'],
    ['cover open', { cover: 'open' } as const, 'cover-open'],
  ])('stops on %s and prints once the printer is back', async (_name, fault, reason) => {
    const vp = await virtualPrinter({ printer: PRINTER, state: fault });
    const t = newTerminal();
    agent(t, vp.address, join(h.dir, t.id));
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
    agent(t, vp.address, join(h.dir, t.id));
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
    agent(t, vp.address, join(h.dir, t.id));
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
    agent(t, vp.address, join(h.dir, t.id));
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
    agent(t, vp.address, join(h.dir, t.id));
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
    const state = join(h.dir, t.id);
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

  it('prints a job again once per Iniciar: a reprint cut off by a killed agent stops again, and is never printed a third time', async () => {
    const vp = await virtualPrinter({ printer: PRINTER, state: { slow: 4000 } });
    const t = newTerminal();
    const state = join(h.dir, t.id);
    const job = await insert(t.id, fixture('nfce.txt'));
    /** An agent killed (SIGKILL) while the printer reads the job, the printer then let finish what it got. */
    const killedMidJob = async (printed: number) => {
      await vp.setState({ slow: 4000 });
      const a = agent(t, vp.address, state);
      await until(job.id, (i) => i.estado === 'printing', 30_000);
      const before = vp.received;
      await waitFor(() => vp.received > before + 1000, 20_000, 'the printer to be reading the job');
      process.kill(a.process.pid!, 'SIGKILL');
      await a.exited;
      await vp.setState({ slow: 0 });
      await vp.waitForJobs(printed, 10_000);
    };
    const stoppedUnknown = async () => {
      const a = agent(t, vp.address, state);
      const stopped = await until(job.id, (i) => i.estado === 'stopped', 30_000);
      expect(stopped.motivos).toEqual(['outcome-unknown']);
      process.kill(a.process.pid!, 'SIGKILL');
      await a.exited;
      return stopped;
    };
    await killedMidJob(1);
    await stoppedUnknown();
    // A person starts it again (the reprint), and the agent is killed in the middle of that too.
    expect((await api('POST', `/IntencaoImpressao/Iniciar?intencaoImpressaoId=${job.id}`)).status).toBe(200);
    await killedMidJob(2);
    const again = await stoppedUnknown();
    expect(states(again).slice(-6)).toEqual(['queued', 'acquired', 'printing', 'queued(lease-expired)', 'acquired', 'stopped(outcome-unknown)']);
    await sleep(500);
    expect(vp.jobs).toHaveLength(2);
  }, 120_000);

  it('prints once when the service is killed while the job is acquired, then restarted', async () => {
    const vp = await virtualPrinter({ printer: PRINTER, state: { slow: 4000 } });
    const t = newTerminal();
    agent(t, vp.address, join(h.dir, t.id));
    const job = await insert(t.id, fixture('nfce.txt'));
    await until(job.id, (i) => i.estado === 'printing');
    await h.kill();
    await vp.setState({ slow: 0 });
    await vp.waitForJobs(1, 20_000);
    // Leases are not expired within one lease length of a start: the agent's report gets in first.
    await h.start('--lease', '20s');
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
    await h.kill();
    await h.start('--job-ttl', '1s');
    try {
      const t = newTerminal();
      const job = await insert(t.id, 'Expira<paperCutFull>');
      const expired = await until(job.id, (i) => i.estado === 'expired', 20_000);
      expect(expired).toMatchObject({ status: 'Expirado', tentativas: 0 });
      expect(states(expired)).toEqual(['queued', 'expired']);
    } finally {
      await h.kill();
    }
  }, 60_000);
});
