// Delivery failures, each its own class so a caller can tell "never started" (nothing reached the
// device: safe to try again) from "started" (some bytes may have printed: outcome unknown).
export type PrinterErrorCode = 'refused' | 'offline' | 'timeout' | 'partial-write' | 'denied';
export type Phase = 'connect' | 'status' | 'write' | 'confirm';

interface Progress {
  phase: Phase;
  /** Bytes of the job the device took (handed to the OS) before the failure. */
  written?: number;
  /** Bytes in the job (0 outside print). */
  total?: number;
  /** Some job bytes were handed to an open connection or device, acknowledged or not. */
  started?: boolean;
  cause?: unknown;
}

/** Any failure to reach or write to a printer. */
export class PrinterError extends Error {
  override name = 'PrinterError';
  readonly code: PrinterErrorCode;
  phase: Phase;
  written: number;
  total: number;
  /**
   * Whether any byte of the job may have reached the printer: set as soon as a write to an open
   * connection was attempted (a failed write may still have sent part of its chunk). If so, the
   * outcome is unknown; if not, the job can safely be tried again.
   */
  started: boolean;

  constructor(code: PrinterErrorCode, message: string, progress: Progress) {
    super(message, progress.cause === undefined ? undefined : { cause: progress.cause });
    this.code = code;
    this.phase = progress.phase;
    this.written = progress.written ?? 0;
    this.total = progress.total ?? 0;
    this.started = progress.started ?? this.written > 0;
  }
}

/** The printer refused the connection (nothing listens on the port): nothing was sent. */
export class PrinterRefusedError extends PrinterError {
  override name = 'PrinterRefusedError';
  constructor(message: string, progress: Progress) {
    super('refused', message, progress);
  }
}

/** No route to the printer, no such device, or the device went away. */
export class PrinterOfflineError extends PrinterError {
  override name = 'PrinterOfflineError';
  constructor(message: string, progress: Progress) {
    super('offline', message, progress);
  }
}

/** The printer stopped taking bytes (or never answered the connection) for longer than allowed. */
export class PrinterTimeoutError extends PrinterError {
  override name = 'PrinterTimeoutError';
  constructor(message: string, progress: Progress) {
    super('timeout', message, progress);
  }
}

/** The connection or device was lost after part of the job was written. */
export class PartialWriteError extends PrinterError {
  override name = 'PartialWriteError';
  constructor(message: string, progress: Progress) {
    super('partial-write', message, progress);
  }
}

/** The device exists but this process may not open it (permissions). */
export class PrinterAccessError extends PrinterError {
  override name = 'PrinterAccessError';
  constructor(message: string, progress: Progress) {
    super('denied', message, progress);
  }
}

/** A device address that is not `tcp://host:port`, `file:PATH` or `-`: a usage error. */
export class DeviceAddressError extends Error {
  override name = 'DeviceAddressError';
}

/** Node's errno codes, as delivery classifies them. */
const ERRNO: Readonly<Record<string, (message: string, progress: Progress) => PrinterError>> = {
  ECONNREFUSED: (m, p) => new PrinterRefusedError(m, p),
  EACCES: (m, p) => new PrinterAccessError(m, p),
  EPERM: (m, p) => new PrinterAccessError(m, p),
  ETIMEDOUT: (m, p) => new PrinterTimeoutError(m, p),
};

/** A system error turned into the PrinterError it means; lost mid-job becomes a PartialWriteError. */
export function fromSystemError(err: unknown, what: string, progress: Progress): PrinterError {
  if (err instanceof PrinterError) return err;
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const message = `${what}: ${code || (err as Error)?.message || String(err)}`;
  const make = ERRNO[code];
  if (make) return make(message, { ...progress, cause: err });
  if (progress.started ?? (progress.written ?? 0) > 0) return new PartialWriteError(`${message} after ${progress.written ?? 0} of ${progress.total} bytes`, { ...progress, cause: err });
  return new PrinterOfflineError(message, { ...progress, cause: err });
}

/**
 * `err` as a PrinterError that knows how far the job got: a system error is classified; a
 * PrinterError from a lower layer gets the job's progress (and says it in its message).
 */
export function withProgress(err: unknown, what: string, progress: Required<Pick<Progress, 'phase' | 'written' | 'total' | 'started'>>): PrinterError {
  const e = err instanceof PrinterError ? err : fromSystemError(err, what, progress);
  if (e.total === 0 && progress.total > 0) {
    e.written = progress.written;
    e.total = progress.total;
    e.started = progress.started;
    if (progress.started) e.message += ` after ${progress.written} of ${progress.total} bytes`;
  }
  return e;
}
