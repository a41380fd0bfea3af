// Issue 20 §3: an agent restarted right after a crash. The crashed agent's journal lock is taken
// over even while that agent is a zombie (killed, not yet reaped: `kill(pid, 0)` still succeeds),
// a lock held by a live agent is waited for with a message instead of an exit, and the service's
// direct delivery does the same with its journals. Real processes on 127.0.0.1 (a zombie made by a
// parent that never reaps), on both stores; every process is killed by pid.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { child, DELIVERY_DIST, procState, unreapedChild, virtualPrinter } from './helpers.js';
import { serviceHarness, sleep, waitFor, type Intencao } from './service-harness.js';

const WRITER = join(import.meta.dirname, 'children', 'journal-writer.mjs');
const h = serviceHarness({ printer: 'MAKER5T20', serveFlags: ['--lease', '2s'] });
const done = (i: Intencao) => i.estado === 'completed';

beforeAll(async () => {
  await h.start();
}, 30_000);

/** Kills `pid` with SIGKILL and waits until it is a zombie (its parent never reaps it). */
async function killToZombie(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  await waitFor(() => procState(pid) === 'Z', 5000, `process ${pid} to be a zombie`);
  expect(() => process.kill(pid, 0)).not.toThrow();
}

// The two suites, and the cases in each, run at once: each case has its own terminal, journal,
// printer and processes (helpers.ts cleans up after the last); most of each is waiting.
describe.concurrent('bobina agent restarted', () => {
  it('right after a crash, takes over the journal while the crashed agent is still a zombie, and prints', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const t = await h.addTerminal();
    const stateDir = join(h.dir, t.id);
    const crashed = await unreapedChild([CLI, 'agent', '--url', h.base, '--key', t.key, '--terminal', t.id, '--device', vp.address, '--state-dir', stateDir, '--retry-ms', '100']);
    await crashed.parent.errLine(/taking jobs/);
    await killToZombie(crashed.pid);
    const restarted = h.agent(t, vp.address, [], stateDir);
    await restarted.errLine(/taking jobs/);
    const job = await h.insert(t.id, 'Depois da queda<paperCutFull>');
    await h.until(job.id, done);
    expect(vp.jobs).toHaveLength(1);
    expect(restarted.process.exitCode).toBeNull();
  }, 60_000);

  it('while the old agent still runs, waits for it with a message instead of exiting, and takes over once it stops', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const t = await h.addTerminal();
    const stateDir = join(h.dir, t.id);
    const old = h.agent(t, vp.address, [], stateDir);
    await old.errLine(/taking jobs/);
    const next = h.agent(t, vp.address, [], stateDir);
    await next.errLine(new RegExp(`in use by process ${old.process.pid} .*waiting for it to stop`));
    await sleep(1500);
    expect(next.process.exitCode).toBeNull();
    expect(next.stderr()).not.toMatch(/taking jobs/);
    expect(next.stderr().match(/waiting for it to stop/g)).toHaveLength(1);
    process.kill(old.process.pid!, 'SIGTERM');
    expect((await old.exited).code).toBe(0);
    await next.errLine(/taking jobs/);
    const job = await h.insert(t.id, 'Com o novo agente<paperCutFull>');
    await h.until(job.id, done);
    expect(vp.jobs).toHaveLength(1);
  }, 60_000);
});

describe.concurrent('direct delivery', () => {
  it('takes over a journal left locked by a zombie, and delivers', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const t = await h.addTerminal();
    const holder = await unreapedChild([WRITER, DELIVERY_DIST, await h.journalDir(t.id), 'hold']);
    await holder.parent.line(/^hold ok$/);
    await killToZombie(holder.pid);
    await h.cliAsync('terminals', 'add', '--email', h.email, '--terminal', t.id, '--printer', 'MAKER5T20', '--device', vp.address);
    const job = await h.insert(t.id, 'Direto<paperCutFull>');
    await h.until(job.id, done, 30_000);
    expect(vp.jobs).toHaveLength(1);
  }, 60_000);

  it('waits for a journal a live process holds, saying so once, and delivers once it has gone', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const t = await h.addTerminal();
    const holder = child([WRITER, DELIVERY_DIST, await h.journalDir(t.id), 'hold']);
    await holder.line(/^hold ok$/);
    await h.cliAsync('terminals', 'add', '--email', h.email, '--terminal', t.id, '--printer', 'MAKER5T20', '--device', vp.address);
    const job = await h.insert(t.id, 'Espera<paperCutFull>');
    const said = () => h.log().split('\n').filter((l) => l.includes(`is in use by process ${holder.process.pid}; waiting for it`));
    await waitFor(() => said().length > 0, 15_000, `the service to say it waits for the journal; it said: ${h.log()}`);
    // Direct delivery looks again every 3 s: two more looks, still one line.
    await sleep(7000);
    expect(said()).toHaveLength(1);
    expect((await h.getById(job.id)).estado).toBe('queued');
    process.kill(holder.process.pid!, 'SIGKILL');
    await h.until(job.id, done, 30_000);
    expect(vp.jobs).toHaveLength(1);
  }, 60_000);
});
