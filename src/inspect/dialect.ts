// A dialect is the command table a printer understands, built from its profile's data: the base
// ESC/POS table plus an entry for each profile command the base table reads differently (Daruma's
// ESC j n is alignment, ESC m is a full cut, ESC p has no arguments, ESC SI / DC2 are condensed).
import type { Align } from '../lower/ir.js';
import { loadProfile, type PrinterRef, type Profile } from '../profiles/index.js';
import { CODEPAGES, COMMANDS, type CommandSpec } from './commands.js';

export { CODEPAGES };
import { args, none } from './decoders.js';
import type { Effect } from './types.js';

export interface Dialect {
  /** Candidate commands by first byte, longest prefix first. */
  byFirst: ReadonlyMap<number, readonly CommandSpec[]>;
  /** iconv-lite name of the code page text is decoded in until an ESC t changes it. */
  encoding: string;
}

/** What each profile command does, so the dialect can name profile bytes the base table does not know. */
const PROFILE_COMMANDS: Readonly<Record<string, { name: string; effect: (n: number) => Effect }>> = {
  init: { name: 'initialize (profile)', effect: () => ({ type: 'reset' }) },
  alignLeft: { name: 'align left (profile)', effect: () => ({ type: 'align', align: 'left' as Align }) },
  alignCenter: { name: 'align center (profile)', effect: () => ({ type: 'align', align: 'center' as Align }) },
  alignRight: { name: 'align right (profile)', effect: () => ({ type: 'align', align: 'right' as Align }) },
  condensedOn: { name: 'condensed on (profile)', effect: () => ({ type: 'condensed', on: true }) },
  condensedOff: { name: 'condensed off (profile)', effect: () => ({ type: 'condensed', on: false }) },
  cutFull: { name: 'full cut (profile)', effect: () => ({ type: 'cut', partial: false }) },
  cutPartial: { name: 'partial cut (profile)', effect: () => ({ type: 'cut', partial: true }) },
  feed: { name: 'feed n lines (profile)', effect: (n) => ({ type: 'feed', lines: n }) },
  drawer: { name: 'drawer pulse (profile)', effect: () => ({ type: 'drawer', pin: 2 }) },
};

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

/** The plain Epson ESC/POS dialect. */
export const BASE: Dialect = { byFirst: index(COMMANDS), encoding: 'cp850' };

/** The first table entry matching at `i`, if any. */
export function match(d: Dialect, b: Uint8Array, i: number): CommandSpec | undefined {
  const list = d.byFirst.get(b[i]!);
  if (!list) return undefined;
  return list.find((s) => s.prefix.every((p, k) => b[i + k] === p));
}

/** Does the base table already read `bytes` as one known command with `effect`? */
function baseAgrees(bytes: Uint8Array, effect: Effect): boolean {
  const spec = match(BASE, bytes, 0);
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
  for (const [key, hex] of Object.entries(profile.commands ?? {})) {
    const meaning = PROFILE_COMMANDS[key];
    // Repeat templates ("0A*n") are made of commands the table already knows.
    if (!meaning || !hex || hex.includes('*')) continue;
    const param = hex.endsWith(' n');
    const prefix = hexBytes(hex);
    const sample = Uint8Array.from(param ? [...prefix, 1] : prefix);
    if (baseAgrees(sample, meaning.effect(1))) continue;
    extra.push({
      prefix,
      name: meaning.name,
      decode: param ? args(['n'], (v) => meaning.effect(v[0]!)) : none(meaning.effect(0)),
    });
  }
  // Profile entries first: on equal prefixes (Daruma's bare ESC p) the stable sort keeps them ahead.
  return { byFirst: index([...extra, ...COMMANDS]), encoding: profile.codepage.encoding };
}
