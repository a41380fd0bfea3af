// What the self-test page prints for each built-in profile besides its own choices (the
// alternatives the sources leave open, other column counts), kept apart from the profiles' bytes as
// their sources are: compiling never reads it, so a bundle that only compiles leaves it out.
// builtin/selftest/<name>.json holds the `selftest` of builtin/<name>.json.
import dr800 from './builtin/selftest/dr800.json' with { type: 'json' };
import mp4200 from './builtin/selftest/mp4200.json' with { type: 'json' };
import t20 from './builtin/selftest/t20.json' with { type: 'json' };
import tp450 from './builtin/selftest/tp450.json' with { type: 'json' };
import { loadProfile, type PrinterRef, type Profile } from './index.js';
import type { ProfileData } from './schema.js';

export type SelfTestData = NonNullable<ProfileData['selftest']>;

/** Template id → its self-test data (the order of TEMPLATES). */
const TEMPLATE_SELFTESTS: readonly (SelfTestData | undefined)[] = [undefined, mp4200, undefined, dr800, undefined, t20, tp450] as SelfTestData[];

/**
 * The self-test data of a printer: for a template, its own; for a profile object, the template's
 * (by its id, as its sources are) with the `selftest` it gives laid over it, key by key.
 *
 * @example
 * profileSelftest('MAKER3DR800').alternatives?.map((a) => a.label[0]); // ['A', 'B', 'C', 'D']
 */
export function profileSelftest(printer: PrinterRef): SelfTestData {
  const profile: Profile = loadProfile(printer);
  // No entry (undefined) for an id past the templates: the profile's own data alone.
  return { ...TEMPLATE_SELFTESTS[profile.id], ...profile.selftest };
}
