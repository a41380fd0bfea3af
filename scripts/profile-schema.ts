// Regenerates src/profiles/schema.json from the TypeBox definition in src/profiles/schema.ts, and
// src/profiles/schema-types.generated.ts, its types spelled out (scripts/schema-types.ts):
// `npm run profile-schema`. The library loads the JSON, not TypeBox, because building the schema
// with TypeBox costs more at import than the whole compiler; src/profiles/check.ts checks
// profiles against the JSON. TypeBox's non-enumerable markers
// (`~kind`, `~optional`) are left out; src/profiles/profile-schema.ts puts them back.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProfileSchema } from '../src/profiles/schema.js';
import { SCHEMA_TYPES_FILE, schemaTypes } from './schema-types.js';

/** A copy without TypeBox's `~` markers (profile-schema.ts puts them back at load). */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null) return value;
  if (Object.getOwnPropertySymbols(value).length) throw new Error('symbol keys do not survive JSON');
  return Object.fromEntries(Object.getOwnPropertyNames(value).filter((key) => !key.startsWith('~')).map((key) => [key, plain((value as Record<string, unknown>)[key])]));
}

const out = join(import.meta.dirname, '..', 'src', 'profiles', 'schema.json');
writeFileSync(out, `${JSON.stringify(plain(ProfileSchema), null, 2)}\n`);
console.log(`wrote ${out}`);
writeFileSync(SCHEMA_TYPES_FILE, schemaTypes());
console.log(`wrote ${SCHEMA_TYPES_FILE}`);
