// The profile schema (TypeBox), checked when any profile is loaded: a wrong byte string or a
// missing field fails loudly at load, never halfway through a receipt.
import { Type, type TLiteral, type TOptional, type TUnion } from 'typebox';
import { StatusSchema } from './status-schema.js';
import { COMMAND_KEYS, COMMANDS, STYLE_KEYS, type CommandKey, type OptionalCommandKey } from './commands.js';
import type { ProfileData } from './schema-types.generated.js';

/** Hex bytes, space separated ("1B 61 01"); `n` is the count parameter, `XX*n` repeats a byte n times. */
export const HexBytes = Type.String({ pattern: '^(?:[0-9A-Fa-f]{2}(?:\\*n)?|n)(?: (?:[0-9A-Fa-f]{2}(?:\\*n)?|n))*$' });
const OptionalBytes = Type.Union([HexBytes, Type.Null()]);
/**
 * The size command's bytes: hex with `w` (width − 1), `h` (height − 1) or `wh` ((width − 1) × 16 + height − 1),
 * or `w[A|B|…]` / `h[A|B|…]`, the bytes (hex, no spaces) sent for size 1, 2… (an on/off pair: Daruma's `w[14|1B0E00]`).
 */
const SIZE_WORD = '[0-9A-Fa-f]{2}|w|h|wh|[wh]\\[(?:[0-9A-Fa-f]{2})*(?:\\|(?:[0-9A-Fa-f]{2})*)+\\]';
export const SizeBytes = Type.String({ pattern: `^(?:${SIZE_WORD})(?: (?:${SIZE_WORD}))*$` });
const OptionalSizeBytes = Type.Union([SizeBytes, Type.Null()]);
/** A character multiplier, 1–8. */
const Multiplier = Type.Integer({ minimum: 1, maximum: 8 });


/** The native QR command families (src/emit/qr-native.ts). */
const NativeQr = Type.Union([Type.Literal('epson-gs-k'), Type.Literal('bematech-gs-k-q'), Type.Literal('daruma-esc-81')]);

/** The native barcode command families (src/emit/barcode-native.ts). */
const NativeBarcode = Type.Union([Type.Literal('epson-gs-k'), Type.Literal('daruma-esc-b')]);
/** A symbology's type byte in the native command; null: the printer has none, it prints as a raster image. */
const BarcodeType = Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 255 }), Type.Null()]));
const DotRange = Type.Object({ min: Type.Integer({ minimum: 1, maximum: 255 }), max: Type.Integer({ minimum: 1, maximum: 255 }) });
const HriPosition = Type.Union([Type.Literal('none'), Type.Literal('above'), Type.Literal('below'), Type.Literal('both')]);

const Cell = Type.Object({
  width: Type.Number({ exclusiveMinimum: 0, maximum: 64 }),
  height: Type.Integer({ minimum: 1, maximum: 255 }),
});

export const SourceSchema = Type.Object({
  confidence: Type.Union([Type.Literal('H'), Type.Literal('M'), Type.Literal('L')]),
  source: Type.String({ minLength: 1 }),
});

/** The `commands` object, one property per entry of the command table (commands.ts). */
type StyleKey = (typeof STYLE_KEYS)[number];
type CommandProperties = {
  [K in CommandKey]: K extends 'size'
    ? TOptional<typeof OptionalSizeBytes>
    : K extends StyleKey
      ? TOptional<typeof OptionalBytes>
      : K extends OptionalCommandKey
        ? typeof OptionalBytes
        : typeof HexBytes;
};

/** One property per command; the style commands may be left out (a profile written before them: no styles). */
export const CommandsSchema = Type.Object(
  Object.fromEntries(
    COMMAND_KEYS.map((key) => {
      const bytes = 'sized' in COMMANDS[key] ? OptionalSizeBytes : 'optional' in COMMANDS[key] ? OptionalBytes : HexBytes;
      return [key, (STYLE_KEYS as readonly string[]).includes(key) ? Type.Optional(bytes) : bytes];
    }),
  ) as CommandProperties,
);

/** The commands that are not styles: those a profile may say turn the styles off (`resetsStyles`). */
const ResettingCommand = Type.Union(
  COMMAND_KEYS.filter((key) => !(STYLE_KEYS as readonly string[]).includes(key)).map((key) => Type.Literal(key)),
  // Typed as one literal of every such key: TypeBox reads a union made from an array (not a tuple)
  // as never, which made `resetsStyles` a never[] that no profile written in TypeScript could set.
) as unknown as TUnion<[TLiteral<Exclude<CommandKey, StyleKey>>]>;

