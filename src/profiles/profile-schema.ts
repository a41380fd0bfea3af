// The profile schema as loaded at run time: the JSON that `npm run profile-schema` writes from the
// TypeBox definition in schema.ts, so that importing bobina does not load TypeBox. A test checks
// that it is the same object TypeBox builds, down to TypeBox's hidden `~kind` markers.
import type { ProfileSchema as Built } from './schema.js';
import json from './schema.json' with { type: 'json' };

/** Makes TypeBox's `~` markers non-enumerable again, as TypeBox defines them. */
function hideMarkers(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  for (const key of Object.keys(node)) {
    if (key.startsWith('~')) Object.defineProperty(node, key, { enumerable: false });
    else hideMarkers((node as Record<string, unknown>)[key]);
  }
}

hideMarkers(json);

/** The JSON Schema every profile is checked against (a TypeBox `TObject`). */
export const ProfileSchema = json as unknown as typeof Built;
