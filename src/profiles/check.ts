// The profile check: the JSON Schema in schema.json (TypeBox's, written by `npm run profile-schema`)
// turned into a tree of small predicates at the first check, with TypeBox's semantics for the few
// keywords that schema uses. It replaces TypeBox's generated checker, whose 18 KB of source every
// import paid for (and every browser bundle carried) to check the odd user profile; the tests hold
// it to accepting exactly what TypeBox's Value.Check accepts (test/profiles/check.test.ts).
//
// A keyword it does not know is an error at the first check, never a keyword silently ignored.
import { cacheMap, lazy } from '../caches.js';
import json from './schema.json' with { type: 'json' };

type Predicate = (value: unknown) => boolean;
type Node = Record<string, unknown>;

/** TypeBox's markers and keywords that only describe: nothing to check. */
const IGNORED = new Set(['~kind', '~optional', 'description', 'title', '$comment', 'examples', 'default']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const TYPES: Record<string, Predicate> = {
  object: isObject,
  array: Array.isArray,
  string: (v) => typeof v === 'string',
  integer: Number.isInteger,
  number: Number.isFinite,
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

/** Unicode code points in a string, counted as TypeBox counts them (a high surrogate followed by a low one is one). */
function codePoints(s: string): number {
  let n = 0;
  let prev = 0;
  for (let i = 0; i < s.length; i++) {
    const next = s.charCodeAt(i) >> 10;
    if (!(prev === 0x36 && next === 0x37)) n++;
    prev = next;
  }
  return n;
}

/** One predicate per keyword of a node; the node holds when all of them do (the type first). */
function compile(node: Node): Predicate {
  const checks: Predicate[] = [];
  for (const [key, arg] of Object.entries(node)) {
    if (IGNORED.has(key) || key === 'type' || key === 'required' || key === 'properties') continue;
    checks.push(keyword(key, arg, node));
  }
  if (node.properties !== undefined || node.required !== undefined) checks.unshift(objectShape(node));
  if (node.type !== undefined) {
    const type = TYPES[node.type as string];
    if (!type) throw new Error(`profile check: unsupported schema type ${JSON.stringify(node.type)}`);
    checks.unshift(type);
  }
  if (checks.length === 1) return checks[0]!;
  return (v) => {
    for (const check of checks) if (!check(v)) return false;
    return true;
  };
}

function keyword(key: string, arg: unknown, node: Node): Predicate {
  switch (key) {
    case 'const':
      return (v) => v === arg;
    case 'minimum':
      return (v) => (v as number) >= (arg as number);
    case 'maximum':
      return (v) => (v as number) <= (arg as number);
    case 'exclusiveMinimum':
      return (v) => (v as number) > (arg as number);
    case 'minLength': {
      const n = arg as number;
      return (v) => (v as string).length >= 2 * n || ((v as string).length >= n && codePoints(v as string) >= n);
    }
    case 'pattern': {
      const re = new RegExp(arg as string, 'u');
      return (v) => re.test(v as string);
    }
    case 'minItems':
      return (v) => (v as unknown[]).length >= (arg as number);
    case 'items': {
      const item = compile(arg as Node);
      return (v) => (v as unknown[]).every((x) => item(x));
    }
    case 'anyOf': {
      const options = (arg as Node[]).map(compile);
      return (v) => options.some((option) => option(v));
    }
    case 'patternProperties': {
      const rules = Object.entries(arg as Record<string, Node>).map(([pattern, schema]) => [new RegExp(pattern, 'u'), compile(schema)] as const);
      return (v) => Object.entries(v as object).every(([k, x]) => rules.every(([re, check]) => !re.test(k) || check(x)));
    }
    default:
      throw new Error(`profile check: unsupported schema keyword "${key}" in ${JSON.stringify(Object.keys(node))}`);
  }
}

/** Required keys present (`in`, as TypeBox asks), each property valid; an optional one may be absent or undefined. */
function objectShape(node: Node): Predicate {
  const required = (node.required ?? []) as string[];
  const properties = Object.entries((node.properties ?? {}) as Record<string, Node>).map(([key, schema]) => [key, compile(schema), required.includes(key)] as const);
  return (v) => {
    const o = v as Record<string, unknown>;
    for (const key of required) if (!(key in o)) return false;
    for (const [key, check, isRequired] of properties) {
      const x = o[key];
      if (isRequired ? !check(x) : !(x === undefined || check(x))) return false;
    }
    return true;
  };
}

const schemaCheck = lazy(() => compile(json as Node));

/** True when `value` matches the profile schema (TypeBox's Value.Check, without TypeBox). */
export function Check(value: unknown): boolean {
  return schemaCheck()(value);
}

/** The predicate of each top-level property asked for so far (null: the schema does not name it). */
const topLevel = cacheMap<string, Predicate | null>();

/** The predicate of one top-level property (an optional one also accepts undefined), compiled when first asked for. */
function property(key: string): Predicate | null {
  return topLevel.get(key) ?? compileProperty(key);
}

function compileProperty(key: string): Predicate | null {
  const root = json as Node;
  const schema = (root.properties as Record<string, Node>)[key];
  let check: Predicate | null = null;
  if (schema) {
    const inner = compile(schema);
    check = (root.required as string[]).includes(key) ? inner : (v) => v === undefined || inner(v);
  }
  topLevel.set(key, check);
  return check;
}

/**
 * Check(value) for a value made by deep-merging `keys` over data that matches the schema (a
 * user profile over the built-in template it extends): only those keys can make it fail. The
 * schema's root is an object with only `type`, `required` and `properties` (test/profiles/check.test.ts
 * holds it to that), whose properties do not depend on one another, so checking the merged value
 * of each given key decides; a key the schema does not name is free, as it is for Check. A key
 * set to undefined counts as present, as in Check: a required one fails.
 */
export function CheckOverride(value: Record<string, unknown>, keys: readonly string[]): boolean {
  for (const key of keys) {
    const check = property(key);
    if (check && !check(value[key])) return false;
  }
  return true;
}

/** The predicate for any schema node of the kind schema.json holds (for tests on other schemas). */
export { compile as compileSchema };
