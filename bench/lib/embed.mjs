// The figures of issue 15 (for the people who embed bobina): what a library-only install of the
// packed package puts on disk, how big `compile` is bundled for a browser beside the peers, and
// the cold start (a fresh process: import + first compile) beside esc-pos-encoder@2.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bytesUnder, installedPackages, packAndInstall } from '../../scripts/offline-install.mjs';
import { profileComments } from '../../scripts/profile-comments.mjs';
import { loadReceipt, toOps } from './receipts.mjs';
import { benchDir, rootDir } from './setup.mjs';

const esbuild = createRequire(createRequire(`${rootDir}package.json`).resolve('tsup'))('esbuild'); // tsup's own esbuild

/** npm pack, then npm install --offline of the tarball into an empty project (as test/package.test.ts). */
export function libraryInstall() {
  const work = mkdtempSync(join(tmpdir(), 'bobina-bench-install-'));
  try {
    const { app } = packAndInstall(rootDir, work);
    const packages = installedPackages(app);
    return { packages: packages.length, bytes: bytesUnder(join(app, 'node_modules')), names: packages.map((p) => `${p.name}@${p.pkg.version}`) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One entry bundled for the browser as an app would (esbuild, minified, one file): bytes and gzip. */
async function bundle(label, contents, resolveDir, options = {}) {
  const r = await esbuild.build({ stdin: { contents, resolveDir, loader: 'ts' }, bundle: true, format: 'esm', platform: 'browser', target: 'es2022', minify: true, write: false, logLevel: 'error', ...options });
  const code = r.outputFiles[0].contents;
  return { label, minBytes: code.length, gzipBytes: gzipSync(code).length };
}

export async function bundleSizes() {
  const keep = (name) => `globalThis.keep = ${name};`;
  return [
    await bundle('bobina `compile` (dist/, as installed: with everything)', `import { compile } from '${rootDir}dist/index.js'; ${keep('compile')}`, rootDir),
    await bundle('bobina `compile`, without the QR encoder (src/ built as dist/ is, qrcode left out)', `import { compile } from '${rootDir}src/index.ts'; ${keep('compile')}`, rootDir, { external: ['qrcode/*'], plugins: [profileComments()] }),
    await bundle('bobina, the whole public entry (dist/)', `import * as bobina from '${rootDir}dist/index.js'; ${keep('bobina')}`, rootDir),
    await bundle('esc-pos-encoder@2 (its browser build)', `import E from 'esc-pos-encoder'; ${keep('E')}`, benchDir),
    await bundle('@point-of-sale/receipt-printer-encoder@4 (its browser build)', `import E from '@point-of-sale/receipt-printer-encoder'; ${keep('E')}`, benchDir),
  ];
}

/** (b)'s operations for the esc-pos-encoder@2 child of lib/cold-start.mjs, prepared outside it. */
export function writeColdStartOps() {
  writeFileSync(`${benchDir}out/nfce-ops.json`, JSON.stringify(toOps(loadReceipt('nfce'))));
}

/** Whole-process times of lib/cold-start.mjs, systems interleaved round by round; medians in ms. */
export function coldStart(rounds = 21) {
  writeColdStartOps();
  const systems = ['empty', 'bobina', 'esc-pos-encoder@2'];
  const times = Object.fromEntries(systems.map((s) => [s, []]));
  for (let i = 0; i < rounds; i++) {
    for (const system of systems) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, ['lib/cold-start.mjs', system], { cwd: benchDir, encoding: 'utf8' });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`cold-start ${system} failed:\n${r.stderr}`);
      times[system].push(ms);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return { rounds, medianMs: Object.fromEntries(systems.map((s) => [s, median(times[s])])) };
}

/** The section of RESULTS.md these figures make (between the embed markers). */
export function embedSection({ install, bundles, cold, machine, date }) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const L = ['## For the people who embed it (issue 15)', ''];
  L.push(`Run: \`npm run bench:embed\` (or the embed part of \`npm run bench\`), ${date}, ${machine.nproc} cores, ${machine.cpuModel}, Node ${machine.node}. The rest of this file is from its own run, named at the top.`, '');
  L.push('### Library-only install of the packed package', '');
  L.push(`\`npm pack\`, then \`npm install --offline\` of the tarball into an empty project (scripts/offline-install.mjs): **${install.packages} packages, ${(install.bytes / 1e6).toFixed(1)} MB** of files (${install.names.join(', ')}). Target: at most ~40 packages and 15 MB.`, '');
  L.push('### Bundled for the browser (esbuild, platform browser, minified, one file)', '', '| entry | minified | gzip |', '|---|---:|---:|');
  for (const b of bundles) L.push(`| ${b.label} | ${kb(b.minBytes)} | ${kb(b.gzipBytes)} |`);
  const [all, noQr] = bundles;
  L.push('', `Targets: \`compile\` with everything (raster QR, barcodes, PNG images) ≤ 45 KB gzip (issue 21): ${kb(all.gzipBytes)} (${all.gzipBytes <= 45 * 1024 ? '**met**' : '**not met**'}); without the QR encoder ≤ 30 KB (issue 15): ${kb(noQr.gzipBytes)} (${noQr.gzipBytes <= 30 * 1024 ? '**met**' : '**not met**'}). The profiles' sources (\`profileSources()\`), the disassembler and the stage API's checks are not in a bundle of \`compile\` (test/bundle-size.test.ts).`, '');
  const m = cold.medianMs;
  const ratio = m.bobina / m['esc-pos-encoder@2'];
  L.push(`### Cold start: a fresh process that imports the library and encodes (b) once (median of ${cold.rounds}, interleaved)`, '', '| process | whole process | over the empty process |', '|---|---:|---:|');
  for (const [name, ms] of Object.entries(m)) L.push(`| ${name === 'empty' ? 'empty (reads the same file, imports nothing)' : name} | ${ms.toFixed(1)} ms | ${name === 'empty' ? '—' : `+${(ms - m.empty).toFixed(1)} ms`} |`);
  L.push('', `bobina ÷ esc-pos-encoder@2, whole-process medians: **${ratio.toFixed(2)}×** (target ≤ 1.00: ${ratio <= 1 ? '**met**' : '**not met**'}). bobina compiles for \`{ extends: "MAKER5T20", qr: { command: "epson-gs-k" } }\` (native QR); esc-pos-encoder@2 replays (b)'s operations with its \`canvas\` dependency stubbed (it does not build here; a real install would load it too). The same comparison in instructions, which noise cannot move, is in INSTRUCTIONS.md.`, '');
  return L.join('\n');
}

export const EMBED_START = '<!-- embed:start (npm run bench:embed rewrites this section) -->';
export const EMBED_END = '<!-- embed:end -->';
