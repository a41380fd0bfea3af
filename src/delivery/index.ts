// Delivery: what talks to printers. Device addresses and their transports, status from profile
// data, a session that prints a job (and waits for the printer's confirmation where it can), the
// exactly-once step over a durable journal, and the virtual printer.
export { parseDevice, RAW_PORT, type DeviceAddress } from './address.js';
export { openPrinter, PrinterSession, type OpenOptions, type PrinterStatus, type PrintOptions, type PrintOutcome } from './session.js';
export { deliver, type DeliveryJob, type DeliverOptions, type DeliveryResult } from './deliver.js';
export { Journal, JournalLockedError, type JournalEntry, type JournalOptions, type JournalState, type WaitOptions } from './journal.js';
export {
  PrinterError,
  PrinterRefusedError,
  PrinterOfflineError,
  PrinterTimeoutError,
  PartialWriteError,
  PrinterAccessError,
  DeviceAddressError,
  type PrinterErrorCode,
  type Phase,
} from './errors.js';
export { REASONS, normaliseReasons, stopsPrinting, type Reason, type StatusReason } from './reasons.js';
export { startVirtualPrinter, type VirtualPrinter, type VirtualPrinterOptions, type VirtualJob, type VirtualState } from './virtual/printer.js';
