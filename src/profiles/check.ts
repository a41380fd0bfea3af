// A small JSON Schema matcher for the keywords the profile schema uses, with TypeBox's meaning for
// each, so checking a profile needs no TypeBox at run time. test/profile-check.test.ts holds it to
// TypeBox's Value.Check on generated profiles. A keyword it does not know throws: a change to the
// schema can make it fail loudly, never quietly accept more than TypeBox would.

type Schema = Readonly<Record<string, unknown>>;

const KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  object: ['required', 'properties', 'patternProperties'],
  string: ['pattern', 'minLength'],
  integer: ['minimum', 'maximum'],
  boolean: [],
  null: [],
};

const regexps = new Map<string, RegExp>();
const supported = new WeakSet<object>();

/**
 * The instance path ("/commands/drawer") of the first value in `value` that `schema` rejects, or
 * undefined when the whole value matches. "" is the root.
 */
export function firstMismatch(schema: object, value: unknown): string | undefined {
  if (!supported.has(schema)) {
    assertSupported(schema as Schema);
    supported.add(schema);
  }
  return mismatch(schema as Schema, value, '');
}

function mismatch(schema: Schema, value: unknown, path: string): string | undefined {
  if (schema.anyOf) return (schema.anyOf as Schema[]).some((s) => mismatch(s, value, path) === undefined) ? undefined : path;
  if (!hasType(schema.type as string, value)) return path;
  if ('const' in schema && value !== schema.const) return path;
  switch (schema.type) {
    case 'string': {
      const s = value as string;
      if (schema.pattern !== undefined && !regexp(schema.pattern as string).test(s)) return path;
      if (schema.minLength !== undefined && !hasMinLength(s, schema.minLength as number)) return path;
      return undefined;
    }
    case 'integer': {
      const n = value as number;
      if (schema.minimum !== undefined && !(n >= (schema.minimum as number))) return path;
      if (schema.maximum !== undefined && !(n <= (schema.maximum as number))) return path;
      return undefined;
    }
    case 'object':
      return objectMismatch(schema, value as Record<string, unknown>, path);
    default:
      return undefined;
  }
}

function objectMismatch(schema: Schema, value: Record<string, unknown>, path: string): string | undefined {
  const required = (schema.required ?? []) as readonly string[];
  for (const key of required) if (!hasKey(value, key)) return path;
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    if (!hasKey(value, key)) continue;
    // TypeBox's default: an optional property that is present but undefined counts as absent.
    if (!required.includes(key) && value[key] === undefined) continue;
    const found = mismatch(sub, value[key], `${path}/${key}`);
    if (found !== undefined) return found;
  }
  for (const [pattern, sub] of Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>)) {
    const re = regexp(pattern);
    for (const [key, prop] of Object.entries(value)) {
      if (!re.test(key)) continue;
      const found = mismatch(sub, prop, `${path}/${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object': return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'string': return typeof value === 'string';
    case 'integer': return Number.isInteger(value);
    case 'boolean': return typeof value === 'boolean';
    case 'null': return value === null;
    default: throw new Error(`profile schema: unsupported type ${JSON.stringify(type)}`);
  }
}

/** TypeBox's HasPropertyKey: `in`, except own-only for the keys that reach the prototype. */
function hasKey(value: object, key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype' ? Object.hasOwn(value, key) : key in value;
}

/** minLength counts code points, as TypeBox does. */
function hasMinLength(s: string, min: number): boolean {
  if (s.length >= min * 2) return true;
  if (s.length < min) return false;
  let count = 0;
  for (const _ of s) if (++count >= min) return true;
  return false;
}

/** Patterns are compiled with the `u` flag, as TypeBox compiles them. */
function regexp(pattern: string): RegExp {
  let re = regexps.get(pattern);
  if (!re) regexps.set(pattern, (re = new RegExp(pattern, 'u')));
  return re;
}

/** Every keyword in the schema tree is one this matcher implements for its type; throws otherwise. */
export function assertSupported(schema: Schema): void {
  const keys = Object.keys(schema);
  const fail = (why: string) => {
    throw new Error(`profile schema: ${why} (${JSON.stringify(schema).slice(0, 80)})`);
  };
  if (schema.anyOf !== undefined) {
    if (keys.length !== 1 || !Array.isArray(schema.anyOf)) fail('anyOf must stand alone');
    for (const s of schema.anyOf as Schema[]) assertSupported(s);
    return;
  }
  const allowed = KEYWORDS[schema.type as string];
  if (!allowed) fail(`unsupported type ${JSON.stringify(schema.type)}`);
  for (const key of keys) {
    if (key === 'type' || allowed!.includes(key)) continue;
    if (key === 'const' && schema.type !== 'object' && typeof schema.const !== 'object') continue;
    fail(`unsupported keyword "${key}" for type ${String(schema.type)}`);
  }
  for (const sub of Object.values((schema.properties ?? {}) as Record<string, Schema>)) assertSupported(sub);
  for (const sub of Object.values((schema.patternProperties ?? {}) as Record<string, Schema>)) assertSupported(sub);
}
