// Profiles: the built-in templates and user profiles, resolved (`extends`), validated against the
// schema, and compiled once into what the passes need: a capability set and byte templates.
// A built-in template is built on first use, so a process pays only for the printers it uses, and
// its schema check is done by the tests rather than at every load.
import { shown } from '../shown.js';
import { cacheMap, lazy } from '../caches.js';
import { BASELINES, TEMPLATES } from './builtin/index.js';
import { codepage } from '../text/codepage.js';
import { compileTemplate, type ByteTemplate } from './bytes.js';
import { Check, CheckOverride } from './check.js';
import { COMMAND_KEYS, COMMANDS, type Capability, type CommandKey } from './commands.js';
import { ProfileSchema } from './profile-schema.js';
import type { Commands, ProfileData } from './schema.js';
import { typeboxVerdict } from './typebox-verdict.js';

/** A user profile: any part of a profile, on top of the one it `extends` (a template id or code). */
export type ProfileInput = Partial<Omit<ProfileData, 'commands' | 'qr' | 'image' | 'columns' | 'codepage' | 'geometry' | 'status' | 'barcode'>> & {
  extends?: string | number;
  commands?: Partial<Commands>;
  qr?: Partial<ProfileData['qr']>;
  image?: Partial<NonNullable<ProfileData['image']>>;
  /** The native barcode command (merged into the parent's, type by type). */
  barcode?: Partial<Omit<NonNullable<ProfileData['barcode']>, 'types'>> & { types?: Partial<NonNullable<ProfileData['barcode']>['types']> };
  columns?: ProfileData['columns'];
  codepage?: Partial<ProfileData['codepage']>;
  geometry?: Partial<Geometry>;
  /** Status queries and confirmation (merged into the parent's); null: none. */
  status?: Partial<NonNullable<ProfileData['status']>> | null;
};

/** A printer given by template id (5, "5"), code ("MAKER5T20") or a profile object. */
export type PrinterRef = number | string | ProfileInput | Profile;

/** The paper in dots: printable width, default line pitch, font cells. */
export type Geometry = NonNullable<ProfileData['geometry']>;

/** A loaded, validated profile: the data with every default resolved. */
export interface Profile extends Readonly<Omit<ProfileData, 'columns' | 'geometry' | 'image'>> {
  /** Characters per line, as given or as many font cells as fit the printable width. */
  readonly columns: { readonly normal: number; readonly condensed: number };
  readonly geometry: Geometry;
  /** The image command, its width resolved (by default the printable width). */
  readonly image?: NonNullable<ProfileData['image']> & { readonly widthDots: number };
  readonly caps: ReadonlySet<Capability>;
  /** Command byte templates, compiled once; absent for text output. */
  readonly bytes: Readonly<Record<CommandKey | 'codepage', ByteTemplate | undefined>>;
}

/** A profile that fails the schema, or a reference to no profile: a usage error. */
export class ProfileError extends Error {
  override name = 'ProfileError';
}

const PROFILE = Symbol('bobina.profile');

/**
 * The profile data with its `extends` chain merged in. The chain ends: a user profile extends a
 * built-in template or baseline, and those extend only `escpos-base`, which extends nothing.
 */
function resolveExtends(input: Record<string, unknown>): Record<string, unknown> {
  const parent = input.extends;
  if (parent === undefined) return merge({}, input); // a copy without its "$comment"
  const key = String(parent);
  const base = BASELINES[key] ?? findTemplateData(key);
  if (!base) throw new ProfileError(`profile extends unknown printer "${key}"; known: ${knownNames()}`);
  const { extends: _drop, ...own } = input;
  return merge(resolveExtends(base as Record<string, unknown>), own);
}

/**
 * Deep merge of plain objects; anything else (scalars, arrays, null) replaces. Every key is an own
 * key of the result, `__proto__` too (JSON.parse makes it one): an assignment would change the
 * result's prototype instead, and the checks would judge inherited keys.
 */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    Object.defineProperty(out, key, { value: isPlainObject(value) && isPlainObject(prev) ? merge(prev, value) : value, enumerable: true, writable: true, configurable: true });
  }
  delete out.$comment;
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Template position by id ("5") or code ("MAKER5T20"); the one place a reference is matched. */
const templateIndex = new Map<string, number>(
  TEMPLATES.flatMap((t, i) => [[String((t as ProfileData).id), i] as const, [(t as ProfileData).code, i] as const]),
);

