// The package as its users get it: `npm pack`, then `npm install --offline <tarball>` into an
// empty project (npm's cache only; see scripts/offline-install.mjs). The library install stays
// light (no service, no database driver, no native module, no install script, no engine
// warning, no install-scripts warning), compiles a fixture from ESM and from CJS exactly as the
// repository does, its CLI names what to install for the service and PNG previews, and the
// package is clean (LICENSE, third-party notices, one copy of the compiler per module format,
// maps without sources, publint, attw). test/package-toolchains.test.ts loads it from Jest,
// TypeScript and a bundler.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../src/index.js';
import { notices } from '../scripts/notices.mjs';
import { bytesUnder, installedPackages, packAndInstall } from '../scripts/offline-install.mjs';
import { ROOT } from './support/cli.js';
import { hex } from './support/hex.js';

const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

let work: string;
let app: string;
let tarball: string;
let packedFiles: string[];
let installLog: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bobina-package-'));
  // Packs without lifecycle scripts: the dist/ `npm test` has just built (prepare would rebuild
  // it under the other test files' feet).
  ({ tarball, files: packedFiles, app, log: installLog } = packAndInstall(ROOT, work));
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const installed = installedPackages;

const nfce = readFileSync(join(ROOT, 'fixtures', 'nfce.txt'), 'utf8');
const run = (args: string[], input?: string) => spawnSync(process.execPath, args, { cwd: app, encoding: 'utf8', input, timeout: 30_000 });

describe('a library-only install of the packed tarball', () => {
  it('installs at most ~40 packages and 15 MB, none of them the service, a database driver or a native module', () => {
    const packages = installed(app);
    const size = bytesUnder(join(app, 'node_modules'));
    console.log(`library-only install: ${packages.length} packages, ${(size / 1e6).toFixed(1)} MB (${packages.map((p) => p.name).join(', ')})`);
    expect(packages.length).toBeLessThanOrEqual(40);
    expect(size).toBeLessThanOrEqual(15e6);
    const names = packages.map((p) => p.name);
    for (const heavy of ['fastify', 'better-sqlite3', 'pg', '@resvg/resvg-js', 'chevrotain', 'qrcode']) expect(names).not.toContain(heavy);
    expect(packages.filter((p) => readdirSync(p.path).some((f) => f.endsWith('.node') || f === 'binding.gyp'))).toEqual([]);
  });

  it('runs no install script and warns about no engine or install script, on Node 20.16+ and 22.3+', () => {
    // npm 11 counts `prepare` as an install script of a package installed from a tarball, a folder
    // or git (and asks the user to approve it): bobina builds with postprepare and prepack instead.
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'];
    expect(installed(app).filter((p) => lifecycle.some((s) => p.pkg.scripts?.[s])).map((p) => p.name)).toEqual([]);
    expect(installLog).not.toMatch(/EBADENGINE|install-scripts/);
    for (const { name, pkg } of installed(app)) {
      const range = pkg.engines?.node;
      if (!range) continue;
      for (const node of ['20.16.0', '22.3.0', '24.0.0']) expect(semver.satisfies(node, range), `${name} engines.node ${range} on ${node}`).toBe(true);
    }
  });

  it('compiles a fixture from ESM exactly as the repository does', () => {
    const r = run(['--input-type=module', '-e', "import { compile } from 'bobina'; import { readFileSync } from 'node:fs'; process.stdout.write(Buffer.from(compile(readFileSync(0, 'utf8'), { printer: 'MAKER5T20' }).bytes).toString('hex'))"], nfce);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(hex(compile(nfce, { printer: 'MAKER5T20' }).bytes));
  });

  it('compiles a fixture from CommonJS exactly as the repository does', () => {
    const r = run(['-e', "const { compile } = require('bobina'); process.stdout.write(Buffer.from(compile(require('node:fs').readFileSync(0, 'utf8'), { printer: 'MAKER1MP4200' }).bytes).toString('hex'))"], nfce);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(hex(compile(nfce, { printer: 'MAKER1MP4200' }).bytes));
  });

  it('has a CLI that compiles, and names what to install for the service and for PNG previews', () => {
    const cli = join(app, 'node_modules', 'bobina', 'dist', 'cli.js');
    expect(run([cli, 'compile', '-', '--printer', '5'], nfce).status).toBe(0);
    const serve = run([cli, 'serve', '--host', '127.0.0.1', '--port', '0']);
    expect(serve.status).toBe(2);
    expect(serve.stderr).toMatch(/^bobina serve: the service needs \S+, which is not installed; install it with: npm install /);
    for (const peer of ['fastify@^5', 'better-sqlite3@^12', '@fastify/swagger@']) expect(serve.stderr).toContain(` ${peer}`);
    expect(serve.stderr.trim().split('\n')).toHaveLength(1);
    const png = run([cli, 'preview', '-', '--printer', '5', '-o', join(work, 'receipt.png')], 'Olá');
    expect(png.status).toBe(2);
    expect(png.stderr).toBe(`bobina preview: a PNG preview needs @resvg/resvg-js, which is not installed; install it with: npm install @resvg/resvg-js@${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).peerDependencies['@resvg/resvg-js']}\n`);
    expect(run([cli, 'preview', '-', '--printer', '5', '-o', join(work, 'receipt.svg')], 'Olá').status).toBe(0);
    // Four CLI children, each bounded by run()'s own 30 s: above vitest's 5 s default, which this
    // test passed (7.4 s) on the loaded 2-core machine while every child was healthy.
  }, 4 * 30_000 + 10_000);
});

