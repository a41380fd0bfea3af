// End-of-print confirmation (Epson GS ( H fn 48, in the TM-T20 profile): the printer echoes the
// process id once the job has printed; a printer that stops mid-way does not, and delivery says
// the outcome is unknown instead of "printed".
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { deliver, Journal, openPrinter } from '../../src/delivery/index.js';
import { fixture, tempDir, virtualPrinter } from './helpers.js';

const bytes = compile(fixture('small.txt'), { printer: 'MAKER5T20' }).bytes;

describe('end-of-print confirmation', () => {
  it('sends the process id after the job and reports "printer" when the printer echoes it', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const outcome = await openPrinter(vp.address, 'MAKER5T20').print(bytes, { processId: 'AB12' });
    expect(outcome).toEqual({ written: bytes.length, confirmacao: 'printer', confirmation: 'received', motivos: [] });
    expect(vp.jobs).toHaveLength(1);
    expect(Buffer.from(vp.jobs[0]!.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('reports media-low seen after a confirmed job', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20', state: { paper: 'low' } });
    const result = await deliver(openPrinter(vp.address, 'MAKER5T20'), { id: '1', token: 't', bytes });
    expect(result).toMatchObject({ outcome: 'completed', confirmacao: 'printer', motivos: ['media-low'] });
  });

  it('says "sent" without asking when told not to confirm, and for printers that cannot', async () => {
    const t20 = await virtualPrinter({ printer: 'MAKER5T20' });
    expect(await openPrinter(t20.address, 'MAKER5T20').print(bytes, { confirm: false })).toMatchObject({ confirmacao: 'sent', confirmation: 'not-requested' });
    const i9 = await virtualPrinter({ printer: 'MAKER4I9' });
    expect(await openPrinter(i9.address, 'MAKER4I9').print(bytes)).toMatchObject({ confirmacao: 'sent', confirmation: 'not-requested' });
    expect([t20.jobs.length, i9.jobs.length]).toEqual([1, 1]);
  });

  it('waits for a job held by a printer out of paper, then calls the outcome unknown; the job prints once paper is back', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const session = openPrinter(vp.address, 'MAKER5T20', { confirmTimeoutMs: 300 });
    expect((await session.status()).ready).toBe(true);
    // The paper runs out between the status check and the job: the printer keeps the job and stays silent.
    await vp.setState({ paper: 'out' });
    const outcome = await session.print(bytes);
    expect(outcome).toMatchObject({ confirmacao: 'sent', confirmation: 'timed-out', motivos: ['media-empty'] });
    expect(vp.jobs).toHaveLength(0);
    expect(vp.held).toBe(1);
    await vp.setState({ paper: 'ok' });
    const jobs = await vp.waitForJobs(1, 2000);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.complete).toBe(true);
  });

  it('turns that into outcome-unknown in deliver(), with the reason', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const session = openPrinter(vp.address, 'MAKER5T20', { confirmTimeoutMs: 300 });
    const status = session.status.bind(session);
    let calls = 0;
    // The first status check finds the printer ready; the paper runs out right after it.
    session.status = async () => {
      const s = await status();
      if (calls++ === 0) await vp.setState({ paper: 'out' });
      return s;
    };
    const journal = Journal.open(tempDir());
    const result = await deliver(session, { id: '7', token: 't', bytes }, { journal });
    expect(result).toMatchObject({ outcome: 'outcome-unknown', motivos: ['outcome-unknown', 'media-empty'] });
    // Offered again (a lost report): the journal keeps it from printing twice, and the printer's
    // reasons, then and now, go with it.
    const again = await deliver(openPrinter(vp.address, 'MAKER5T20'), { id: '7', token: 't2', bytes }, { journal });
    expect(again).toMatchObject({ outcome: 'outcome-unknown', motivos: ['outcome-unknown', 'media-empty'], fromJournal: true });
    journal.close();
    await vp.setState({ paper: 'ok' });
    await vp.waitForJobs(1, 2000);
    expect(vp.jobs).toHaveLength(1);
  });
});
