// `npm run bench:embed`: the issue-15 figures only (library-only install, browser bundle sizes,
// cold start beside esc-pos-encoder@2), written into their own section of bench/RESULTS.md, the
// rest of which stays as its own run left it. `npm run bench` measures them too.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { bundleSizes, coldStart, EMBED_END, EMBED_START, embedSection, libraryInstall } from './lib/embed.mjs';
import { benchDir, buildLibrary, installBenchPackage, step, thisMachine } from './lib/setup.mjs';

installBenchPackage();
buildLibrary();
mkdirSync(`${benchDir}out`, { recursive: true });
step('library-only install of the packed package (npm pack, npm install --offline)');
const install = libraryInstall();
console.log(install);
step('bundle sizes for the browser (esbuild)');
const bundles = await bundleSizes();
console.table(bundles);
step('cold start: whole processes, interleaved (21 rounds)');
const cold = coldStart();
console.log(cold);

const embed = { install, bundles, cold, machine: thisMachine(), date: new Date().toISOString().slice(0, 10) };
writeFileSync(`${benchDir}out/embed.json`, JSON.stringify(embed, null, 2));
const results = `${benchDir}RESULTS.md`;
const section = `${EMBED_START}\n${embedSection(embed)}\n${EMBED_END}`;
const text = existsSync(results) ? readFileSync(results, 'utf8') : '';
const at = text.indexOf(EMBED_START);
let next = at >= 0 ? text.slice(0, at) + section + text.slice(text.indexOf(EMBED_END) + EMBED_END.length) : insertAfterHeader(text, section);
next = withCurrentNotes(next);
writeFileSync(results, next);
step('wrote the embed section of bench/RESULTS.md (and its copy of NOTES.md)');

/** RESULTS.md ends with a copy of NOTES.md (the hand-written analysis): brought up to date. */
function withCurrentNotes(text) {
  const notes = readFileSync(`${benchDir}NOTES.md`, 'utf8');
  const anchor = notes.slice(0, notes.indexOf('\n'));
  const from = text.indexOf(`\n${anchor}\n`);
  return from < 0 ? text : text.slice(0, from + 1) + notes;
}

/** A first embed section goes right after the file's header lines (before the first "## "). */
function insertAfterHeader(text, block) {
  const first = text.indexOf('\n## ');
  return first < 0 ? `${text}\n${block}\n` : `${text.slice(0, first + 1)}${block}\n\n${text.slice(first + 1)}`;
}
