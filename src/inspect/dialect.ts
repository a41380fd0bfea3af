// A dialect is the command table a printer understands, built from its profile's data: the base
// ESC/POS table plus an entry for each profile command the base table reads differently (Daruma's
// ESC j n is alignment, ESC m is a full cut, ESC p has no arguments, ESC SI / DC2 are condensed,
// ESC E / ESC F are bold on / off, ESC W n / ESC w n double width / height).
import { COMMAND_KEYS, COMMANDS as PROFILE_COMMANDS, type Meaning } from '../profiles/commands.js';
import { parseChoice } from '../profiles/bytes.js';
import { loadProfile, type PrinterRef, type Profile } from '../profiles/index.js';
import { CODEPAGES, commandSpecs, type CommandSpec } from './commands.js';

export { CODEPAGES };
import { args, none } from './decoders.js';
import type { Effect } from './types.js';

export interface Dialect {
  /** Candidate commands by first byte, longest prefix first. */
  byFirst: ReadonlyMap<number, readonly CommandSpec[]>;
  /** iconv-lite name of the code page text is decoded in until an ESC t changes it. */
  encoding: string;
}

/** What a profile command's bytes do, from the command table: its effect for parameter `n`. */
function effectOf(meaning: Meaning, n: number, profile: Profile): Effect {
  if (meaning.type === 'feed') return { type: 'feed', lines: n };
  if (meaning.type === 'drawer') return profile.drawerPin ? { type: 'drawer', pin: profile.drawerPin } : { type: 'drawer' };
  return meaning;
}

function index(specs: readonly CommandSpec[]): Map<number, CommandSpec[]> {
  const map = new Map<number, CommandSpec[]>();
  for (const spec of specs) {
    const list = map.get(spec.prefix[0]!) ?? [];
    list.push(spec);
    map.set(spec.prefix[0]!, list);
  }
  for (const list of map.values()) list.sort((a, b) => b.prefix.length - a.prefix.length);
  return map;
}

let base: Dialect | undefined;

/** The plain Epson ESC/POS dialect (made on first use, as the command table). */
export const baseDialect = (): Dialect => (base ??= { byFirst: index(commandSpecs()), encoding: 'cp850' });

/** The first table entry matching at `i`, if any. */
export function match(d: Dialect, b: Uint8Array, i: number): CommandSpec | undefined {
  const list = d.byFirst.get(b[i]!);
  if (!list) return undefined;
  return list.find((s) => s.prefix.every((p, k) => b[i + k] === p));
}

/** Does the base table already read `bytes` as one known command with `effect`? */
function baseAgrees(bytes: Uint8Array, effect: Effect): boolean {
  const spec = match(baseDialect(), bytes, 0);
  const r = spec?.decode(bytes, spec.prefix.length);
  if (!r || r.end !== bytes.length) {
    // A sequence of base commands (the MP-4200 init: GS F9 20 31 then ESC @) is fine when its last one agrees.
    if (!r || r.end > bytes.length || r.end === 0) return false;
    return baseAgrees(bytes.subarray(r.end), effect);
  }
  return r.effect !== undefined && Object.entries(effect).every(([k, v]) => (r.effect as Record<string, unknown>)[k] === v);
}

function hexBytes(hex: string): number[] {
  return hex.split(' ').filter((w) => w !== 'n').map((w) => parseInt(w, 16));
}

/** The command table for a printer: the base table plus the profile's own command bytes where they differ. */
export function dialectFor(printer: PrinterRef): Dialect {
  const profile: Profile = loadProfile(printer);
  // Plain-text output has no commands: every byte is text (or an unknown control byte).
  if (profile.output === 'text') return { byFirst: new Map(), encoding: profile.codepage.encoding };
  const extra: CommandSpec[] = [];
  for (const key of COMMAND_KEYS) {
    const hex = profile.commands?.[key];
    // Repeat templates ("0A*n") are made of commands the table already knows.
    if (!hex || hex.includes('*')) continue;
    const { label, meaning } = PROFILE_COMMANDS[key];
    if (meaning.type === 'size') {
      extra.push(...sizeCommands(hex, label));
      continue;
    }
    const param = hex.endsWith(' n');
    const prefix = hexBytes(hex);
    const sample = Uint8Array.from(param ? [...prefix, 1] : prefix);
    if (baseAgrees(sample, effectOf(meaning, 1, profile))) continue;
    extra.push({
      prefix,
      name: `${label} (profile)`,
      decode: param ? args(['n'], (v) => effectOf(meaning, v[0]!, profile)) : none(effectOf(meaning, 0, profile)),
    });
  }
  // A printer whose ESC * bands end with nothing prints each band by itself (Daruma), not at the next LF.
  if (profile.image?.command === 'esc-star-24' && profile.image.bandEnd === null) extra.push(selfPrintingBands());
  // Profile entries first: on equal prefixes (Daruma's bare ESC p) the stable sort keeps them ahead.
  return { byFirst: index([...extra, ...commandSpecs()]), encoding: profile.codepage.encoding };
}

type SizeParam = 'w' | 'h' | 'wh';
const SIZE_EFFECT: Record<SizeParam, (v: number) => Effect> = {
  w: (v) => ({ type: 'size', width: v + 1 }),
  h: (v) => ({ type: 'size', height: v + 1 }),
  wh: (v) => ({ type: 'size', width: (v >> 4) + 1, height: (v & 15) + 1 }),
};

/**
 * The size template's commands ("1D 21 wh"; Daruma's "1B 57 w 1B 77 h": one per parameter), each
 * read as setting the width, the height or both, where the base table reads them otherwise; for a
 * choice ("w[14|1B0E00]"), each of its byte strings as setting its size.
 */
function sizeCommands(hex: string, label: string): CommandSpec[] {
  const specs: CommandSpec[] = [];
  let prefix: number[] = [];
  for (const word of hex.split(' ')) {
    const choice = parseChoice(word);
    if (choice) {
      choice.options.forEach((option, i) => {
        const bytes = Uint8Array.from([...prefix, ...option]);
        const effect: Effect = { type: 'size', [choice.param === 'w' ? 'width' : 'height']: i + 1 };
        if (bytes.length > 0 && !baseAgrees(bytes, effect)) specs.push({ prefix: [...bytes], name: `${label} (profile)`, decode: none(effect) });
      });
      prefix = [];
      continue;
    }
    if (!(word in SIZE_EFFECT)) {
      prefix.push(parseInt(word, 16));
      continue;
    }
    const effect = SIZE_EFFECT[word as SizeParam];
    if (prefix.length > 0 && !baseAgrees(Uint8Array.from([...prefix, 0x11]), effect(0x11))) {
      const describe = (v: number[]) => {
        const { type: _size, ...dims } = effect(v[0]!) as Extract<Effect, { type: 'size' }>;
        return dims as Record<string, number>;
      };
      specs.push({ prefix, name: `${label} (profile)`, decode: args(['n'], (v) => effect(v[0]!), describe) });
    }
    prefix = [];
  }
  return specs;
}

/** ESC * read as a band the printer prints at once, like a raster image, instead of buffering it. */
function selfPrintingBands(): CommandSpec {
  const base = match(baseDialect(), Uint8Array.of(0x1b, 0x2a), 0)!;
  return {
    ...base,
    name: `${base.name} (printed at once)`,
    decode: (b, at) => {
      const r = base.decode(b, at);
      return r?.effect?.type === 'band' ? { ...r, effect: { ...r.effect, type: 'raster' } } : r;
    },
  };
}
