// Build: the library, bobina/delivery, the CLI and the service's compile worker in one ES module
// build, so the ES module files hold the compiler once (a chunk the entries import).
// scripts/cjs-build.mjs then rewrites the library's part as CommonJS in dist/cjs/, for what resolves
// package.json's `require` condition (Jest, Node without require(esm)), with .d.cts types.
import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { profileComments } from './scripts/profile-comments.mjs';
import { qrcodeEsm } from './scripts/qrcode-esm.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string; peerDependencies: Record<string, string> };

// Whitespace and syntax minified, names kept: V8 reads a third less source at every start
// (`npm run bench:instructions`), while stack traces keep their function names.
const compact = { minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: false } as const;

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // bobina/delivery (printers, the journal, the virtual printer) is its own entry: in the main
    // entry its code alone would add ~6% to the instructions of importing bobina and compiling a
    // first receipt, for users who never talk to a printer.
    delivery: 'src/delivery/index.ts',
    cli: 'src/cli/main.ts',
    // Loaded by the service's worker threads (src/server/compiler.ts), beside the other chunks.
    'compile-worker': 'src/server/compile-worker.ts',
  },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts', delivery: 'src/delivery/index.ts' } },
  splitting: true,
  clean: true,
  // dist/metafile-esm.json: what went into each file (THIRD-PARTY-NOTICES.md is made from it; not published).
  metafile: true,
  // Source maps lead back to src/ by name and line; the sources themselves are not shipped.
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  target: ['es2022', 'node20'],
  // The part of qrcode the core runs (its encoder core) is bundled: nothing to install or load at
  // run time, and one file for a browser bundle. So is the service's statement builder
  // (sql-template-tag, one small module): nothing more for a service user to install. Their
  // licences: THIRD-PARTY-NOTICES.md.
  noExternal: ['qrcode', 'sql-template-tag'],
  // profileComments: the built-in profiles without their top-level "$comment" notes.
  esbuildPlugins: [profileComments(), qrcodeEsm()],
  define: {
    BOBINA_VERSION: JSON.stringify(pkg.version),
    // The optional peer dependencies as a JSON string (an object here would become a module of its
    // own), for the CLI's "install this" message (src/cli/missing-package.ts).
    BOBINA_PEERS: JSON.stringify(JSON.stringify(pkg.peerDependencies)),
  },
  ...compact,
});