export const ProfileSchema = Type.Object({
  id: Type.Integer({ minimum: 0 }),
  code: Type.String({ pattern: '^[A-Z0-9_]+$' }),
  nome: Type.String({ minLength: 1 }),
  printer: Type.String({ minLength: 1 }),
  isGeneric: Type.Boolean(),
  output: Type.Union([Type.Literal('escpos'), Type.Literal('text')]),
  /** Characters per line; by default as many whole cells of `geometry` as fit `geometry.dotsPerLine`. */
  columns: Type.Optional(
    Type.Object({
      normal: Type.Optional(Type.Integer({ minimum: 8, maximum: 255 })),
      condensed: Type.Optional(Type.Integer({ minimum: 8, maximum: 255 })),
    }),
  ),
  /** The paper as the printer prints it, in dots: what the preview draws and columns follow from. */
  geometry: Type.Optional(
    Type.Object({
      /** The printable width (raster images are at most this wide unless `image.widthDots` says otherwise). */
      dotsPerLine: Type.Integer({ minimum: 8, maximum: 4096 }),
      /** The default line pitch (ESC 2), in dots. */
      lineSpacing: Type.Integer({ minimum: 1, maximum: 255 }),
      /** The character cell of the normal and the condensed font, in dots (a width may be fractional). */
      cell: Type.Object({
        normal: Cell,
        condensed: Cell,
      }),
    }),
  ),
  codepage: Type.Object({
    encoding: Type.String({ minLength: 1 }),
    select: OptionalBytes,
  }),
  commands: Type.Optional(CommandsSchema),
  /**
   * What becomes of a tag whose capability the printer lacks, where it is not lowering's default
   * (a warning and the documented fallback): "removed" drops it silently, as plain text does.
   */
  missing: Type.Optional(
    Type.Object({
      cut: Type.Optional(Type.Literal('removed')),
      'cut.partial': Type.Optional(Type.Literal('removed')),
      condensed: Type.Optional(Type.Literal('removed')),
      drawer: Type.Optional(Type.Literal('removed')),
      bold: Type.Optional(Type.Literal('removed')),
      underline: Type.Optional(Type.Literal('removed')),
      invert: Type.Optional(Type.Literal('removed')),
      size: Type.Optional(Type.Literal('removed')),
    }),
  ),
  /** The largest character width and height the size command takes; larger sizes are clamped with a warning. */
  sizeMax: Type.Optional(Type.Object({ width: Multiplier, height: Multiplier })),
  /**
   * Commands that also turn the styles off (the MP-4200's ESC ! for condensed sets bold, underline
   * and size from its bits): after each, the emitter sends the styles in force again.
   */
  resetsStyles: Type.Optional(Type.Array(ResettingCommand)),
  /** The drawer pin the `drawer` command pulses (Epson's ESC p 0 is pin 2; a command without a pin argument pulses the printer's own). */
  drawerPin: Type.Optional(Type.Union([Type.Literal(2), Type.Literal(5), Type.Null()])),
  feedBeforeCut: Type.Optional(Type.Integer({ minimum: 0, maximum: 255 })),
  feedLines: Type.Integer({ minimum: 1, maximum: 255 }),
  qr: Type.Object({
    command: Type.Union([NativeQr, Type.Literal('raster'), Type.Literal('text')]),
    moduleSize: Type.Integer({ minimum: 1, maximum: 16 }),
    ecc: Type.Union([Type.Literal('L'), Type.Literal('M'), Type.Literal('Q'), Type.Literal('H')]),
    /** The module sizes the native command accepts: `moduleSize` is clamped into them there. */
    moduleRange: Type.Optional(
      Type.Object({ min: Type.Integer({ minimum: 1, maximum: 16 }), max: Type.Integer({ minimum: 1, maximum: 16 }) }),
    ),
    /** Bytes the family takes after its error-correction byte (Bematech GS k Q: N2 N3 N4). */
    params: Type.Optional(HexBytes),
    /**
     * Commands around each native symbol of the QR command `command`: `enter` before it, `leave`
     * after it (a mode switch, such as Bematech's GS F9 20 n). Each acts like ESC @, so the emitter sends the alignment again
     * after `enter`, and the code page, alignment and condensed mode again after `leave`.
     */
    bracket: Type.Optional(Type.Object({ command: NativeQr, enter: HexBytes, leave: HexBytes })),
  }),
  /**
   * The native barcode command: its family, and per symbology the type byte it takes. A symbology
   * without one, a height, module width or text position outside what the command takes, or a
   * symbol wider than the paper, prints as a raster image instead (without `barcode`: always).
   */
  barcode: Type.Optional(
    Type.Object({
      command: NativeBarcode,
      types: Type.Object({
        ean13: BarcodeType,
        ean8: BarcodeType,
        upca: BarcodeType,
        code39: BarcodeType,
        code128: BarcodeType,
        itf: BarcodeType,
        codabar: BarcodeType,
      }),
      /**
       * How CODE128 data is sent: `sets`, with Epson's code-set prefixes ({A {B {C, set C digits as
       * byte pairs), so the symbol is the one bobina chose; `text`, as ASCII, the printer choosing the sets.
       */
      code128: Type.Union([Type.Literal('sets'), Type.Literal('text')]),
      /** Module (narrow bar) widths the command takes, in dots. */
      moduleRange: DotRange,
      /** Bar heights the command takes, in dots. */
      heightRange: DotRange,
      /** Where the command can print the human-readable text. */
      text: Type.Array(HriPosition, { minItems: 1 }),
    }),
  ),
  image: Type.Optional(
    Type.Object({
      command: Type.Union([Type.Literal('gs-v-0'), Type.Literal('esc-star-24')]),
      /** The widest image, in dots; by default `geometry.dotsPerLine`. */
      widthDots: Type.Optional(Type.Integer({ minimum: 8, maximum: 4096 })),
      maxBandBytes: Type.Integer({ minimum: 256, maximum: 65535 }),
      /** GS v 0: the most rows one command may carry. */
      maxBandRows: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
      /** ESC * bands: line spacing set before the bands (null: none). */
      lineSpacing: Type.Optional(OptionalBytes),
      /** ESC * bands: what ends each band (null: nothing, the band prints by itself). */
      bandEnd: Type.Optional(OptionalBytes),
      /** ESC * bands: what restores the line spacing after them (null: none). */
      lineSpacingReset: Type.Optional(OptionalBytes),
    }),
  ),
  /**
   * What the self-test page prints besides the profile's own choices, where the sources could not
   * settle one: each alternative is labelled on the page with the override (`set`) that selects it.
   * A built-in's are kept apart (builtin/selftest/, read by profileSelftest()), so a profile object
   * gives only its own.
   */
  selftest: Type.Optional(
    Type.Object({
      /**
       * A QR code (or, with `part: "barcode"`, the barcodes; with `part: "size"`, lines of double
       * width) printed with the profile changed by `set` (another QR command, other band ends,
       * another barcode type byte, another size command…).
       */
      alternatives: Type.Optional(
        Type.Array(
          Type.Object({
            label: Type.String({ minLength: 1 }),
            set: Type.Record(Type.String(), Type.Unknown()),
            part: Type.Optional(Type.Union([Type.Literal('qr'), Type.Literal('barcode'), Type.Literal('size')])),
          }),
        ),
      ),
      /** Other column counts the printer may have: their rulers are printed too. */
      columns: Type.Optional(
        Type.Array(
          Type.Object({
            label: Type.String({ minLength: 1 }),
            normal: Type.Integer({ minimum: 8, maximum: 255 }),
            condensed: Type.Integer({ minimum: 8, maximum: 255 }),
          }),
        ),
      ),
    }),
  ),
  /** Status queries and end-of-print confirmation for delivery (status-schema.ts); null: none. */
  status: Type.Optional(Type.Union([StatusSchema, Type.Null()])),
  /**
   * Where the profile's facts come from: path → source and confidence. A built-in's are kept apart
   * (builtin/sources/, read by profileSources()), so a profile object gives only its own.
   */
  sources: Type.Optional(Type.Record(Type.String(), SourceSchema)),
});

// ProfileData (a profile as written in JSON, after `extends`), Source and Commands: TypeScript's reading
// of these schemas (`Static<typeof ProfileSchema>` …), spelled out by scripts/schema-types.ts so that
// the public declarations import nothing from TypeBox.
export type { Commands, ProfileData, Source } from './schema-types.generated.js';
export type QrCommand = ProfileData['qr']['command'];
export type ImageCommand = NonNullable<ProfileData['image']>['command'];
export type BarcodeProfile = NonNullable<ProfileData['barcode']>;
