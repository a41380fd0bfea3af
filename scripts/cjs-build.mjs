// After tsup: the CommonJS build, for what resolves bobina's `require` condition: Jest's module
// system, and Node before 20.19 / 22.12 (newer Node resolves `module-sync` for require() too, and
// gets the ES module build, so an app that both imports and requires bobina holds one copy of it:
// one set of caches, one class per error). rollup rewrites the library's ES module build
// (dist/index.js, dist/delivery.js and the chunks they import) as CommonJS in dist/cjs/: the same
// code, module syntax aside, with index and delivery sharing one chunk, source maps chained to
// src/. Types: .d.cts copies of the declarations, for CommonJS consumers.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rollup } from 'rollup';

const dist = new URL('../dist/', import.meta.url);
const ENTRIES = ['index', 'delivery'];

/** Each entry's CommonJS form in dist/cjs/ (and the one chunk the two share). */
async function buildCommonJs() {
  const bundle = await rollup({
    input: Object.fromEntries(ENTRIES.map((entry) => [entry, new URL(`${entry}.js`, dist).pathname])),
    // The ES module build's own source maps, so the CommonJS maps lead back to src/ too.
    plugins: [{ name: 'esm-build', load: (id) => ({ code: readFileSync(id, 'utf8'), map: JSON.parse(readFileSync(`${id}.map`, 'utf8')) }) }],
    // Tree-shaken and checked by esbuild already; rollup only changes the module syntax.
    treeshake: false,
    onwarn(warning) {
      throw new Error(`cjs-build: ${warning.message}`);
    },
  });
  await bundle.write({
    dir: new URL('cjs/', dist).pathname,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: 'chunk-[hash].cjs',
    compact: true,
    generatedCode: { preset: 'es2015', symbols: false },
    sourcemap: true,
    sourcemapExcludeSources: true,
    plugins: [
      {
        // import.meta.url (the core's one use: createRequire, for optional packages) as a file URL
        // of the chunk; rollup's own replacement also looks for a browser document.
        name: 'import-meta-url',
        resolveImportMeta: (property) => (property === 'url' ? 'require("node:url").pathToFileURL(__filename).href' : null),
      },
    ],
  });
  await bundle.close();
}

/**
 * Every declaration file as .d.cts: its relative imports name the .cjs files. A declaration that
 * imports a package is refused: a CommonJS declaration file cannot import an ES-module-only one
 * (TS1479 under `moduleResolution: node16`), and a user's `tsc` with `skipLibCheck: false` would
 * check that package's declarations too (TypeBox's cost 14 s; scripts/schema-types.ts spells its
 * types out instead).
 */
function commonJsTypes() {
  for (const name of readdirSync(dist).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(new URL(name, dist), 'utf8');
    const foreign = text.match(/^(?:import|export)\b(?:[^;]*?from)?\s*'[^'.][^']*';$/m);
    if (foreign) throw new Error(`cjs-build: dist/${name} imports a package's types: ${foreign[0]}`);
    writeFileSync(new URL(name.replace(/\.d\.ts$/, '.d.cts'), dist), text.replace(/^((?:import|export)\b[^;]*from\s+'\.\/[\w.-]+)\.js';$/gm, "$1.cjs';"));
  }
}

if (!ENTRIES.every((entry) => existsSync(new URL(`${entry}.js`, dist)))) throw new Error('cjs-build: run tsup first (npm run build)');
await buildCommonJs();
commonJsTypes();
