// Profiles: the built-in templates and user profiles, resolved (`extends`), validated against the
// schema, and compiled once into what the passes need: a capability set and byte templates.
// A built-in template is built on first use, so a process pays only for the printers it uses, and
// its schema check is done by the tests rather than at every load.
import { BASELINES, TEMPLATES } from './builtin/index.js';
import { codepage } from '../text/codepage.js';
import { compileTemplate, type ByteTemplate } from './bytes.js';
import { Check } from './check.generated.js';
import { ProfileSchema } from './profile-schema.js';
import type { Commands, ProfileData } from './schema.js';
import { typeboxVerdict } from './typebox-verdict.js';

/** What a profile can do; passes ask `profile.caps.has('cut.partial')`, never the model's name. */
export type Capability = 'cut.partial' | 'condensed' | 'qr.native' | 'codepage.select' | 'image';

/** A user profile: any part of a profile, on top of the one it `extends` (a template id or code). */
export type ProfileInput = Partial<Omit<ProfileData, 'commands' | 'qr' | 'image' | 'columns' | 'codepage'>> & {
  extends?: string | number;
  commands?: Partial<Commands>;
  qr?: Partial<ProfileData['qr']>;
  image?: Partial<NonNullable<ProfileData['image']>>;
  columns?: Partial<ProfileData['columns']>;
  codepage?: Partial<ProfileData['codepage']>;
};

/** A printer given by template id (5, "5"), code ("MAKER5T20") or a profile object. */
export type PrinterRef = number | string | ProfileInput | Profile;

/** A loaded, validated profile. */
export interface Profile extends Readonly<ProfileData> {
  readonly caps: ReadonlySet<Capability>;
  /** Command byte templates, compiled once; absent for text output. */
  readonly bytes: Readonly<Record<keyof Commands | 'codepage', ByteTemplate | undefined>>;
}

/** A profile that fails the schema, or a reference to no profile: a usage error. */
export class ProfileError extends Error {
  override name = 'ProfileError';
}

const PROFILE = Symbol('bobina.profile');

function resolveExtends(input: Record<string, unknown>, seen: Set<string>): Record<string, unknown> {
  const parent = input.extends;
  if (parent === undefined) return input;
  const key = String(parent);
  if (seen.has(key)) throw new ProfileError(`profile "extends" cycle through ${key}`);
  seen.add(key);
  const base = BASELINES[key] ?? findTemplateData(key);
  if (!base) throw new ProfileError(`profile extends unknown printer "${key}"; known: ${knownNames()}`);
  const { extends: _drop, ...own } = input;
  return merge(resolveExtends(base as Record<string, unknown>, seen), own);
}

/** Deep merge of plain objects; anything else (scalars, arrays, null) replaces. */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (key === '$comment') continue;
    const prev = out[key];
    out[key] = isPlainObject(value) && isPlainObject(prev) ? merge(prev, value) : value;
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
  const i = findTemplate(key);
  return i === undefined ? undefined : TEMPLATES[i];
}

function knownNames(): string {
  return TEMPLATES.map((t) => `${(t as ProfileData).id} ${(t as ProfileData).code}`).join(', ');
}

/** Validates resolved profile data and compiles it. Throws ProfileError listing every problem. */
export function createProfile(input: ProfileInput): Profile {
  const data = resolveExtends(input as Record<string, unknown>, new Set());
  checkSchema(data);
  return build(data);
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
  const caps = new Set<Capability>();
  const c = data.commands;
  if (c?.cutPartial) caps.add('cut.partial');
  if (c?.condensedOn && c.condensedOff) caps.add('condensed');
  if (data.qr.command !== 'raster' && data.qr.command !== 'text') caps.add('qr.native');
  if (data.codepage.select) caps.add('codepage.select');
  if (data.image) caps.add('image');
  if (data.output === 'text') {
    // Plain text has no formatting: the spec says the generic template prints the text with the
    // tags removed, so these tags are accepted with the same meaning rather than degraded.
    caps.add('cut.partial');
    caps.add('condensed');
  }
  const compile = (hex: string | null | undefined) => (hex ? compileTemplate(hex) : undefined);
  const bytes = {
    init: compile(c?.init),
    alignLeft: compile(c?.alignLeft),
    alignCenter: compile(c?.alignCenter),
    alignRight: compile(c?.alignRight),
    condensedOn: compile(c?.condensedOn),
    condensedOff: compile(c?.condensedOff),
    cutFull: compile(c?.cutFull),
    cutPartial: compile(c?.cutPartial),
    feed: compile(c?.feed),
    drawer: compile(c?.drawer),
    codepage: compile(data.codepage.select),
  };
  return Object.freeze({ ...(data as ProfileData), caps, bytes, [PROFILE]: true });
}

/**
 * Throws ProfileError unless `data` matches the schema. The check is TypeBox's, compiled ahead of
 * time (check.generated.ts); TypeBox itself is loaded only for a profile that fails it, to list
 * what is wrong.
 */
function checkSchema(data: Record<string, unknown>): asserts data is ProfileData {
  if (Check(data)) return;
  const verdict = typeboxVerdict(ProfileSchema, data);
  if (verdict?.valid) return;
  const problems = verdict?.problems ?? ['it does not match the profile schema (run on Node 20.19+ or 22.12+ for the details)'];
  throw new ProfileError(`invalid printer profile ${describe(data)}: ${problems.join('; ')}`);
}

function describe(data: Record<string, unknown>): string {
  return data.code ? `"${String(data.code)}"` : '(unnamed)';
}

const builtins: Profile[] = [];
let all: readonly Profile[] | undefined;

/**
 * A built-in template, built on first use. Its data is checked against the schema by the tests
 * (test/profile-check.test.ts), not on every load.
 */
function builtin(i: number): Profile {
  return (builtins[i] ??= build(resolveExtends(TEMPLATES[i] as Record<string, unknown>, new Set()) as ProfileData));
}

/** The seven built-in templates, in id order. */
export function listProfiles(): readonly Profile[] {
  return (all ??= TEMPLATES.map((_, i) => builtin(i)));
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

const userCache = new WeakMap<object, Profile>();
function userProfile(input: ProfileInput): Profile {
  let profile = userCache.get(input);
  if (!profile) {
    profile = createProfile(input);
    userCache.set(input, profile);
  }
  return profile;
}

export type { ProfileData, Commands } from './schema.js';
export { ProfileSchema } from './profile-schema.js';
