// The profile check's interpreter (src/profiles/check.ts) on schemas other than the profile's: every
// keyword it knows, in the shapes schema.json uses them, against TypeBox's Value.Check on the same
// JSON. The profile schema alone leaves parts of it unexercised (no minLength above 1, no
// patternProperties with two rules, no object with `required` but no `properties`).
import fc from 'fast-check';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/profiles/check.js';
import json from '../../src/profiles/schema.json' with { type: 'json' };

type Node = Record<string, unknown>;
const KEYS = ['a', 'b', 'xa', 'by', 'xy'];

const leaf: fc.Arbitrary<Node> = fc.oneof(
  fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ type: fc.constant('string'), pattern: fc.constantFrom('^[A-Z0-9_]+$', '^.$', '^\\u{1F600}+$', '^[^a]*$') }),
  fc.record({ type: fc.constant('integer'), minimum: fc.integer({ min: -2, max: 2 }), maximum: fc.integer({ min: -2, max: 4 }) }),
  fc.record({ type: fc.constant('number'), exclusiveMinimum: fc.integer({ min: -1, max: 2 }) }),
  fc.record({ type: fc.constantFrom('boolean', 'null', 'integer', 'number', 'string', 'array', 'object') }),
  fc.record({ const: fc.constantFrom('L', 'M', 0, 1, true, null) }),
  fc.record({ type: fc.constant('string'), const: fc.constantFrom('escpos', 'text') }),
);

const schema: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ type: fc.constant('array'), items: tie('node'), minItems: fc.integer({ min: 0, max: 2 }) }, { requiredKeys: ['type', 'items'] }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc
      .record({
        type: fc.constant('object'),
        required: fc.subarray(KEYS, { maxLength: 2 }),
        properties: fc.dictionary(fc.constantFrom(...KEYS), tie('node'), { maxKeys: 3 }),
        patternProperties: fc.dictionary(fc.constantFrom('^x', 'y$', '^a$'), tie('node'), { minKeys: 1, maxKeys: 2 }),
      }, { requiredKeys: ['type'] }),
  ),
})).node;

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, 1, -1, 2, 3, 1.5, -0.5, 'L', 'M', 'A', 'AB', 'ab', 'escpos', '', '😀', '😀😀', '\ud83d', '\ud83d\ud83d', 'a😀', 'é'),
    fc.integer({ min: -3, max: 5 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('v'), { maxKeys: 4 }),
  ),
})).v;

describe('the profile check interpreter', () => {
  it('agrees with TypeBox on generated schemas of the shapes schema.json uses, for any value', () => {
    fc.assert(
      fc.property(schema, fc.array(value, { minLength: 1, maxLength: 8 }), (node, values) => {
        const check = compileSchema(structuredClone(node));
        for (const v of values) expect(check(v), JSON.stringify({ node, v })).toBe(Value.Check(node as never, v));
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('counts code points as TypeBox does for minLength: a surrogate pair is one, a lone surrogate is one', () => {
    const two = compileSchema({ type: 'string', minLength: 2 });
    const three = compileSchema({ type: 'string', minLength: 3 });
    for (const [text, atLeastTwo, atLeastThree] of [
      ['😀', false, false],
      ['😀😀', true, false],
      ['a😀', true, false],
      ['😀a😀', true, true],
      ['\ud83d\ud83d', true, false],
      ['\ude00\ud83d', true, false],
      ['\ud83d\ude00\ude00', true, false],
      ['ab', true, false],
    ] as const) {
      expect(two(text), text).toBe(atLeastTwo);
      expect(three(text), text).toBe(atLeastThree);
      expect(Value.Check({ type: 'string', minLength: 2 } as never, text)).toBe(atLeastTwo);
      expect(Value.Check({ type: 'string', minLength: 3 } as never, text)).toBe(atLeastThree);
    }
  });

  it('checks an object that requires keys without describing them', () => {
    const check = compileSchema({ type: 'object', required: ['a'] });
    expect(check({ a: undefined })).toBe(true);
    expect(check({ b: 1 })).toBe(false);
  });

  it('refuses, when it compiles, a type or keyword it does not know, instead of ignoring it', () => {
    expect(() => compileSchema({ type: 'date' })).toThrow('profile check: unsupported schema type "date"');
    expect(() => compileSchema({ type: 'string', format: 'email' })).toThrow('profile check: unsupported schema keyword "format" in ["type","format"]');
  });

  it('reads a schema.json whose root is an object of independent properties, as CheckOverride needs', () => {
    const root = json as Node;
    expect(root.type).toBe('object');
    const describing = new Set(['~kind', '~optional', 'description', 'title', '$comment', 'examples', 'default']);
    expect(Object.keys(root).filter((k) => !describing.has(k)).sort()).toEqual(['properties', 'required', 'type']);
  });
});
