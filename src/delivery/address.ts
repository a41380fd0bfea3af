// Device addresses: `tcp://host:port` (raw socket, port 9100 style), `file:PATH` (a device such as
// /dev/usb/lp0), `-` (stdout).
import { DeviceAddressError } from './errors.js';

export type DeviceAddress =
  | { kind: 'tcp'; host: string; port: number; text: string }
  | { kind: 'file'; path: string; text: string }
  | { kind: 'stdout'; text: string };

/** The port raw-socket printers listen on (HP JetDirect, Epson, and most network receipt printers). */
export const RAW_PORT = 9100;

function tcp(text: string): DeviceAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DeviceAddressError(`invalid device address "${text}": expected tcp://host:port`);
  }
  if (!url.hostname || url.username || url.password || (url.pathname && url.pathname !== '/') || url.search || url.hash) {
    throw new DeviceAddressError(`invalid device address "${text}": expected tcp://host:port and nothing else`);
  }
  const port = url.port ? Number(url.port) : RAW_PORT;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { kind: 'tcp', host, port, text };
}

function file(text: string): DeviceAddress {
  const path = text.startsWith('file://') ? decodeURIComponent(new URL(text).pathname) : text.slice('file:'.length);
  if (!path) throw new DeviceAddressError(`invalid device address "${text}": expected file:PATH, e.g. file:/dev/usb/lp0`);
  return { kind: 'file', path, text };
}

/** Address forms by how they start. */
const FORMS: readonly [test: (text: string) => boolean, parse: (text: string) => DeviceAddress][] = [
  [(t) => t === '-', (text) => ({ kind: 'stdout', text })],
  [(t) => t.startsWith('tcp://'), tcp],
  [(t) => t.startsWith('file:'), file],
];

/**
 * Parses a device address. Throws DeviceAddressError (a usage error) for anything else.
 *
 * @example
 * parseDevice('tcp://192.168.0.50:9100') // → { kind: 'tcp', host: '192.168.0.50', port: 9100, … }
 */
export function parseDevice(text: string): DeviceAddress {
  const form = FORMS.find(([test]) => test(text));
  if (!form) throw new DeviceAddressError(`unknown device address "${text}": use tcp://host:port, file:PATH or - (stdout)`);
  return form[1](text);
}
