// What every transport offers the session: open, write chunks, read replies into an inbox, close.
import type { Inbox } from '../inbox.js';

export interface TransportOptions {
  /** Longest wait for the connection (or the device) to open. */
  connectTimeoutMs: number;
  /** Longest wait for the device to take one chunk. */
  writeTimeoutMs: number;
  /** Longest wait for a graceful close before the connection is torn down. */
  closeTimeoutMs: number;
  /** Where `-` writes (default process.stdout). */
  stdout?: NodeJS.WritableStream;
}

export interface Transport {
  /** Whether the device can answer: status queries are sent only then. */
  readonly duplex: boolean;
  /** What no answer to a status query means here: a socket that stays silent is offline; a device file may just be one-way. */
  readonly silence: 'offline' | 'unavailable';
  /** Bytes the device sent back. */
  readonly inbox: Inbox;
  /** Opens the connection or device. Rejects with a PrinterError (phase connect). */
  open(): Promise<void>;
  /** Resolves once the OS has taken `bytes`; rejects with the system error or a PrinterTimeoutError. */
  write(bytes: Uint8Array): Promise<void>;
  /** Ends gracefully and releases everything; bounded by closeTimeoutMs; never rejects. */
  close(): Promise<void>;
  /** Releases everything now. */
  destroy(): void;
}
