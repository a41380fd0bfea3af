// Shared set-up of the bench scripts: the bench package installed (peers pinned in
// bench/package-lock.json; --ignore-scripts because esc-pos-encoder@2 hard-depends on canvas,
// whose native build fails), and the library built into dist/.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
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
  step('building the library (npm run build)');
  execFileSync(npm, ['run', 'build', '--silent'], { cwd: rootDir, stdio: 'inherit' });
}

/** The machine a run is on, for the report. */
export function thisMachine() {
  const cpuModel = (readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.*)$/m) ?? [])[1] ?? cpus()[0]?.model ?? 'unknown';
  return { nproc: execFileSync('nproc', { encoding: 'utf8' }).trim(), cpuModel, node: process.version };
}
