// THIRD-PARTY-NOTICES.md: the licence of every package whose code the build bundled into dist/,
// read from the build's metafile (dist/metafile-esm.json, written by tsup). `npm run notices`
// rewrites the file after a build; test/package.test.ts fails when it is out of date.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);

/** Package names (`@scope/name` or `name`) with code in any output of the build. */
export function bundledPackages(metafile) {
  const names = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs ?? {})) {
      if (input.bytesInOutput === 0) continue;
      const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
      if (m) names.add(m[1]);
    }
  }
  return [...names].sort();
}

function licenceText(dir) {
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
  if (!file) throw new Error(`no licence file in ${dir}`);
  return readFileSync(new URL(file, dir), 'utf8').replace(/\r\n/g, '\n').replace(/^\n+|\s+$/g, '');
}

/** The notices file for the packages bundled by the last build. */
export function notices() {
  const metafile = JSON.parse(readFileSync(new URL('dist/metafile-esm.json', root), 'utf8'));
  const packages = bundledPackages(metafile).map((name) => {
    const dir = new URL(`node_modules/${name}/`, root);
    const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
    const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    return { name, version: pkg.version, license: pkg.license, source: pkg.homepage ?? repo ?? `https://www.npmjs.com/package/${name}`, text: licenceText(dir) };
  });
  // Packages with the same licence text share one copy of it.
  const texts = [...new Set(packages.map((p) => p.text))];
  const L = ['# Third-party notices', ''];
  L.push('bobina\'s build (`dist/`) bundles code from the packages below; this file is generated from the', 'build\'s metafile by `npm run notices` (after `npm run build`). Their licences follow the list.', '');
  for (const p of packages) L.push(`- **${p.name}** ${p.version} — ${p.license} — ${p.source} — licence text ${texts.indexOf(p.text) + 1}`);
  texts.forEach((text, i) => {
    const users = packages.filter((p) => p.text === text).map((p) => p.name).join(', ');
    L.push('', `## Licence text ${i + 1} (${users})`, '', '```', text, '```');
  });
  return L.join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(new URL('dist/metafile-esm.json', root))) throw new Error('run npm run build first');
  writeFileSync(new URL('THIRD-PARTY-NOTICES.md', root), notices());
  console.log('wrote THIRD-PARTY-NOTICES.md');
}
