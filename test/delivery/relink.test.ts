// Issue 20 §2: a terminal linked to another printer while it has jobs compiled for the old one. The
// agent follows the terminal's printer now: no byte of an old job and no status query in the old
// printer's dialect reaches the new printer (the virtual printer would take either for a job), the
// old job stops with `printer-mismatch` and is compiled again with Recompilar, and later jobs are not
// held back. Waiting on a stopped printer ends when the job it waits for is canceled. Real
// processes on 127.0.0.1, on both stores; every process is killed by pid.
import { beforeAll, describe, expect, it } from 'vitest';
import { virtualPrinter } from './helpers.js';
import { serviceHarness, sleep, states, waitFor, type Intencao } from './service-harness.js';

const h = serviceHarness({ printer: 'MAKER5T20', serveFlags: ['--lease', '2s'] });
const done = (i: Intencao) => i.estado === 'completed';

beforeAll(async () => {
  await h.start();
}, 30_000);

// Both suites, and the cases in each, run at once: each case has its own terminal, printer and
// agent (helpers.ts cleans up after the last); most of each is waiting.
describe.concurrent('a terminal linked to another printer', () => {
  it('never sends a job compiled for its old printer: it stops with printer-mismatch, later jobs print, Recompilar prints it for the new one', async () => {
    const t = await h.addTerminal([], 'MAKER1MP4200');
    const old = await h.insert(t.id, 'Antiga<paperCutFull>');
    expect(old.codigoImpressora).toBe('MAKER1MP4200');
    // The shop replaces its MP-4200 with a TM-T20 and links the terminal to it (its key stays).
    await h.cliAsync('terminals', 'add', '--email', h.email, '--terminal', t.id, '--printer', 'MAKER5T20');
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    h.agent(t, vp.address);
    const later = await h.insert(t.id, 'Nova<paperCutFull>');

    const stopped = await h.until(old.id, (i) => i.estado === 'stopped');
    expect(stopped).toMatchObject({ status: 'ImpressaoEnviada', motivos: ['printer-mismatch'], tentativas: 0 });
    expect(stopped.historico.at(-1)).toMatchObject({ estado: 'stopped', evento: 'printer-mismatch', origem: 'server' });
    expect(stopped.historico.at(-1)!.detalhe).toMatch(/compiled for MAKER1MP4200, and terminal PDV-\d+ prints on MAKER5T20/);
    expect(states(await h.until(later.id, done))).toEqual(['queued', 'acquired', 'printing', 'completed']);
    await sleep(500);
    // Only the new job reached the printer: nothing of the old one, and no MP-4200 status query.
    expect(vp.jobs.map((j) => Buffer.from(j.bytes))).toEqual([h.bytesOf('Nova<paperCutFull>')]);

    const recompiled = await h.api('POST', `/IntencaoImpressao/Recompilar?intencaoImpressaoId=${old.id}`);
    expect(recompiled.status).toBe(200);
    expect(recompiled.json.intencaoImpressao).toMatchObject({ impressoraId: 5, codigoImpressora: 'MAKER5T20', tamanhoBytes: h.bytesOf('Antiga<paperCutFull>').length });
    const printed = await h.until(old.id, done);
    expect(states(printed)).toEqual(['queued', 'stopped(printer-mismatch)', 'queued', 'acquired', 'printing', 'completed']);
    expect(printed.historico[2]!.detalhe).toBe('compiled again for MAKER5T20 (it was compiled for MAKER1MP4200)');
    expect(vp.jobs.map((j) => Buffer.from(j.bytes))).toEqual([h.bytesOf('Nova<paperCutFull>'), h.bytesOf('Antiga<paperCutFull>')]);
    // A job already printed is not compiled again.
    const again = await h.api('POST', `/IntencaoImpressao/Recompilar?intencaoImpressaoId=${old.id}`);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'job-not-recompilable' });
  }, 60_000);

  it('lets the partner cancel a job stopped with printer-mismatch', async () => {
    const t = await h.addTerminal([], 'MAKER1MP4200');
    const old = await h.insert(t.id, 'Cancelada<paperCutFull>');
    await h.cliAsync('terminals', 'add', '--email', h.email, '--terminal', t.id, '--printer', 'MAKER5T20');
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    h.agent(t, vp.address);
    await h.until(old.id, (i) => i.estado === 'stopped');
    const canceled = await h.api('POST', `/IntencaoImpressao/Cancelar?intencaoImpressaoId=${old.id}`);
    expect(canceled.json.intencaoImpressao).toMatchObject({ status: 'Cancelado', estado: 'canceled' });
    expect(vp.jobs).toHaveLength(0);
  }, 60_000);
});

describe.concurrent('waiting on a stopped printer', () => {
  it('ends when the job it waits for is canceled: the agent stops asking the printer and takes jobs again', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20', state: { paper: 'out' } });
    const t = await h.addTerminal();
    const agent = h.agent(t, vp.address);
    const job = await h.insert(t.id, 'Sem papel<paperCutFull>');
    expect((await h.until(job.id, (i) => i.estado === 'stopped')).motivos).toEqual(['media-empty']);
    // The agent asks the printer again and again (every --retry-ms, 100 ms here).
    const asking = vp.received;
    await waitFor(() => vp.received > asking + 30, 10_000, 'the agent to ask the printer again');
    expect((await h.api('POST', `/IntencaoImpressao/Cancelar?intencaoImpressaoId=${job.id}`)).json.intencaoImpressao.estado).toBe('canceled');
    await agent.errLine(/no job waits for the printer any more/);
    const asked = vp.received;
    await sleep(1000);
    expect(vp.received).toBe(asked);
    await vp.setState({ paper: 'ok' });
    const next = await h.insert(t.id, 'Com papel<paperCutFull>');
    await h.until(next.id, done);
    expect(vp.jobs.map((j) => Buffer.from(j.bytes))).toEqual([h.bytesOf('Com papel<paperCutFull>')]);
  }, 60_000);
});
