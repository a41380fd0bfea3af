// tcp://host:port: a raw socket, as port-9100 printers take jobs. One connection per session; every
// step has a deadline; the socket is always closed, on success and on every error.
import type { Socket } from 'node:net';
import type { DeviceAddress } from '../address.js';
import { net } from '../builtins.js';
import { fromSystemError, PrinterTimeoutError } from '../errors.js';
import { Inbox } from '../inbox.js';
import type { Transport, TransportOptions } from './types.js';

export function tcpTransport(address: Extract<DeviceAddress, { kind: 'tcp' }>, options: TransportOptions): Transport {
  const inbox = new Inbox();
  const where = `${address.host}:${address.port}`;
  let socket: Socket | undefined;

  return {
    duplex: true,
    silence: 'offline',
    inbox,

    open() {
      return new Promise((resolve, reject) => {
        const s = net().connect({ host: address.host, port: address.port });
        socket = s;
        const timer = setTimeout(() => {
          s.destroy();
          reject(new PrinterTimeoutError(`no connection to ${where} within ${options.connectTimeoutMs} ms`, { phase: 'connect' }));
        }, options.connectTimeoutMs);
        s.once('connect', () => {
          clearTimeout(timer);
          s.setNoDelay(true);
          resolve();
        });
        // Every byte is read as it comes, so closing never finds unread data (which would reset the
        // connection and could drop the end of the job still in the kernel's send buffer).
        s.on('data', (chunk: Buffer) => inbox.push(chunk));
        s.on('error', (err) => {
          clearTimeout(timer);
          inbox.end(err);
          reject(fromSystemError(err, `cannot connect to ${where}`, { phase: 'connect' }));
        });
        s.on('close', () => inbox.end(new Error(`${where} closed the connection`)));
      });
    },

    write(bytes) {
      const s = socket;
      if (!s || s.destroyed) return Promise.reject(new Error(`${where} closed the connection`));
      return new Promise((resolve, reject) => {
        const done = (err?: Error | null) => {
          clearTimeout(timer);
          s.off('close', closed);
          if (err) reject(err);
          else resolve();
        };
        const closed = () => done(Object.assign(new Error(`${where} closed the connection`), { code: 'ECONNRESET' }));
        const timer = setTimeout(() => {
          s.destroy();
          done(new PrinterTimeoutError(`${where} took no data for ${options.writeTimeoutMs} ms`, { phase: 'write' }));
        }, options.writeTimeoutMs);
        s.once('close', closed);
        s.write(bytes, done);
      });
    },

    close() {
      const s = socket;
      socket = undefined;
      if (!s || s.destroyed) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(() => s.destroy(), options.closeTimeoutMs);
        s.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        // FIN after the last byte; a printer closes its side in turn (Node then closes ours).
        s.end();
      });
    },

    destroy() {
      socket?.destroy();
      socket = undefined;
    },
  };
}