describe('the package', () => {
  it('carries LICENSE (MIT, as package.json says), the third-party notices, the README and the grammar', () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['LICENSE', 'THIRD-PARTY-NOTICES.md', 'README.md', 'grammar/conteudo.ebnf', 'dist/index.js', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/delivery.js', 'dist/delivery.d.cts', 'dist/cjs/index.cjs', 'dist/cjs/delivery.cjs', 'dist/cli.js']));
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license).toBe('MIT');
    expect(packedFiles.filter((f) => f.includes('metafile'))).toEqual([]);
  });

  it('names in THIRD-PARTY-NOTICES.md every package bundled into dist/ (npm run notices)', () => {
    expect(readFileSync(join(ROOT, 'THIRD-PARTY-NOTICES.md'), 'utf8')).toBe(notices());
  });

  it('holds one copy of the compiler per module format (a chunk of each build), and source maps without sources', () => {
    const js = packedFiles.filter((f) => /\.(c?js)$/.test(f));
    const withCompiler = js.filter((f) => readFileSync(join(ROOT, f), 'utf8').includes('has no partial cut: a full cut is sent instead'));
    expect(withCompiler.sort()).toEqual([expect.stringMatching(/^dist\/chunk-[\w-]+\.js$/), expect.stringMatching(/^dist\/cjs\/chunk-[\w-]+\.cjs$/)]);
    for (const map of packedFiles.filter((f) => f.endsWith('.map'))) expect(JSON.parse(readFileSync(join(ROOT, map), 'utf8')).sourcesContent, map).toBeUndefined();
  });

  it('passes publint and @arethetypeswrong/cli', () => {
    const publint = spawnSync(bin('publint'), [join(app, 'node_modules', 'bobina'), '--pack', 'false', '--strict'], { encoding: 'utf8', timeout: 60_000 });
    expect(publint.stdout + publint.stderr).toContain('All good!');
    expect(publint.status).toBe(0);
    const attw = spawnSync(bin('attw'), [tarball, '--format', 'ascii'], { encoding: 'utf8', timeout: 60_000 });
    expect(attw.stdout + attw.stderr).toContain('No problems found');
    expect(attw.status).toBe(0);
  }, 120_000);
});
