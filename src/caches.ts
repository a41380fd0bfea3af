// The compiler's process-wide caches: what it derives once from data and keeps for the life of the
// process (built-in profiles, code page tables, the compiled profile check). Every such cache is
// made here, so that one call can empty them all.
//
// clearCaches() is for tests, not for users: mutation testing (vitest.mutation.config.ts) empties
// them before each test, so that a mutant in the code that builds a cache takes effect in the test
// that runs it, instead of meeting what an earlier, unmutated run built.

const caches: { clear(): void }[] = [];

/** A Map that clearCaches() empties. */
export function cacheMap<K, V>(): Map<K, V> {
  const map = new Map<K, V>();
  caches.push(map);
  return map;
}

/** `build()`'s result, built on the first call and kept (undefined too) until clearCaches(). */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  caches.push({
    clear() {
      built = false;
      value = undefined as T;
    },
  });
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

/** What once() built, by the function that built it. */
const builtOnce = cacheMap<() => unknown, unknown>();

/**
 * `build()`'s result, built on the first call with that function and kept until clearCaches().
 * Unlike lazy(), nothing runs when the caller's module loads, so a bundle that never calls it
 * leaves `build` (and what only it uses) out.
 */
export function once<T>(build: () => T): T {
  if (!builtOnce.has(build)) builtOnce.set(build, build());
  return builtOnce.get(build) as T;
}

/** Empties every cache: the next use builds again. */
export function clearCaches(): void {
  for (const cache of caches) cache.clear();
}
