// The profile's commands, as one table. Every other list of command keys is derived from it: the
// schema's `commands` object, the capability set, the disassembler's dialect, the self-test's
// rows and the emitter's record keys and labels. Adding a command is one entry here.

/** What a profile can do; passes ask `profile.caps.has('cut.partial')`, never the model's name. */
export type Capability = 'cut' | 'cut.partial' | 'condensed' | 'drawer' | 'bold' | 'underline' | 'invert' | 'size' | 'qr.native' | 'codepage.select' | 'image';

/** What a command does to the printed page, for the disassembler; `'n'` is the count parameter. */
export type Meaning =
  | { type: 'reset' }
  | { type: 'align'; align: 'left' | 'center' | 'right' }
  | { type: 'condensed'; on: boolean }
  | { type: 'cut'; partial: boolean }
  | { type: 'feed'; lines: 'n' }
  | { type: 'drawer' }
  | { type: 'bold'; on: boolean }
  | { type: 'underline'; on: boolean }
  | { type: 'invert'; on: boolean }
  /** The character size: its bytes take `w` (width − 1), `h` (height − 1) or `wh` (both, a nibble each). */
  | { type: 'size' };

export interface CommandEntry {
  /** What the bytes do, as emit records and listings call them. */
  readonly label: string;
  /** May be null: the printer cannot, and lowering decides what the tag becomes instead. */
  readonly optional?: true;
  /** The capability the command gives; one held only when every command giving it is present. */
  readonly capability?: Capability;
  /** The command's bytes take the count parameter `n` ("1B 64 n", "0A*n"). */
  readonly counted?: true;
  /** The command's bytes take the size parameters `w`, `h` or `wh` ("1D 21 wh", "1B 57 w 1B 77 h"). */
  readonly sized?: true;
  readonly meaning: Meaning;
  /** The self-test page's row that shows it. */
  readonly row: string;
}

/** The commands, in the order the schema, listings and the self-test show them. */
export const COMMANDS = {
  init: { label: 'initialize', meaning: { type: 'reset' }, row: 'init' },
  alignLeft: { label: 'align left', meaning: { type: 'align', align: 'left' }, row: 'align L/C/R' },
  alignCenter: { label: 'align center', meaning: { type: 'align', align: 'center' }, row: 'align L/C/R' },
  alignRight: { label: 'align right', meaning: { type: 'align', align: 'right' }, row: 'align L/C/R' },
  condensedOn: { label: 'condensed on', optional: true, capability: 'condensed', meaning: { type: 'condensed', on: true }, row: 'condensed' },
  condensedOff: { label: 'condensed off', optional: true, capability: 'condensed', meaning: { type: 'condensed', on: false }, row: 'condensed' },
  cutFull: { label: 'cut full', capability: 'cut', meaning: { type: 'cut', partial: false }, row: 'cut full' },
  cutPartial: { label: 'cut partial', optional: true, capability: 'cut.partial', meaning: { type: 'cut', partial: true }, row: 'cut partial' },
  feed: { label: 'feed n lines', counted: true, meaning: { type: 'feed', lines: 'n' }, row: 'feed' },
  drawer: { label: 'drawer pulse', capability: 'drawer', meaning: { type: 'drawer' }, row: 'drawer' },
  boldOn: { label: 'bold on', optional: true, capability: 'bold', meaning: { type: 'bold', on: true }, row: 'bold' },
  boldOff: { label: 'bold off', optional: true, capability: 'bold', meaning: { type: 'bold', on: false }, row: 'bold' },
  underlineOn: { label: 'underline on', optional: true, capability: 'underline', meaning: { type: 'underline', on: true }, row: 'underline' },
  underlineOff: { label: 'underline off', optional: true, capability: 'underline', meaning: { type: 'underline', on: false }, row: 'underline' },
  invertOn: { label: 'invert on', optional: true, capability: 'invert', meaning: { type: 'invert', on: true }, row: 'invert' },
  invertOff: { label: 'invert off', optional: true, capability: 'invert', meaning: { type: 'invert', on: false }, row: 'invert' },
  size: { label: 'text size', optional: true, sized: true, capability: 'size', meaning: { type: 'size' }, row: 'size' },
} as const satisfies Readonly<Record<string, CommandEntry>>;

export type CommandKey = keyof typeof COMMANDS;

/** The command keys in table order. */
export const COMMAND_KEYS = Object.keys(COMMANDS) as CommandKey[];

/** The style commands, which a command listed in a profile's `resetsStyles` turns off. */
export const STYLE_KEYS = ['boldOn', 'boldOff', 'underlineOn', 'underlineOff', 'invertOn', 'invertOff', 'size'] as const satisfies readonly CommandKey[];

/** The keys whose command may be null (the printer cannot). */
export type OptionalCommandKey = { [K in CommandKey]: (typeof COMMANDS)[K] extends { optional: true } ? K : never }[CommandKey];

/** The self-test rows, in table order, each with the commands it shows. */
export function commandRows(): Array<[row: string, keys: CommandKey[]]> {
  const rows = new Map<string, CommandKey[]>();
  for (const key of COMMAND_KEYS) {
    const row = COMMANDS[key].row;
    rows.set(row, [...(rows.get(row) ?? []), key]);
  }
  return [...rows];
}
