// Issue 20 §4: the virtual printer reads at its own pace from the socket itself, and a printer that
// goes away (offline refuse) tears the job in progress: it keeps only the bytes it had read, and
// reads nothing more. Raw sockets on 127.0.0.1, as any client would write.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { fixture, virtualPrinter, waitFor } from './helpers.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

async function writer(port: number, bytes: Uint8Array, end = false): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(bytes);
  if (end) socket.end();
  return socket;
}

const NFCE = compile(fixture('nfce.txt'), { printer: 'MAKER5T20' }).bytes;

describe('the virtual printer', () => {
  it('tears a job in progress when it goes offline (refuse): only the bytes it had read, complete: false', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20', state: { slow: 2000 } });
    // The whole job is handed to the socket at once, and the client closes: only the printer's pace holds it back.
    await writer(vp.port, NFCE, true);
    await waitFor(() => vp.received > 1000, 10_000, 'the printer to be reading the job');
    await vp.setState({ offline: 'refuse' });
    const read = vp.received;
    expect(read).toBeLessThan(NFCE.length);
    await new Promise((r) => setTimeout(r, 300));
    expect(vp.received).toBe(read);
    // Back online, it prints what it had.
    await vp.setState({ offline: 'no' });
    const [torn] = await vp.waitForJobs(1, 5000);
    expect(torn).toMatchObject({ endedBy: 'reset', complete: false, size: read });
    expect(Buffer.from(torn!.bytes).equals(Buffer.from(NFCE.subarray(0, read)))).toBe(true);
  });

  it('reads a slow job to its end, and only then sees the client close: the job is complete', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20', state: { slow: 20_000 } });
    await writer(vp.port, NFCE, true);
    const [job] = await vp.waitForJobs(1, 10_000);
    expect(job).toMatchObject({ endedBy: 'close', complete: true, size: NFCE.length });
    expect(vp.received).toBe(NFCE.length);
  });

  it('reads nothing while silent, and everything once back', async () => {
    const vp = await virtualPrinter({ printer: 'MAKER5T20', state: { offline: 'silent' } });
    await writer(vp.port, NFCE, true);
    await new Promise((r) => setTimeout(r, 300));
    expect(vp.received).toBe(0);
    await vp.setState({ offline: 'no' });
    const [job] = await vp.waitForJobs(1, 5000);
    expect(job).toMatchObject({ complete: true, size: NFCE.length });
  });
});
