// The operator console (console/) bundled for the browser into dist/console/ (`npm run build`).
// The page's own code is one small module; the library, which only a job's preview needs, is
// imported on demand as ./lib/index.js: the built dist/ that `bobina serve` serves beside the page
// (routes/static-page.ts), so the console adds no second copy of the compiler.
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { out: { type: 'string' }, quiet: { type: 'boolean', default: false } } });
const out = values.out ?? `${root}dist/console`;

mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: { console: `${root}console/main.ts` },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  plugins: [{ name: 'bobina-beside', setup: (b) => b.onResolve({ filter: /^bobina$/ }, () => ({ path: './lib/index.js', external: true })) }],
  outdir: out,
  logLevel: 'warning',
});
for (const file of ['index.html', 'style.css']) copyFileSync(`${root}console/${file}`, `${out}/${file}`);
if (!values.quiet) console.log(`console: ${out} (console.js ${statSync(`${out}/console.js`).size} bytes)`);
