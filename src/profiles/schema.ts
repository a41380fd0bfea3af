// The profile schema (TypeBox), checked when any profile is loaded: a wrong byte string or a
// missing field fails loudly at load, never halfway through a receipt.
import { Type, type Static } from 'typebox';

/** Hex bytes, space separated ("1B 61 01"); `n` is the count parameter, `XX*n` repeats a byte n times. */
export const HexBytes = Type.String({ pattern: '^(?:[0-9A-Fa-f]{2}(?:\\*n)?|n)(?: (?:[0-9A-Fa-f]{2}(?:\\*n)?|n))*$' });
const OptionalBytes = Type.Union([HexBytes, Type.Null()]);


const Source = Type.Object({
  confidence: Type.Union([Type.Literal('H'), Type.Literal('M'), Type.Literal('L')]),
  source: Type.String({ minLength: 1 }),
});

export const CommandsSchema = Type.Object({
  init: HexBytes,
  alignLeft: HexBytes,
  alignCenter: HexBytes,
  alignRight: HexBytes,
  condensedOn: OptionalBytes,
  condensedOff: OptionalBytes,
  cutFull: HexBytes,
  cutPartial: OptionalBytes,
  feed: HexBytes,
  drawer: HexBytes,
});

export const ProfileSchema = Type.Object({
  id: Type.Integer({ minimum: 0 }),
  code: Type.String({ pattern: '^[A-Z0-9_]+$' }),
  nome: Type.String({ minLength: 1 }),
  printer: Type.String({ minLength: 1 }),
  isGeneric: Type.Boolean(),
  output: Type.Union([Type.Literal('escpos'), Type.Literal('text')]),
  columns: Type.Object({
    normal: Type.Integer({ minimum: 8, maximum: 255 }),
    condensed: Type.Integer({ minimum: 8, maximum: 255 }),
  }),
  codepage: Type.Object({
    encoding: Type.String({ minLength: 1 }),
    select: OptionalBytes,
  }),
  commands: Type.Optional(CommandsSchema),
  feedBeforeCut: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
  feedLines: Type.Integer({ minimum: 1, maximum: 255 }),
  qr: Type.Object({
    command: Type.Union([
      Type.Literal('epson-gs-k'),
      Type.Literal('bematech-gs-k-q'),
      Type.Literal('daruma-esc-81'),
      Type.Literal('raster'),
      Type.Literal('text'),
    ]),
    moduleSize: Type.Integer({ minimum: 1, maximum: 16 }),
    ecc: Type.Union([Type.Literal('L'), Type.Literal('M'), Type.Literal('Q'), Type.Literal('H')]),
  }),
  image: Type.Optional(
    Type.Object({
      command: Type.Union([Type.Literal('gs-v-0'), Type.Literal('esc-star-24')]),
      widthDots: Type.Integer({ minimum: 8, maximum: 4096 }),
      maxBandBytes: Type.Integer({ minimum: 256, maximum: 65535 }),
    }),
  ),
  sources: Type.Record(Type.String(), Source),
});

/** A printer profile as written in JSON (after `extends` is resolved). */
export type ProfileData = Static<typeof ProfileSchema>;
export type Commands = Static<typeof CommandsSchema>;
export type QrCommand = ProfileData['qr']['command'];
export type ImageCommand = NonNullable<ProfileData['image']>['command'];
