// `-`: the job goes to stdout (a pipe to another program, or a test). Nothing comes back, so there
// is no status and no confirmation; stdout itself is never closed.
import { Inbox } from '../inbox.js';
import { PrinterTimeoutError } from '../errors.js';
import type { Transport, TransportOptions } from './types.js';

export function stdoutTransport(options: TransportOptions): Transport {
  const out = options.stdout ?? process.stdout;
  return {
    duplex: false,
    silence: 'unavailable',
    inbox: new Inbox(),
    open: () => Promise.resolve(),
    write(bytes) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new PrinterTimeoutError(`stdout took no data for ${options.writeTimeoutMs} ms`, { phase: 'write' })), options.writeTimeoutMs);
        out.write(bytes, (err) => {
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        });
      });
    },
    close: () => Promise.resolve(),
    destroy: () => undefined,
  };
}
