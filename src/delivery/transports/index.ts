// Device address kind → transport: the one table a new kind of connection is added to.
import type { DeviceAddress } from '../address.js';
import { fileTransport } from './file.js';
import { stdoutTransport } from './stdout.js';
import { tcpTransport } from './tcp.js';
import type { Transport, TransportOptions } from './types.js';

export type { Transport, TransportOptions } from './types.js';

type Factory<K extends DeviceAddress['kind']> = (address: Extract<DeviceAddress, { kind: K }>, options: TransportOptions) => Transport;

const TRANSPORTS: { [K in DeviceAddress['kind']]: Factory<K> } = {
  tcp: tcpTransport,
  file: fileTransport,
  stdout: (_address, options) => stdoutTransport(options),
};

export function transportFor(address: DeviceAddress, options: TransportOptions): Transport {
  return (TRANSPORTS[address.kind] as Factory<typeof address.kind>)(address as never, options);
}
