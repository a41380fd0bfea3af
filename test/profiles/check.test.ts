// The profile schema without TypeBox at run time: the JSON copy is TypeBox's schema, the check
// that runs it (check.ts) accepts exactly what TypeBox's Value.Check accepts, and a rejected
// profile gets TypeBox's messages.
import fc from 'fast-check';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { createProfile, listProfiles, ProfileError, ProfileSchema } from '../../src/index.js';
import { BASELINES, TEMPLATES } from '../../src/profiles/builtin/index.js';
import { Check, CheckOverride } from '../../src/profiles/check.js';
import { ProfileSchema as Built } from '../../src/profiles/schema.js';

/** Every own property of every node, with its value and enumerability: what "the same object" means here. */
function describeTree(node: unknown, path = ''): string[] {
  if (typeof node !== 'object' || node === null) return [`${path} = ${JSON.stringify(node)}`];
  const out = [`${path} ${Array.isArray(node) ? 'array' : 'object'} symbols:${Object.getOwnPropertySymbols(node).length}`];
  for (const key of Object.getOwnPropertyNames(node)) {
    const d = Object.getOwnPropertyDescriptor(node, key)!;
    if (Array.isArray(node) && key === 'length') continue;
    out.push(`${path}/${key} enumerable:${d.enumerable} writable:${d.writable}`, ...describeTree(d.value, `${path}/${key}`));
  }
  return out;
}

/** The resolved data of each built-in template, as plain JSON. */
const templates = listProfiles().map(({ caps: _c, bytes: _b, ...data }) => structuredClone(data) as Record<string, unknown>);

const odd = [
  undefined, null, true, false, 0, -0, 1, -1, 1.5, 7, 8, 16, 17, 255, 256, 4096, 4097, 65535, 65536, NaN, Infinity, -Infinity,
  '', ' ', 'x', 'ABC_1', 'abc', 'MAKER5T20', '😀', 'a\nb', '1B 40', '1b 4a', '1B 64 n', '0A*n', 'n', 'n n', '1B 7', ' 1B', '1B  40', '1B 40 ',
  'escpos', 'text', 'raster', 'epson-gs-k', 'bematech-gs-k-q', 'daruma-esc-81', 'gs-v-0', 'esc-star-24', 'L', 'M', 'Q', 'H', 'X', 'cp850',
  [], ['1B'], {}, { confidence: 'L', source: 'x' }, { confidence: 'M', source: '' }, { confidence: 'Z', source: 'y' },
  { normal: 48, condensed: 64 }, { encoding: 'cp850', select: null },
];
const keys = ['id', 'code', 'columns', 'normal', 'select', 'commands', 'feed', 'cutPartial', 'feedBeforeCut', 'qr', 'ecc', 'image', 'command', 'sources', 'source', 'extra', 'a\nb', '', '__proto__', 'constructor', 'toString'];

type Mutation = { path: number; action: 'set' | 'delete' | 'add'; key: string; value: unknown };

/** Every object in `root`, root first, in a fixed order: the places a mutation can land. */
function objectsIn(root: Record<string, unknown>, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (out.includes(root)) return out;
  out.push(root);
  for (const v of Object.values(root)) if (typeof v === 'object' && v !== null && !Array.isArray(v)) objectsIn(v as Record<string, unknown>, out);
  return out;
}

