// Status from profile data: every template's queries against a virtual printer speaking the same
// dialect, in every state, over real sockets on 127.0.0.1; and the reply bits read and written by
// the same rules.
import { describe, expect, it } from 'vitest';
import { listProfiles, loadProfile, profileSources } from '../../src/index.js';
import { normaliseReasons, openPrinter, stopsPrinting, type VirtualState } from '../../src/delivery/index.js';
import { readReply, statusPlan, writeReply, isGenuineReply } from '../../src/delivery/status.js';
import { virtualPrinter } from './helpers.js';

const withStatus = listProfiles().filter((p) => p.status);

const STATES: [Partial<VirtualState>, string[], boolean][] = [
  [{}, [], true],
  [{ paper: 'low' }, ['media-low'], true],
  [{ paper: 'out' }, ['media-empty'], false],
  [{ cover: 'open' }, ['cover-open'], false],
  [{ error: true }, ['other'], false],
  [{ paper: 'out', cover: 'open' }, ['media-empty', 'cover-open'], false],
];

describe('status from profile data', () => {
  it('gives every template but the generic one status queries, each reply rule with a source', () => {
    expect(listProfiles().filter((p) => !p.status).map((p) => p.code)).toEqual(['GENERICA']);
    for (const p of withStatus) {
      expect(profileSources(p)['status']).toBeDefined();
      for (const q of p.status!.queries) expect(q.idle.split(' ')).toHaveLength(q.replyLength);
    }
    expect(loadProfile('MAKER5T20').status!.confirm).toBeTruthy();
    expect(listProfiles().filter((p) => p.status?.confirm).map((p) => p.code)).toEqual(['MAKER5T20']);
  });

  it.each(withStatus.map((p) => p.code))('%s: reads back, from its own reply bits, every state the virtual printer is in', async (code) => {
    const vp = await virtualPrinter({ printer: code });
    for (const [state, reasons, ready] of STATES) {
      await vp.setState({ paper: 'ok', cover: 'closed', error: false, ...state });
      const session = openPrinter(vp.address, code);
      const status = await session.status();
      await session.close();
      expect({ state, reasons: status.reasons, ready: status.ready, available: status.available }).toEqual({ state, reasons, ready, available: true });
    }
  });

  it('says offline, with the cause, when the port refuses connections or the printer stops answering', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER4I9' });
    const port = vp.port;
    await vp.setState({ offline: 'refuse' });
    const refused = await openPrinter(`tcp://127.0.0.1:${port}`, 'MAKER4I9').status();
    expect(refused).toMatchObject({ ready: false, reasons: ['offline'], error: { code: 'refused', started: false } });

    await vp.setState({ offline: 'silent' });
    const session = openPrinter(vp.address, 'MAKER4I9', { statusTimeoutMs: 150 });
    const silent = await session.status();
    await session.close();
    expect(silent).toMatchObject({ ready: false, reasons: ['offline'], detail: 'no answer to 10 04 01 within 150 ms' });

    await vp.setState({ offline: 'no' });
    expect((await openPrinter(vp.address, 'MAKER4I9').status()).ready).toBe(true);
  });

  it('has no status for the generic template, and says so rather than guessing', async () => {
    const vp = await virtualPrinter({ printer: 'GENERICA' });
    const status = await openPrinter(vp.address, 'GENERICA').status();
    expect(status).toMatchObject({ available: false, ready: true, reasons: [] });
  });

  it('sends the MP-4200 its switch to ESC/POS before asking, and the virtual printer does not take it for a job', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER1MP4200', state: { paper: 'low' } });
    const session = openPrinter(vp.address, 'MAKER1MP4200');
    expect((await session.status()).reasons).toEqual(['media-low']);
    await session.close();
    expect(vp.jobs).toHaveLength(0);
  });

  it('lets a profile override turn the queries or the confirmation off', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20', state: { paper: 'out' } });
    expect(await openPrinter(vp.address, { extends: 'MAKER5T20', status: null }).status()).toMatchObject({ available: false, ready: true });
    await vp.setState({ paper: 'ok' });
    const noConfirm = { extends: 'MAKER5T20', status: { confirm: null } } as const;
    expect(loadProfile(noConfirm).status!.queries).toHaveLength(3);
    expect(await openPrinter(vp.address, noConfirm).print(Uint8Array.of(0x1b, 0x40, 0x41, 0x0a))).toMatchObject({ confirmacao: 'sent', confirmation: 'not-requested' });
  });

  it('writes and reads reply bits by the same rules, and rejects replies without the fixed bits', () => {
    for (const p of withStatus) {
      for (const q of statusPlan(p)!.queries) {
        for (const r of q.rules) {
          const reply = writeReply(q, new Set([r.reason]));
          expect(readReply(q, reply)).toContain(r.reason);
          expect(isGenuineReply(q, reply)).toBe(true);
        }
        expect(readReply(q, q.idle)).toEqual([]);
      }
    }
    const epson = statusPlan(loadProfile(5))!.queries[0]!;
    expect(isGenuineReply(epson, Uint8Array.of(0x12))).toBe(true);
    expect(isGenuineReply(epson, Uint8Array.of(0x37))).toBe(false);
  });

  it('drops "offline" when the printer says why it is offline, and only media-low lets a job through', () => {
    expect(normaliseReasons(['offline', 'media-empty', 'media-low', 'media-empty'])).toEqual(['media-empty', 'media-low']);
    expect(normaliseReasons(['offline', 'media-low'])).toEqual(['offline', 'media-low']);
    expect(stopsPrinting(['media-low'])).toBe(false);
    expect(stopsPrinting(['media-low', 'cover-open'])).toBe(true);
  });
});
