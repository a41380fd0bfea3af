// file:PATH: a printer device such as /dev/usb/lp0 (or a plain file, for testing a setup). A
// character device is opened for reading too, so a bidirectional printer can answer status
// queries; a plain file or a FIFO is write-only and says its status is unavailable. The device
// is opened non-blocking, so a printer that stops taking data hits the write deadline instead of
// holding one of libuv's threads.
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { DeviceAddress } from '../address.js';
import { fs } from '../builtins.js';
import { fromSystemError, PrinterTimeoutError } from '../errors.js';
import { Inbox } from '../inbox.js';
import type { Transport, TransportOptions } from './types.js';

/** How often a device is polled for reply bytes while it is open. */
const POLL_MS = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isBusy = (err: unknown) => (err as NodeJS.ErrnoException)?.code === 'EAGAIN' || (err as NodeJS.ErrnoException)?.code === 'EWOULDBLOCK';

/** Open flags by the kind of file at the path. */
function flagsFor(stats: Stats | undefined): { flags: number; duplex: boolean } {
  const { O_RDWR, O_WRONLY, O_NONBLOCK, O_APPEND, O_CREAT } = fs().constants;
  if (stats?.isCharacterDevice()) return { flags: O_RDWR | O_NONBLOCK, duplex: true };
  if (stats?.isFIFO()) return { flags: O_WRONLY | O_NONBLOCK, duplex: false };
  return { flags: O_WRONLY | O_APPEND | O_CREAT, duplex: false };
}

export function fileTransport(address: Extract<DeviceAddress, { kind: 'file' }>, options: TransportOptions): Transport {
  const inbox = new Inbox();
  const path = address.path;
  let handle: FileHandle | undefined;
  let duplex = false;
  let poller: ReturnType<typeof setInterval> | undefined;

  async function poll(fh: FileHandle, buf: Buffer) {
    try {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead > 0) inbox.push(buf.subarray(0, bytesRead));
    } catch (err) {
      if (!isBusy(err)) inbox.end(err as Error);
    }
  }

  return {
    get duplex() {
      return duplex;
    },
    silence: 'unavailable',
    inbox,

    async open() {
      const stats = await fs().promises.stat(path).catch(() => undefined);
      const how = flagsFor(stats);
      const opening = fs()
        .promises.open(path, how.flags, 0o644)
        .catch(async (err: NodeJS.ErrnoException) => {
          // Some devices can be written but not read: then status is unavailable, printing still works.
          if (how.duplex && (err.code === 'EACCES' || err.code === 'EINVAL' || err.code === 'EPERM')) {
            how.duplex = false;
            return fs().promises.open(path, fs().constants.O_WRONLY | fs().constants.O_NONBLOCK);
          }
          throw err;
        });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), options.connectTimeoutMs)));
      const opened = await Promise.race([opening, deadline])
        .catch((err) => {
          throw fromSystemError(err, `cannot open ${path}`, { phase: 'connect' });
        })
        .finally(() => clearTimeout(timer));
      if (!opened) {
        // An open that finishes after the deadline is closed at once, not leaked.
        void opening.then((late) => late.close(), () => undefined);
        throw new PrinterTimeoutError(`${path} did not open within ${options.connectTimeoutMs} ms`, { phase: 'connect' });
      }
      handle = opened;
      duplex = how.duplex;
      if (duplex) {
        const buf = Buffer.alloc(256);
        let busy = false;
        poller = setInterval(() => {
          if (busy || !handle) return;
          busy = true;
          void poll(opened, buf).finally(() => (busy = false));
        }, POLL_MS);
      }
    },

    async write(bytes) {
      const fh = handle;
      if (!fh) throw new Error(`${path} is not open`);
      let at = 0;
      let lastProgress = Date.now();
      while (at < bytes.length) {
        try {
          const { bytesWritten } = await fh.write(bytes, at, bytes.length - at, null);
          if (bytesWritten > 0) {
            at += bytesWritten;
            lastProgress = Date.now();
            continue;
          }
        } catch (err) {
          if (!isBusy(err)) throw err;
        }
        // The device's buffer is full (a printer out of paper stops reading): wait, within the deadline.
        if (Date.now() - lastProgress > options.writeTimeoutMs) {
          throw new PrinterTimeoutError(`${path} took no data for ${options.writeTimeoutMs} ms`, { phase: 'write' });
        }
        await sleep(POLL_MS);
      }
    },

    async close() {
      clearInterval(poller);
      poller = undefined;
      const fh = handle;
      handle = undefined;
      inbox.end(new Error(`${path} closed`));
      await fh?.close().catch(() => undefined);
    },

    destroy() {
      void this.close();
    },
  };
}
