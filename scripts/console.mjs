// The operator console (console/) bundled for the browser into dist/console/ (`npm run build`).
// The page's own code is one small module; the library, which only a job's preview needs, is
// imported on demand as ./lib/index.js: the built dist/ that `bobina serve` serves beside the page
// (routes/static-page.ts), so the console adds no second copy of the compiler.
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildPage } from './page-build.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' }, quiet: { type: 'boolean', default: false } } });
const out = values.out ?? `${root}dist/console`;

await buildPage({ source: `${root}console`, out, entryPoints: { console: `${root}console/main.ts` } });
if (!values.quiet) console.log(`console: ${out} (console.js ${statSync(`${out}/console.js`).size} bytes)`);
