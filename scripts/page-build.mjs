// How a page served beside the library is bundled (the playground and the operator console): its
// own modules into one minified ES module each, the bare `bobina` import left as ./lib/index.js (the
// built dist/ that `bobina serve` serves beside the page), then its HTML, style sheet and icon copied.
import { copyFileSync, mkdirSync } from 'node:fs';
import * as esbuild from 'esbuild';

/**
 * @param {{ source: string, out: string, entryPoints: Record<string, string> }} page
 *   source: the page's folder (index.html, style.css); entryPoints: output name → module path.
 */
export async function buildPage({ source, out, entryPoints }) {
  mkdirSync(out, { recursive: true });
  await esbuild.build({
    entryPoints,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    plugins: [{ name: 'bobina-beside', setup: (b) => b.onResolve({ filter: /^bobina$/ }, () => ({ path: './lib/index.js', external: true })) }],
    outdir: out,
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'style.css']) copyFileSync(`${source}/${file}`, `${out}/${file}`);
  // The pages' icon (their <link rel="icon">): without one a browser asks for /favicon.ico, a 404
  // and a console error on every visit. A file of the page's own origin, as both pages' policies allow.
  copyFileSync(new URL('favicon.svg', import.meta.url), `${out}/favicon.svg`);
}
