// The client's heartbeat against a scripted service (a TerminalLink in memory) and a virtual printer
// behind a recording proxy: the heartbeat says the printer's state while idle, and while a job is
// being written it says what was read before the job, never asking the printer in the middle of it.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compile } from '../../src/index.js';
import { Heartbeat, MIN_HEARTBEAT_MS } from '../../src/delivery/heartbeat.js';
import { DeliveryLoop, type ClientHealth, type TerminalLink, type TerminalOffer, type TerminalReport } from '../../src/delivery/loop.js';
import { virtualPrinter } from './helpers.js';

const loops: DeliveryLoop[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(loops.splice(0).map((l) => l.stop()));
  for (const s of servers.splice(0)) s.close();
});

interface Connection {
  opened: number;
  closed: number | undefined;
  sent: Buffer;
}

/** A proxy in front of the printer that keeps, per connection, when it was open and what the client sent. */
async function recordingProxy(port: number) {
  const connections: Connection[] = [];
  let clock = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const c: Connection = { opened: ++clock, closed: undefined, sent: Buffer.alloc(0) };
    connections.push(c);
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (d: Buffer) => {
      c.sent = Buffer.concat([c.sent, d]);
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => client.write(d));
    const end = () => {
      c.closed ??= ++clock;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { address: `tcp://127.0.0.1:${address.port}`, connections, close: () => sockets.forEach((s) => s.destroy()) };
}

/** A service that hands out `offers` one by one (each once asked `after` polls), and records heartbeats and polls' health. */
function scripted(offers: TerminalOffer[], codigoImpressora: string) {
  const reports: TerminalReport[] = [];
  const signals: ClientHealth[] = [];
  const polls: (ClientHealth | undefined)[] = [];
  const link: TerminalLink = {
    async next(waitMs, signal, health) {
      polls.push(health);
      const offer = offers.shift();
      if (!offer) await new Promise((r) => (signal.aborted ? r(undefined) : setTimeout(r, Math.min(waitMs, 50))));
      return { ...(offer ? { offer } : {}), terminal: { codigoImpressora, parados: 0 } };
    },
    report: async (r) => (reports.push(r), { aceito: true }),
    renew: async () => ({ aceito: true }),
    resume: async () => 0,
    signal: async (h) => void signals.push(h),
  };
  return { link, reports, signals, polls };
}

describe('the heartbeat', () => {
  it("says the printer's state while idle, and the polls carry it", async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const { link, signals, polls } = scripted([], 'MAKER5T20');
    const loop = new DeliveryLoop(link, { device: vp.address, retryMs: 20, waitMs: 50, heartbeatMs: 20, agentVersion: '9.9.9' });
    loops.push(loop);
    void loop.start();
    await expect.poll(() => signals.at(-1)?.printer, { timeout: 5000 }).toEqual({ ready: true, reasons: [] });
    expect(signals.at(-1)?.agentVersion).toBe('9.9.9');
    await vp.setState({ paper: 'out' });
    await expect.poll(() => signals.at(-1)?.printer, { timeout: 5000 }).toEqual({ ready: false, reasons: ['media-empty'] });
    await expect.poll(() => polls.at(-1)?.printer, { timeout: 5000 }).toEqual({ ready: false, reasons: ['media-empty'] });
    await vp.setState({ paper: 'ok' });
    await expect.poll(() => signals.at(-1)?.printer, { timeout: 5000 }).toEqual({ ready: true, reasons: [] });
  });

  it('never asks the printer while a job is being written: the job goes whole on a connection of its own', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20' });
    const proxy = await recordingProxy(vp.port);
    // A job long enough to take a while on a slow printer, written in small chunks.
    const bytes = compile(`${'linha de texto para o teste\n'.repeat(60)}<paperCutFull>`, { printer: 'MAKER5T20' }).bytes;
    const { link, reports, signals } = scripted([], 'MAKER5T20');
    const loop = new DeliveryLoop(link, { device: proxy.address, retryMs: 20, waitMs: 50, heartbeatMs: 10, printer: { chunkBytes: 32 } });
    loops.push(loop);
    void loop.start();
    // Idle heartbeats read the printer first.
    await expect.poll(() => signals.length, { timeout: 5000 }).toBeGreaterThan(2);
    await vp.setState({ slow: Math.ceil(bytes.length * 2) }); // about half a second for the job
    const before = signals.length;
    (link as { next: TerminalLink['next'] }).next = (() => {
      const next = link.next.bind(link);
      let given = false;
      return async (waitMs, signal, health) => {
        if (given) return next(waitMs, signal, health);
        given = true;
        return { offer: { id: 1, token: 't', codigoImpressora: 'MAKER5T20', bytes, reprint: false, tentativas: 1 }, terminal: { codigoImpressora: 'MAKER5T20', parados: 0 } };
      };
    })();
    await expect.poll(() => reports.find((r) => r.estado === 'completed'), { timeout: 10_000 }).toBeTruthy();
    // Heartbeats went on while the job was written (with the state read before it)…
    expect(signals.length).toBeGreaterThan(before);
    // …and the connection that carried the job carried it whole, no other connection open beside it.
    const job = proxy.connections.find((c) => c.sent.indexOf(Buffer.from(bytes)) >= 0);
    expect(job, 'a connection carried the whole job contiguously').toBeDefined();
    const overlapping = proxy.connections.filter((c) => c !== job && c.opened < (job!.closed ?? Infinity) && (c.closed ?? Infinity) > job!.opened);
    expect(overlapping).toEqual([]);
    proxy.close();
  });
});

describe('the heartbeat follows the interval the service asks for', () => {
  afterEach(() => vi.useRealTimers());

  /** A Heartbeat of `maxMs` on fake timers, started at 0: the times (ms) it beat at. */
  function started(maxMs: number) {
    vi.useFakeTimers({ now: 0 });
    const beats: number[] = [];
    const h = new Heartbeat(maxMs, async () => void beats.push(Date.now()), () => {});
    h.start();
    return { h, beats };
  }

  it('beats as often as the service asks when that is more often, a pending beat brought forward', async () => {
    const { h, beats } = started(15_000);
    await vi.advanceTimersByTimeAsync(4_000);
    h.follow(5_000);
    await vi.advanceTimersByTimeAsync(12_000);
    expect(beats).toEqual([5_000, 10_000, 15_000]);
    await h.stop();
  });

  it('keeps its own interval when the service asks for a longer one, or for nothing it can use', async () => {
    const { h, beats } = started(10_000);
    for (const asked of [60_000, 0, -5, Number.NaN, Number.POSITIVE_INFINITY]) h.follow(asked);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(beats).toEqual([10_000, 20_000, 30_000]);
    await h.stop();
  });

  it('takes one second at the least from a service, and never beats when it has no heartbeat', async () => {
    const { h, beats } = started(15_000);
    h.follow(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(beats).toEqual([MIN_HEARTBEAT_MS, 2 * MIN_HEARTBEAT_MS, 3 * MIN_HEARTBEAT_MS]);
    await h.stop();
    const off = started(0);
    off.h.follow(1_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(off.beats).toEqual([]);
    await off.h.stop();
  });

  it('a client whose own interval is shorter than a second keeps it', async () => {
    const { h, beats } = started(200);
    h.follow(5_000);
    await vi.advanceTimersByTimeAsync(600);
    expect(beats).toEqual([200, 400, 600]);
    await h.stop();
  });
});
