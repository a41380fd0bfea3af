// src/profiles/schema-types.generated.ts: the TypeBox schemas' types spelled out for the public
// declarations (scripts/schema-types.ts) must be TypeScript's current reading of the schemas. Not
// among the compiler's tests (vitest.compiler.ts): a mutation run's sandbox marks every source
// `// @ts-nocheck`, the generated file included.
import { readFileSync } from 'node:fs';
import type { Static } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { SCHEMA_TYPES_FILE, schemaTypes } from '../scripts/schema-types.js';
import type { CommandsSchema, ProfileSchema, SourceSchema } from '../src/profiles/schema.js';
import type { Commands, ProfileData, Source } from '../src/profiles/schema.js';
import type { ConfirmSchema, StatusReasonSchema, StatusSchema } from '../src/profiles/status-schema.js';
import type { ConfirmData, StatusData, StatusReason } from '../src/profiles/status-schema.js';
import type { ProfileInput } from '../src/index.js';

describe('the schemas\' types, spelled out', () => {
  it('are what the schemas give today (otherwise: npm run profile-schema)', () => {
    expect(readFileSync(SCHEMA_TYPES_FILE, 'utf8')).toBe(schemaTypes());
  }, 60_000);

  it('equal TypeBox\'s Static of each schema (checked by tsc --noEmit, which npm test runs)', () => {
    expectTypeOf<ProfileData>().toEqualTypeOf<Static<typeof ProfileSchema>>();
    expectTypeOf<Source>().toEqualTypeOf<Static<typeof SourceSchema>>();
    expectTypeOf<Commands>().toEqualTypeOf<Static<typeof CommandsSchema>>();
    expectTypeOf<StatusData>().toEqualTypeOf<Static<typeof StatusSchema>>();
    expectTypeOf<ConfirmData>().toEqualTypeOf<Static<typeof ConfirmSchema>>();
    expectTypeOf<StatusReason>().toEqualTypeOf<Static<typeof StatusReasonSchema>>();
  });

  it('let a profile written in TypeScript say which commands reset the styles (resetsStyles was never[])', () => {
    const profile: ProfileInput = { extends: 'MAKER5T20', resetsStyles: ['condensedOn', 'condensedOff'] };
    expect(profile.resetsStyles).toHaveLength(2);
    // @ts-expect-error a style command is not one that resets the styles
    const wrong: ProfileInput = { extends: 'MAKER5T20', resetsStyles: ['boldOn'] };
    expect(wrong).toBeDefined();
  });
});
