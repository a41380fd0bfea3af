// The playground page (playground/) bundled for the browser, its compile worker importing bobina's
// public entry as ./lib/index.js: the built dist/ unchanged, so dist/ keeps one copy of the compiler.
//   npm run build (--page-only): the page into dist/playground/; `bobina serve` adds lib/ from dist/.
//   npm run playground [-- --out <dir>]: a complete static site (default build/playground/).
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildPage } from './page-build.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' }, 'page-only': { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false } } });
const pageOnly = values['page-only'];
const out = values.out ?? (pageOnly ? `${root}dist/playground` : `${root}build/playground`);
const dist = `${root}dist/`;
if (!existsSync(`${dist}index.js`)) throw new Error('dist/index.js is missing: run npm run build first');

/** dist/index.js and every chunk it imports, transitively: the library as a browser loads it. */
function libraryFiles(dir) {
  const files = new Set();
  const visit = (name) => {
    if (files.has(name)) return;
    files.add(name);
    for (const m of readFileSync(`${dir}${name}`, 'utf8').matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) visit(m[1]);
  };
  visit('index.js');
  return [...files];
}

// The page (playground.js) and its compile worker (worker.js): only the worker imports the library.
await buildPage({ source: `${root}playground`, out, entryPoints: { playground: `${root}playground/main.ts`, worker: `${root}playground/worker.ts` } });
if (!pageOnly) {
  mkdirSync(`${out}/lib`, { recursive: true });
  for (const file of libraryFiles(dist)) copyFileSync(`${dist}${file}`, `${out}/lib/${file}`);
}
if (!values.quiet) console.log(`playground: ${pageOnly ? 'the page' : 'static files'} in ${out}`);