function findTemplate(ref: string | number): number | undefined {
  const key = String(ref).trim();
  return templateIndex.get(key) ?? templateIndex.get(key.toUpperCase());
}

function findTemplateData(key: string): object | undefined {
  return TEMPLATES[findTemplate(key) ?? -1];
}

function knownNames(): string {
  return TEMPLATES.map((t) => `${(t as ProfileData).id} ${(t as ProfileData).code}`).join(', ');
}

/** Validates resolved profile data and compiles it. Throws ProfileError listing every problem. */
export function createProfile(input: ProfileInput): Profile {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError(`createProfile(): data must be an object such as { extends: 'MAKER5T20' }, not ${shown(input)}`);
  }
  const data = resolveExtends(input as Record<string, unknown>);
  // Over a built-in template (its data checked by the tests), only the keys the input gives can
  // fail the schema: those are checked, and the full check runs only to explain a failure. (A
  // baseline is not a template: a profile over one is checked whole.)
  // Stryker disable next-line LogicalOperator,StringLiteral: they only leave the fast path off, and the whole check gives the same verdict
  const overTemplate = findTemplate(input.extends ?? '') !== undefined;
  if (!(overTemplate && CheckOverride(data, Object.keys(input)))) checkSchema(data);
  return build(data as ProfileData);
}

/** Compiles profile data that matches the schema. */
function build(data: ProfileData): Profile {
  if (data.output === 'escpos' && (!data.commands || !data.image)) {
    throw new ProfileError(`invalid printer profile ${describe(data)}: an escpos profile needs "commands" and "image"`);
  }
  try {
    codepage(data.codepage.encoding); // built here, once, so a bad name is the profile's error
  } catch (error) {
    throw new ProfileError(`invalid printer profile ${describe(data)}: ${(error as Error).message}`);
  }
  if (data.qr.command === 'bematech-gs-k-q' && !data.qr.params) {
    throw new ProfileError(`invalid printer profile ${describe(data)}: qr.command "bematech-gs-k-q" needs qr.params (N2 N3 N4, e.g. "08 00 01")`);
  }
  for (const [path, range] of [['qr.moduleRange', data.qr.moduleRange], ['barcode.moduleRange', data.barcode?.moduleRange], ['barcode.heightRange', data.barcode?.heightRange]] as const) {
    if (range && range.min > range.max) throw new ProfileError(`invalid printer profile ${describe(data)}: ${path}.min is more than its max`);
  }
  const geometry = data.geometry ?? (BASELINES['escpos-base'] as ProfileData).geometry!;
  const columns = {
    normal: data.columns?.normal ?? Math.floor(geometry.dotsPerLine / geometry.cell.normal.width),
    condensed: data.columns?.condensed ?? Math.floor(geometry.dotsPerLine / geometry.cell.condensed.width),
  };
  const image = data.image ? { image: { ...data.image, widthDots: data.image.widthDots ?? geometry.dotsPerLine } } : {};
  const caps = capabilities(data);
  const compile = (hex: string | null | undefined) => (hex ? compileTemplate(hex) : undefined);
  const bytes = Object.fromEntries([
    ...COMMAND_KEYS.map((key) => [key, compile(data.commands?.[key])] as const),
    ['codepage', compile(data.codepage.select)] as const,
  ]) as Profile['bytes'];
  const profile = Object.freeze({ ...(data as ProfileData), columns, geometry, ...image, caps, bytes, [PROFILE]: true }) as Profile;
  DATA.set(profile, data);
  return profile;
}

/** Each profile's data as given, before defaults: what a variant of it is built from. */
const DATA = new WeakMap<Profile, ProfileData>();

/**
 * The profile with `set` merged over its data, checked like any profile (the self-test page's
 * alternatives: another QR command, other band ends…).
 *
 * @example
 * withOverride(loadProfile('MAKER1MP4200'), { qr: { command: 'bematech-gs-k-q' } });
 */
export function withOverride(profile: Profile, set: ProfileInput): Profile {
  const data = merge(DATA.get(profile)! as Record<string, unknown>, set as Record<string, unknown>);
  checkSchema(data);
  return build(data);
}

