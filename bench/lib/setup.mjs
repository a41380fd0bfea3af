// Shared set-up of the bench scripts: the bench package installed (peers pinned in
// bench/package-lock.json; --ignore-scripts because esc-pos-encoder@2 hard-depends on canvas,
// whose native build fails), and the library built into dist/.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const benchDir = fileURLToPath(new URL('..', import.meta.url));
export const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export const step = (msg) => console.log(`\n== ${msg}`);

export function installBenchPackage() {
  if (existsSync(`${benchDir}node_modules/.package-lock.json`) && existsSync(`${benchDir}node_modules/benny`)) return;
  step('installing the bench package (npm ci --ignore-scripts in bench/)');
  execFileSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: benchDir, stdio: 'inherit' });
}

export function buildLibrary() {
  step('building the library (npx tsup)');
  execFileSync('npx', ['tsup', '--silent'], { cwd: rootDir, stdio: 'inherit' });
}
