// `npm pack` + `npm install --offline <tarball>` into an empty project, from npm's cache alone
// (test/package.test.ts, test/package-toolchains.test.ts, the bench). `npm ci` caches tarballs but
// not the registry documents npm needs to resolve ranges, so the project starts with a lockfile
// holding the tarball's dependencies, copied from this repository's lockfile (the versions
// `npm ci` installed); then `npm install <tarball>` runs as a user types it, and npm reads the
// tarball's package.json as it would for them (its install-scripts warning included).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Writes package.json (no dependencies yet) and a package-lock.json holding the dependency
 * closure of the package at `root`, hoisted as the repository's lockfile has it.
 */
export function writeProject(root, dir) {
  mkdirSync(dir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const repoLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const packages = { '': { name: 'app', version: '1.0.0' } };
  const queue = Object.keys(pkg.dependencies);
  while (queue.length > 0) {
    const name = queue.shift();
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const entry = repoLock.packages[key];
    if (!entry) throw new Error(`${name} is not at the top of package-lock.json: teach writeProject nested entries`);
    const { dev: _dev, peer: _peer, devOptional: _devOptional, ...kept } = entry;
    packages[key] = kept;
    queue.push(...Object.keys(entry.dependencies ?? {}));
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));
}

/**
 * Packs `root` (without lifecycle scripts: the dist/ already built) into `work` and installs the
 * tarball into `work`/app offline, as `npm install <tarball>`. Returns the tarball, its files and
 * npm's output.
 */
export function packAndInstall(root, work) {
  const packed = JSON.parse(execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))[0];
  const tarball = join(work, packed.filename);
  const app = join(work, 'app');
  writeProject(root, app);
  const install = spawnSync(npm, ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=warn', `../${packed.filename}`], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  const log = install.stdout + install.stderr;
  if (install.status !== 0) throw new Error(`npm install --offline failed:\n${log}`);
  return { tarball, files: packed.files.map((f) => f.path), app, log };
}

/** Every installed package under `dir`/node_modules (scoped and nested too), with its package.json. */
export function installedPackages(dir) {
  const out = [];
  const visit = (path, name) => {
    out.push({ name, path, pkg: JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) });
    walk(join(path, 'node_modules'));
  };
  const walk = (modules) => {
    let names;
    try {
      names = readdirSync(modules);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      if (name.startsWith('@')) for (const sub of readdirSync(join(modules, name))) visit(join(modules, name, sub), `${name}/${sub}`);
      else visit(join(modules, name), name);
    }
  };
  walk(join(dir, 'node_modules'));
  return out;
}

/** Bytes of the files under `path` (what the install puts on disk, before block rounding). */
export function bytesUnder(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}