/**
 * What the profile can do: a command's capability is held when every command giving it has bytes
 * (condensed needs both on and off). Plain-text output has no commands, so it holds none of them;
 * its data says what becomes of those tags instead (`missing`).
 */
function capabilities(data: ProfileData): Set<Capability> {
  const caps = new Set<Capability>();
  const c = data.commands as Partial<Record<CommandKey, string | null>> | undefined;
  const given = new Map<Capability, boolean>();
  for (const key of COMMAND_KEYS) {
    const cap = (COMMANDS[key] as { capability?: Capability }).capability;
    if (cap) given.set(cap, (given.get(cap) ?? true) && !!c?.[key]);
  }
  for (const [cap, held] of given) if (held) caps.add(cap);
  if (data.qr.command !== 'raster' && data.qr.command !== 'text') caps.add('qr.native');
  if (data.codepage.select) caps.add('codepage.select');
  if (data.image) caps.add('image');
  return caps;
}

/**
 * Throws ProfileError unless `data` matches the schema. The check is the schema's JSON run by a
 * small interpreter held to TypeBox's verdicts (check.ts); TypeBox itself is loaded only for a
 * profile that fails it, to list what is wrong.
 */
function checkSchema(data: Record<string, unknown>): asserts data is ProfileData {
  if (Check(data)) return;
  const verdict = typeboxVerdict(ProfileSchema, data);
  // Stryker disable next-line OptionalChaining: only without TypeBox, which loads in Node 20.19+; test/profiles/fallback.test.ts kills it, outside the mutation run (vi.mock)
  if (verdict?.valid) return;
  // Stryker disable next-line OptionalChaining,ArrayDeclaration,StringLiteral: only without TypeBox, which loads in Node 20.19+; test/profiles/fallback.test.ts kills them, outside the mutation run (vi.mock)
  const problems = verdict?.problems ?? ['it does not match the profile schema (run on Node 20.19+ or 22.12+ for the details)'];
  throw new ProfileError(`invalid printer profile ${describe(data)}: ${problems.join('; ')}`);
}

function describe(data: Record<string, unknown>): string {
  return data.code ? `"${String(data.code)}"` : '(unnamed)';
}

const builtins = cacheMap<number, Profile>();

/**
 * A built-in template, built on first use. Its data is checked against the schema by the tests
 * (test/profiles/check.test.ts), not on every load.
 */
function builtin(i: number): Profile {
  let profile = builtins.get(i);
  if (!profile) {
    profile = build(resolveExtends(TEMPLATES[i] as Record<string, unknown>) as ProfileData);
    builtins.set(i, profile);
  }
  return profile;
}

const allBuiltins = lazy(() => TEMPLATES.map((_, i) => builtin(i)));

/** The seven built-in templates, in id order. */
export function listProfiles(): readonly Profile[] {
  return allBuiltins();
}

/**
 * Finds a profile by template id (5 or "5"), code ("MAKER5T20", any case), or builds one from a
 * profile object (`{ extends: "MAKER5T20", qr: { command: "epson-gs-k" } }`).
 * Throws ProfileError for an unknown printer: that is a usage error, not bad content.
 */
export function loadProfile(ref: PrinterRef): Profile {
  if (typeof ref === 'object' && ref !== null) {
    if ((ref as Record<symbol, unknown>)[PROFILE]) return ref as Profile;
    return userProfile(ref as ProfileInput);
  }
  const i = findTemplate(ref);
  const found = i === undefined ? undefined : builtin(i);
  if (!found) throw new ProfileError(`unknown printer "${String(ref)}"; known: ${knownNames()}`);
  return found;
}

const userCache = lazy(() => new WeakMap<object, Profile>());
function userProfile(input: ProfileInput): Profile {
  let profile = userCache().get(input);
  if (!profile) {
    profile = createProfile(input);
    userCache().set(input, profile);
  }
  return profile;
}

export type { ProfileData, Commands, BarcodeProfile } from './schema.js';
export { COMMANDS, COMMAND_KEYS, commandRows, type Capability, type CommandKey } from './commands.js';
export { ProfileSchema, type ProfileJsonSchema } from './profile-schema.js';
