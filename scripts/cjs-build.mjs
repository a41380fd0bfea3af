// After tsup: the CommonJS build, for runtimes whose require() cannot load an ES module (Jest's
// module system, Node before 20.19 / 22.12). rollup rewrites the library's ES module build
// (dist/index.js, dist/delivery.js and the chunks they import) as CommonJS in dist/cjs/: the same
// code, module syntax aside, with index and delivery sharing one chunk, source maps chained to src/.
// dist/index.cjs and dist/delivery.cjs (the package's `require` entries) load the ES module build
// where require(esm) works, so an app that both imports and requires bobina holds one copy of it
// (one set of caches, one class per error), and this build elsewhere. Types: .d.cts copies of
// the declarations whose relative imports name .cjs files, so CommonJS consumers get CommonJS types.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rollup } from 'rollup';

const dist = new URL('../dist/', import.meta.url);
export const ENTRIES = ['index', 'delivery'];

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

/** The `require` entry: the ES module build where require() loads it, else the CommonJS one. */
function entrySource(entry) {
  return `'use strict';
// bobina's CommonJS entry (scripts/cjs-build.mjs). Where require() loads ES modules (Node 20.19+,
// 22.12+), this is the ES module build that \`import\` gets too, so both share one copy of bobina;
// where it cannot (Jest's module system, older Node), the CommonJS build of the same code.
let build;
try {
  build = require('./${entry}.js');
} catch (error) {
  if (error === null || typeof error !== 'object' || (error.code !== 'ERR_REQUIRE_ESM' && error.name !== 'SyntaxError')) throw error;
  build = require('./cjs/${entry}.cjs');
}
module.exports = build;
`;
}

/**
 * Every declaration file as .d.cts: its relative imports name the .cjs files, and its imports of
 * packages (TypeBox's types, which are ES modules only) become type-only imports resolved as
 * `import` does (TypeScript 5.3+), which a CommonJS declaration file may hold (else TS1479 under
 * `moduleResolution: node16` without skipLibCheck).
 */
function commonJsTypes() {
  for (const name of readdirSync(dist).filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(new URL(name, dist), 'utf8')
      .replace(/^((?:import|export)\b[^;]*from\s+'\.\/[\w.-]+)\.js';$/gm, "$1.cjs';")
      .replace(/^import \{([^}]*)\} from '([^'.][^']*)';$/gm, (_, names, from) => `import type {${names.replace(/\btype\s+/g, '')}} from '${from}' with { 'resolution-mode': 'import' };`);
    writeFileSync(new URL(name.replace(/\.d\.ts$/, '.d.cts'), dist), text);
  }
}

if (!ENTRIES.every((entry) => existsSync(new URL(`${entry}.js`, dist)))) throw new Error('cjs-build: run tsup first (npm run build)');
await buildCommonJs();
for (const entry of ENTRIES) writeFileSync(new URL(`${entry}.cjs`, dist), entrySource(entry));
commonJsTypes();