function mutate(base: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> {
  const root = structuredClone(base);
  for (const m of mutations) {
    const places = objectsIn(root);
    const target = places[m.path % places.length]!;
    const own = Object.keys(target);
    const key = m.action === 'add' || own.length === 0 ? m.key : own[m.path % own.length]!;
    if (m.action === 'delete') delete target[key];
    else Object.defineProperty(target, key, { value: structuredClone(m.value), enumerable: true, writable: true, configurable: true });
  }
  return root;
}

const mutation = fc.record({
  path: fc.nat(),
  action: fc.constantFrom('set', 'set', 'delete', 'add'),
  key: fc.constantFrom(...keys),
  value: fc.oneof(fc.constantFrom(...odd), fc.anything()),
});
const profileLike = fc.tuple(fc.constantFrom(...templates), fc.array(mutation, { minLength: 0, maxLength: 3 })).map(([t, ms]) => mutate(t, ms));

describe('profile schema at run time', () => {
  it('is the object TypeBox builds from schema.ts (otherwise: npm run profile-schema)', () => {
    expect(describeTree(ProfileSchema)).toEqual(describeTree(Built));
  });

  it('holds built-in templates that match it: checked here, at test time, not at every load', () => {
    expect(templates).toHaveLength(7);
    for (const data of templates) {
      expect([...Value.Errors(Built, data)].map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
      expect(Check(data)).toBe(true);
    }
    // What a user profile extends: the same data before defaults (CheckOverride relies on it).
    for (const data of rawTemplates) expect([...Value.Errors(Built, data)].map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
  });
});

/** Deep merge as createProfile does it: plain objects merge, anything else replaces; no "$comment". */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (key === '$comment') continue;
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    const plain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    Object.defineProperty(out, key, { value: plain(value) && plain(prev) ? merge(prev, value) : value, enumerable: true, writable: true, configurable: true });
  }
  delete out.$comment;
  return out;
}

/** A template's data with its `extends` chain merged in, before any default: what a user profile extends. */
function resolved(data: Record<string, unknown>): Record<string, unknown> {
  const { extends: parent, ...own } = data;
  if (parent === undefined) return merge({}, own);
  return merge(resolved((BASELINES[String(parent)] ?? TEMPLATES.find((t) => (t as { code: string }).code === parent)) as Record<string, unknown>), own);
}
const rawTemplates = TEMPLATES.map((t) => resolved(t as Record<string, unknown>));

describe('the run-time profile check', () => {
  it('accepts exactly what TypeBox accepts, on mutated templates and on anything at all', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 5, arbitrary: profileLike }, fc.anything()), (value) => {
        expect(Check(value)).toBe(Value.Check(Built, value));
      }),
      { numRuns: 4000 },
    );
  }, 60_000);

  it('gives a rejected profile exactly the error list TypeBox gives', () => {
    fc.assert(
      fc.property(profileLike, (value) => {
        fc.pre(!Value.Check(Built, value) && !('extends' in value) && (typeof value.code !== 'object' || value.code === null));
        const problems = [...Value.Errors(Built, value)].map((e) => `${e.instancePath || '/'} ${e.message}`);
        const name = value.code ? `"${String(value.code)}"` : '(unnamed)';
        expect(() => createProfile(value as never)).toThrow(ProfileError);
        expect(() => createProfile(value as never)).toThrow(`invalid printer profile ${name}: ${problems.join('; ')}`);
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('over a template, decides from the keys a user profile gives exactly what TypeBox decides on the whole', () => {
    const schemaKeys = Object.keys((Built as unknown as { properties: object }).properties);
    // Top-level overrides: a template's own subtree mutated, or odd values, or junk keys.
    const override = fc
      .tuple(fc.constantFrom(...rawTemplates), fc.array(mutation, { maxLength: 3 }), fc.subarray([...schemaKeys, 'extra', '__proto__']), fc.array(fc.tuple(fc.constantFrom(...schemaKeys, 'extra'), fc.oneof(fc.constantFrom(...odd), fc.anything())), { maxLength: 2 }))
      .map(([source, ms, picked, odds]) => {
        const mutated = mutate(source, ms);
        const over: Record<string, unknown> = {};
        for (const key of picked) if (key in mutated) Object.defineProperty(over, key, { value: mutated[key], enumerable: true, writable: true, configurable: true });
        for (const [key, value] of odds) over[key] = value;
        return over;
      });
    fc.assert(
      fc.property(fc.constantFrom(...rawTemplates), override, (template, over) => {
        const merged = merge(template, over);
        const verdict = Value.Check(Built, merged);
        expect(CheckOverride(merged, Object.keys(over))).toBe(verdict);
        expect(Check(merged)).toBe(verdict);
      }),
      // First, a key "__proto__" as JSON.parse gives it: an own key, which once set the merged object's prototype.
      { numRuns: 3000, examples: [[rawTemplates.find((t) => t.code === 'GENERICA')!, JSON.parse('{"__proto__": {"": {}, "commands": ""}}')]] },
    );
  }, 60_000);

  it('rejects a bad value anywhere in a profile', () => {
    const t20 = templates[5]!;
    expect(Check(t20)).toBe(true);
    expect(Check({ ...t20, qr: { ...(t20.qr as object), ecc: 'X' } })).toBe(false);
    expect(Check({ ...t20, sources: { a: { confidence: 'L', source: '' } } })).toBe(false);
    expect(Check([])).toBe(false);
  });
});
