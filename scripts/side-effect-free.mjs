// An esbuild plugin that marks the modules of some packages free of side effects, so that what
// bobina does not import from them is dropped from the bundle (for packages whose package.json
// does not say `"sideEffects": false` itself). Used by tsup.config.ts and the bench.

const AGAIN = Symbol('side-effect-free: resolving');

/** Every module whose resolved path matches `path` is treated as side-effect free. */
export function sideEffectFree(path) {
  return {
    name: 'side-effect-free',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === AGAIN || args.kind === 'entry-point') return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: AGAIN });
        if (resolved.errors.length > 0 || resolved.external || !path.test(resolved.path)) return undefined;
        return { path: resolved.path, namespace: resolved.namespace, sideEffects: false };
      });
    },
  };
}

/** chevrotain and its own packages: bobina uses only the lexer. */
export const CHEVROTAIN = /[\\/]node_modules[\\/](chevrotain|@chevrotain[\\/][^\\/]+)[\\/]/;
