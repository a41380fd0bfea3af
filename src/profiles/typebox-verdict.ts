// TypeBox's verdict and error list for a profile the run-time check (check.ts)
// rejected. TypeBox's value module is loaded here, on this error path only. It is ESM-only, so
// require() needs require(esm): Node 20.19+, 22.12+ (the engines range starts at 20.16 / 22.3).
// Where that fails, the caller reports a general "does not match the profile schema", as it does
// outside Node.
import { lazy } from '../caches.js';
import { nodeRequire } from '../node-require.js';

type ValueModule = typeof import('typebox/value');

/** TypeBox's value module; undefined outside Node or where require(esm) is missing. */
const typebox = lazy((): ValueModule | undefined => {
  try {
    return nodeRequire()?.('typebox/value') as ValueModule | undefined;
  } catch {
    // No require(esm) (Node before 20.19 / 22.12): as outside Node.
  }
  return undefined;
});

/** TypeBox's verdict: valid when Value.Errors lists nothing, else its errors as "/path message" lines. */
export interface Verdict {
  valid: boolean;
  problems: string[];
}

/** TypeBox's verdict on `data`, or undefined when TypeBox cannot be loaded synchronously. */
export function typeboxVerdict(schema: object, data: unknown): Verdict | undefined {
  const value = typebox();
  if (!value) return undefined; // not in Node: the caller's general message
  const problems = [...value.Value.Errors(schema as never, data)].map((e) => `${e.instancePath || '/'} ${e.message}`);
  return { valid: problems.length === 0, problems };
}
