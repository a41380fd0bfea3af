// Background workers follow the app: started once it is ready, stopped when it closes and before
// the store behind them is closed; a periodic worker never overlaps its ticks and survives a failing one.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { openSqliteStore } from '../../src/server/store/sqlite.js';
import { periodic, type BackgroundWorker } from '../../src/server/workers/worker.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('background workers', () => {
  it('start when the app is ready and stop when it closes, before the store is closed', async () => {
    const events: string[] = [];
    const worker: BackgroundWorker = {
      name: 'probe',
      start: () => void events.push('start'),
      stop: async () => void events.push('stop'),
    };
    const store = openSqliteStore(':memory:');
    const app = await buildApp({ store, logLevel: 'silent', workers: [worker] });
    // What `bobina serve` does: the store closes in an onClose hook added after buildApp.
    app.addHook('onClose', async () => {
      events.push('store closed');
      await store.close();
    });
    expect(events).toEqual([]);
    await app.ready();
    expect(events).toEqual(['start']);
    await app.close();
    expect(events).toEqual(['start', 'stop', 'store closed']);
  });

  it('run a periodic tick without overlap, log a failing tick and go on, and wait for a running tick on stop', async () => {
    let running = 0;
    let most = 0;
    let ticks = 0;
    const warnings: string[] = [];
    const w = periodic('probe', 5, async () => {
      running++;
      most = Math.max(most, running);
      ticks++;
      await sleep(15);
      running--;
      if (ticks === 2) throw new Error('tick failed');
    });
    w.start({ ...quiet, warn: (_o: object, msg: string) => void warnings.push(msg) });
    while (ticks < 4) await sleep(5);
    await w.stop();
    expect(running).toBe(0);
    expect(most).toBe(1);
    expect(warnings).toEqual(['background worker tick failed']);
    const after = ticks;
    await sleep(30);
    expect(ticks).toBe(after);
  });
});
