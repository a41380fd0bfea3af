// Where each built-in profile's facts come from (a source and a confidence per fact), kept apart
// from the profiles' bytes: compiling never reads them, so a bundle that only compiles leaves them
// out (they were ~5.7 KB of its gzip). The self-test page, `npm run printers-doc` and whoever asks
// read them here. builtin/sources/<name>.json holds the sources of builtin/<name>.json.
import base from './builtin/sources/escpos-base.json' with { type: 'json' };
import generica from './builtin/sources/generica.json' with { type: 'json' };
import mp4200 from './builtin/sources/mp4200.json' with { type: 'json' };
import pr3000 from './builtin/sources/pr3000.json' with { type: 'json' };
import dr800 from './builtin/sources/dr800.json' with { type: 'json' };
import i9 from './builtin/sources/i9.json' with { type: 'json' };
import t20 from './builtin/sources/t20.json' with { type: 'json' };
import tp450 from './builtin/sources/tp450.json' with { type: 'json' };
import { BASELINES, TEMPLATES } from './builtin/index.js';
import { loadProfile, type PrinterRef, type Profile } from './index.js';
import type { Source } from './schema.js';

export type Sources = Readonly<Record<string, Source>>;

/** Baseline name → its own sources. */
const BASELINE_SOURCES: Readonly<Record<string, Sources>> = { 'escpos-base': base as Sources };
/** Template id → its own sources (the order of TEMPLATES). */
const TEMPLATE_SOURCES: readonly Sources[] = [generica, mp4200, pr3000, dr800, i9, t20, tp450] as Sources[];

/** A built-in's sources with those of what it extends under them (its own win). */
function builtinSources(own: Sources, data: object): Sources {
  const parent = (data as { extends?: string }).extends;
  const inherited = parent === undefined ? {} : Object.hasOwn(BASELINES, parent) ? builtinSources(BASELINE_SOURCES[parent]!, BASELINES[parent]!) : {};
  return { ...inherited, ...own };
}

/**
 * The sources of a printer's facts: path in the profile (`commands.cutPartial`, `qr.command`) →
 * `{ confidence, source }`. For a template, its own and those of the baseline it extends; for a
 * profile object, the template's (by its id, as its bytes are) under the `sources` it gives.
 *
 * @example
 * profileSources('MAKER3DR800')['commands.cutFull']; // { confidence: 'M', source: '…' }
 */
export function profileSources(printer: PrinterRef): Sources {
  const profile: Profile = loadProfile(printer);
  const id = profile.id; // an integer ≥ 0 (the schema)
  const template = id < TEMPLATES.length ? builtinSources(TEMPLATE_SOURCES[id]!, TEMPLATES[id]!) : {};
  return { ...template, ...profile.sources };
}
