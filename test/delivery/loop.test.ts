// The delivery loop against a scripted service (a TerminalLink in memory) and a virtual printer:
// what it does with what the service says, where a real service would not say it (the service stops
// such jobs itself; the loop is the second guard).
import { afterEach, describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { DeliveryLoop, type TerminalLink, type TerminalOffer, type TerminalReport, type TerminalState } from '../../src/delivery/loop.js';
import { virtualPrinter } from './helpers.js';

const loops: DeliveryLoop[] = [];
afterEach(async () => {
  await Promise.all(loops.splice(0).map((l) => l.stop()));
});

/** A service that hands out `offers` one by one, then nothing; `terminal` is what it says of the terminal. */
function scripted(offers: TerminalOffer[], terminal: TerminalState) {
  const reports: TerminalReport[] = [];
  const link: TerminalLink = {
    async next(waitMs, signal) {
      const offer = offers.shift();
      if (!offer) await new Promise((r) => (signal.aborted ? r(undefined) : setTimeout(r, Math.min(waitMs, 50))));
      return { ...(offer ? { offer } : {}), terminal };
    },
    report: async (r) => (reports.push(r), { aceito: true }),
    renew: async () => ({ aceito: true }),
    resume: async () => 0,
  };
  return { link, reports };
}

describe('the delivery loop', () => {
  it('never sends a job compiled for another printer than the terminal\'s: it reports printer-mismatch', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const bytes = compile('Antiga<paperCutFull>', { printer: 'MAKER1MP4200' }).bytes;
    const { link, reports } = scripted([{ id: 1, token: 't', codigoImpressora: 'MAKER1MP4200', bytes, reprint: false, tentativas: 1 }], { codigoImpressora: 'MAKER5T20', parados: 0 });
    const loop = new DeliveryLoop(link, { device: vp.address, retryMs: 20, waitMs: 50 });
    loops.push(loop);
    void loop.start();
    await expect.poll(() => reports.length, { timeout: 5000 }).toBe(1);
    expect(reports[0]).toMatchObject({ id: 1, token: 't', estado: 'stopped', motivos: ['printer-mismatch'], detalhe: "compiled for MAKER1MP4200; the terminal's printer is MAKER5T20" });
    await new Promise((r) => setTimeout(r, 200));
    expect(vp.received).toBe(0);
    expect(vp.jobs).toHaveLength(0);
  });

  it('does not poll again at once after an empty answer that came long before the wait it asked for: at most one a second, never a busy loop', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    let polls = 0;
    const link: TerminalLink = {
      // As the service answers a terminal's poll past the few it lets wait: at once, with nothing.
      next: async () => {
        polls++;
        await new Promise((r) => setImmediate(r)); // an answer comes from the network, not at once in memory
        return { terminal: { codigoImpressora: 'MAKER5T20', parados: 0 } };
      },
      report: async () => ({ aceito: true }),
      renew: async () => ({ aceito: true }),
      resume: async () => 0,
    };
    const loop = new DeliveryLoop(link, { device: vp.address, retryMs: 20, waitMs: 30_000, heartbeatMs: 0 });
    loops.push(loop);
    void loop.start();
    await new Promise((r) => setTimeout(r, 600));
    await loop.stop();
    // The first poll at start (which waits for nothing), and the next; a busy loop made thousands.
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(3);
  });

  it('delivers and reports a job whose offer came as it was told to stop, then stops', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const bytes = compile('Última<paperCutFull>', { printer: 'MAKER5T20' }).bytes;
    const reports: TerminalReport[] = [];
    let polls = 0;
    let loop: DeliveryLoop;
    const link: TerminalLink = {
      async next() {
        // The second poll (the first waits for nothing, at start) answers with a job, just after stop() was called.
        if (++polls < 2) return { terminal: { codigoImpressora: 'MAKER5T20', parados: 0 } };
        void loop.stop();
        return { offer: { id: 7, token: 't7', codigoImpressora: 'MAKER5T20', bytes, reprint: false, tentativas: 1 }, terminal: { codigoImpressora: 'MAKER5T20', parados: 0 } };
      },
      report: async (r) => (reports.push(r), { aceito: true }),
      renew: async () => ({ aceito: true }),
      resume: async () => 0,
    };
    loop = new DeliveryLoop(link, { device: vp.address, retryMs: 20, waitMs: 50, heartbeatMs: 0 });
    await loop.start();
    expect(reports.map((r) => [r.id, r.estado])).toEqual([[7, 'printing'], [7, 'completed']]);
    expect(vp.jobs).toHaveLength(1);
    expect(Buffer.from(vp.jobs[0]!.bytes).equals(Buffer.from(bytes))).toBe(true);
  });
});
