// The one way the core reaches Node's `require` (resvg for PNG, iconv-lite for rare code pages,
// TypeBox's error list): a feature check, not an import, so the core loads no `node:` module and
// runs unchanged elsewhere, where this gives undefined and each caller says what it cannot do.
type Require = (id: string) => unknown;
type WithProcess = { process?: { getBuiltinModule?: (id: string) => unknown } };

let found: Require | null | undefined;

/** Node's `require`, resolving from bobina's own files; undefined outside Node. */
export function nodeRequire(): Require | undefined {
  if (found === undefined) {
    const module = (globalThis as WithProcess).process?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
    found = module ? module.createRequire(import.meta.url) : null;
  }
  return found ?? undefined;
}

/** An optional package a feature needs is not installed, or the runtime is not Node. */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';
  constructor(
    /** The package to install, e.g. `@resvg/resvg-js`. */
    readonly packageName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `require(id)` for an optional package, or a MissingPackageError saying what to install. */
export function requireOptional<T>(id: string, purpose: string): T {
  const require = nodeRequire();
  if (!require) throw new MissingPackageError(id, `${purpose} needs Node, with the package ${id}`);
  try {
    return require(id) as T;
  } catch (cause) {
    const missing = (cause as { code?: string }).code === 'MODULE_NOT_FOUND' && String((cause as Error).message).includes(`'${id}'`);
    if (!missing) throw cause;
    throw new MissingPackageError(id, `${purpose} needs ${id}, which is not installed: npm install ${id}`, { cause });
  }
}
