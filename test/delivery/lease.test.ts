// Issue 20 §1: a printer slower than the lease. The client holding a job renews its lease while it
// delivers (Renovar), so a job whose bytes have started is never offered again while its holder
// is alive, the confirmation wait and the lease do not race, and what the client reports (the
// printer's own reasons, `media-empty` mid-job) reaches the job and its webhook; also when the
// agent is killed with SIGKILL in the middle. Real processes on 127.0.0.1, on both stores; every
// process is killed by pid (helpers.ts, service-harness.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../server/webhook-receiver.js';
import { fixture, virtualPrinter } from './helpers.js';
import { LOCAL_WEBHOOKS, serviceHarness, sleep, states, waitFor, type Intencao } from './service-harness.js';

const PRINTER = 'MAKER5T20';
/** A lease far shorter than a slow delivery: without renewals it runs out while the job is printing. */
const h = serviceHarness({ printer: PRINTER, serveFlags: ['--lease', '3s'], env: LOCAL_WEBHOOKS });
const NFCE = fixture('nfce.txt');
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  h.cli('webhooks', 'add', '--email', h.email, '--url', `${receiver.url}/hook`, '--event', 'stopped', '--event', 'completed');
  await h.start();
}, 30_000);

afterAll(async () => {
  await receiver?.close();
});

/** The webhook messages the receiver got for one job, in order: [estado, motivos]. */
function notices(id: number): [string, string[]][] {
  return receiver.received
    .map((r) => JSON.parse(r.body) as { data: { intencaoImpressaoId: number; estado: string; motivos: string[]; sequence: number } })
    .filter((m) => m.data.intencaoImpressaoId === id)
    .sort((a, b) => a.data.sequence - b.data.sequence)
    .map((m) => [m.data.estado, m.data.motivos]);
}

const done = (i: Intencao) => i.estado === 'completed';
const stopped = (i: Intencao) => i.estado === 'stopped';

// The four cases run at once (each on its own terminal, printer and agent; helpers.ts cleans up
// after the last): most of each is waiting for a printer that reads 2 KB/s.
describe.concurrent('a printer slower than the lease', () => {
  it('keeps the lease while bobina agent delivers: printed once, confirmed by the printer, on the first attempt', async () => {
    // 17 KB at 2 KB/s: about 8.5 s to print, almost three leases of 3 s.
    const vp = await virtualPrinter({ printer: PRINTER, state: { slow: 2000 } });
    const t = await h.addTerminal();
    h.agent(t, vp.address);
    const job = await h.insert(t.id, NFCE);
    const printed = await h.until(job.id, done, 40_000);
    expect(printed).toMatchObject({ confirmacao: 'printer', tentativas: 1, motivos: [] });
    expect(states(printed)).toEqual(['queued', 'acquired', 'printing', 'completed']);
    expect(vp.jobs).toHaveLength(1);
    expect(Buffer.from(vp.jobs[0]!.bytes).equals(h.bytesOf(NFCE))).toBe(true);
    await waitFor(() => notices(job.id).length === 1, 10_000, 'the completed notice');
    expect(notices(job.id)).toEqual([['completed', []]]);
  }, 60_000);

  it('keeps the lease while the service delivers to a terminal with a device, in process', async () => {
    const vp = await virtualPrinter({ printer: PRINTER, state: { slow: 2000 } });
    const t = await h.addTerminal(['--device', vp.address]);
    const job = await h.insert(t.id, NFCE);
    const printed = await h.until(job.id, done, 40_000);
    expect(printed).toMatchObject({ confirmacao: 'printer', tentativas: 1 });
    expect(states(printed)).toEqual(['queued', 'acquired', 'printing', 'completed']);
    expect(vp.jobs).toHaveLength(1);
  }, 60_000);

  it('tells the job and its webhook that the paper ran out in the middle, and the printer prints it once when paper is back', async () => {
    const vp = await virtualPrinter({ printer: PRINTER, state: { slow: 2000 } });
    const t = await h.addTerminal();
    // The printer holds the job and says nothing; the agent stops waiting for its word after 10 s
    // (the paper runs out long before: the printer needs 8.5 s to read the job).
    h.agent(t, vp.address, ['--confirm-timeout', '10']);
    const job = await h.insert(t.id, NFCE);
    await h.until(job.id, (i) => i.estado === 'printing');
    await waitFor(() => vp.received > 400, 20_000, 'the printer to be reading the job');
    await vp.setState({ paper: 'out' });
    const held = await h.until(job.id, stopped, 40_000);
    expect(held.motivos).toEqual(['outcome-unknown', 'media-empty']);
    expect(held.tentativas).toBe(1);
    expect(states(held)).toEqual(['queued', 'acquired', 'printing', 'stopped(outcome-unknown,media-empty)']);
    await waitFor(() => notices(job.id).length === 1, 10_000, 'the stopped notice');
    expect(notices(job.id)).toEqual([['stopped', ['outcome-unknown', 'media-empty']]]);
    expect(vp.jobs).toHaveLength(0);
    await vp.setState({ paper: 'ok', slow: 0 });
    const [paper] = await vp.waitForJobs(1, 20_000);
    expect(Buffer.from(paper!.bytes).equals(h.bytesOf(NFCE))).toBe(true);
    await sleep(500);
    expect(vp.jobs).toHaveLength(1);
    // It waits for a person (printed or not, only someone at the printer knows).
    expect((await h.getById(job.id)).estado).toBe('stopped');
  }, 90_000);

  it('when the agent is killed with SIGKILL in the middle: printed once, and the restarted agent reports the printer\'s reasons', async () => {
    const vp = await virtualPrinter({ printer: PRINTER, state: { slow: 2000 } });
    const t = await h.addTerminal();
    const first = h.agent(t, vp.address);
    const job = await h.insert(t.id, NFCE);
    await h.until(job.id, (i) => i.estado === 'printing');
    await waitFor(() => vp.received > 2000, 20_000, 'the printer to be reading the job');
    await vp.setState({ paper: 'out' });
    process.kill(first.process.pid!, 'SIGKILL');
    await first.exited;
    // The holder is dead: its lease runs out and the job is offered again, to the same journal.
    h.agent(t, vp.address);
    const held = await h.until(job.id, stopped, 40_000);
    expect(held.motivos).toEqual(['outcome-unknown', 'media-empty']);
    expect(states(held)).toEqual(['queued', 'acquired', 'printing', 'queued(lease-expired)', 'acquired', 'stopped(outcome-unknown,media-empty)']);
    await waitFor(() => notices(job.id).length === 1, 10_000, 'the stopped notice');
    expect(notices(job.id)).toEqual([['stopped', ['outcome-unknown', 'media-empty']]]);
    await vp.setState({ paper: 'ok', slow: 0 });
    await vp.waitForJobs(1, 20_000);
    await sleep(500);
    expect(vp.jobs).toHaveLength(1);
    expect((await h.getById(job.id)).estado).toBe('stopped');
  }, 90_000);
});
