// The `status` section of a profile: how to ask the printer for its state before a job, what each
// reply bit means, and (where the model has it) how it confirms that a job has been printed.
// Delivery (src/delivery) reads only this data; it never asks which model it talks to.
import { Type } from 'typebox';
import type { StatusData } from './schema-types.generated.js';

/** Plain hex bytes, space separated ("10 04 01"): no count parameter here. */
const PlainHex = Type.String({ pattern: '^[0-9A-Fa-f]{2}(?: [0-9A-Fa-f]{2})*$' });
/** One byte as two hex digits ("60"). */
const Byte = Type.String({ pattern: '^[0-9A-Fa-f]{2}$' });

/** The reasons a status reply can give (PWG printer-state-reasons names): the one list of them. */
export const StatusReasonSchema = Type.Union([
  Type.Literal('media-empty'),
  Type.Literal('media-low'),
  Type.Literal('cover-open'),
  Type.Literal('offline'),
  Type.Literal('other'),
]);

/** `(reply[byte] & mask) === value` means `reason`. A clear bit that means something has value "00". */
const StatusRule = Type.Object({
  byte: Type.Integer({ minimum: 0, maximum: 15 }),
  mask: Byte,
  value: Byte,
  reason: StatusReasonSchema,
  /** What the manual calls the bit, for people reading the profile. */
  meaning: Type.Optional(Type.String()),
});

/** Bits every genuine reply has (Epson: 0xx1xx10), so a stray byte is not read as a status. */
const FixedBits = Type.Object({ byte: Type.Integer({ minimum: 0, maximum: 15 }), mask: Byte, value: Byte });

const StatusQuery = Type.Object({
  /** The request, sent as is. */
  send: PlainHex,
  /** Bytes in the reply. */
  replyLength: Type.Integer({ minimum: 1, maximum: 16 }),
  /** The reply of a printer with nothing to report: the virtual printer starts from it. */
  idle: PlainHex,
  fixed: Type.Optional(Type.Array(FixedBits)),
  rules: Type.Array(StatusRule),
});

/**
 * End-of-print confirmation: `request` + an id of `idLength` printable bytes is sent after the
 * job; the printer answers `replyPrefix` + the same id + `replySuffix` once it has printed
 * everything before it (Epson GS ( H fn 48: `1D 28 48 06 00 30 30` id → `37 22` id `00`).
 */
export const ConfirmSchema = Type.Object({
  request: PlainHex,
  idLength: Type.Integer({ minimum: 1, maximum: 16 }),
  replyPrefix: PlainHex,
  replySuffix: PlainHex,
});

export const StatusSchema = Type.Object({
  /** Sent once before the queries (e.g. the MP-4200's switch to ESC/POS, where DLE EOT is defined). */
  setup: Type.Optional(PlainHex),
  /** Milliseconds to wait after `setup` before the first query (default 0). */
  settleMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 2000 })),
  /** How long to wait for each reply before calling the printer offline (default 1000). */
  timeoutMs: Type.Optional(Type.Integer({ minimum: 50, maximum: 10000 })),
  queries: Type.Array(StatusQuery, { minItems: 1 }),
  confirm: Type.Optional(Type.Union([ConfirmSchema, Type.Null()])),
});

// StatusData, ConfirmData and StatusReason: these schemas' types, spelled out by scripts/schema-types.ts (see schema.ts).
export type { ConfirmData, StatusData, StatusReason } from './schema-types.generated.js';
export type StatusQueryData = StatusData['queries'][number];
