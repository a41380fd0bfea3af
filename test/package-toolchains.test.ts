// The packed package (installed offline as in package.test.ts) from the toolchains its users run:
// Jest 29 with its default config (CommonJS, and a module system that cannot require an ES module,
// so bobina's CommonJS build runs there), TypeScript in every moduleResolution with
// skipLibCheck false, Node's require() with and without require(esm), and a bundler that meets
// both `import` and `require` of bobina. Where require() can load an ES module, and in a bundle,
// `import` and `require` share one copy of bobina (package.json's module-sync and module conditions).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, listProfiles } from '../src/index.js';
import { packAndInstall } from '../scripts/offline-install.mjs';
import { ROOT } from './support/cli.js';
import { hex } from './support/hex.js';

let work: string;
let app: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bobina-toolchains-'));
  ({ app } = packAndInstall(ROOT, work));
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const nfce = readFileSync(join(ROOT, 'fixtures', 'nfce.txt'), 'utf8');
const node = (args: string[]) => spawnSync(process.execPath, args, { cwd: app, encoding: 'utf8', timeout: 60_000 });

// What the Jest suite checks, in the consumer's own words (CommonJS, as Jest runs it by default).
const JEST_SUITE = `const { readFileSync } = require('node:fs');
const { compile, loadProfile, ProfileError } = require('bobina');
const { openPrinter, startVirtualPrinter, PrinterError, PrinterRefusedError } = require('bobina/delivery');

const expected = JSON.parse(readFileSync(__dirname + '/expected.json', 'utf8'));
const hex = (bytes) => Buffer.from(bytes).toString('hex');

test.each(Object.keys(expected.nfce))('compiles the nfce fixture for template %s as the repository does', (id) => {
  expect(hex(compile(expected.source, { printer: Number(id) }).bytes)).toBe(expected.nfce[id]);
});

test('reports diagnostics, throws ProfileError, and loads a code page from iconv-lite', () => {
  expect(compile('<paperCutPartial>', { printer: 'MAKER3DR800' }).diagnostics.map((d) => d.code)).toEqual(['lower/partial-cut-fallback']);
  expect(() => loadProfile('no such printer')).toThrow(ProfileError);
  const greek = { extends: 5, codepage: { encoding: 'cp737', select: '1B 74 0E' } };
  expect(hex(compile('Ωμέγα', { printer: greek }).bytes)).toBe(expected.greek);
});

test('prints to the virtual printer with a profile from the main entry', async () => {
  const profile = loadProfile({ extends: 'MAKER5T20', columns: { normal: 42, condensed: 56 } });
  const printer = await startVirtualPrinter({ printer: profile });
  try {
    const bytes = compile('Olá', { printer: profile }).bytes;
    const session = openPrinter(printer.address, profile);
    expect((await session.print(bytes)).written).toBe(bytes.length);
    await session.close();
    expect(hex(printer.jobs[0].bytes)).toBe(hex(bytes));
  } finally {
    await printer.close();
  }
});

test('throws its printer errors as their classes', async () => {
  const printer = await startVirtualPrinter({ printer: 5 });
  const address = printer.address;
  await printer.close();
  const error = await openPrinter(address, 5, { connectTimeoutMs: 2000 }).print(new Uint8Array([0x0a])).catch((e) => e);
  expect(error).toBeInstanceOf(PrinterRefusedError);
  expect(error).toBeInstanceOf(PrinterError);
});
`;

describe('Jest 29, default config', () => {
  it('runs a CommonJS suite that requires bobina and bobina/delivery', () => {
    const dir = join(app, 'jest-suite');
    mkdirSync(dir, { recursive: true });
    const nfceBytes = Object.fromEntries(listProfiles().map((p) => [p.id, hex(compile(nfce, { printer: p.id }).bytes)]));
    const greek = hex(compile('Ωμέγα', { printer: { extends: 5, codepage: { encoding: 'cp737', select: '1B 74 0E' } } }).bytes);
    writeFileSync(join(dir, 'expected.json'), JSON.stringify({ source: nfce, nfce: nfceBytes, greek }));
    writeFileSync(join(dir, 'bobina.test.js'), JEST_SUITE);
    const results = join(work, 'jest.json');
    const jest = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
    const r = node([jest, '--ci', '--watchman=false', `--cacheDirectory=${join(work, 'jest-cache')}`, '--json', `--outputFile=${results}`]);
    const report = JSON.parse(readFileSync(results, 'utf8')) as { numPassedTests: number; numTotalTests: number; testResults: { message: string }[] };
    expect(report.testResults.map((t) => t.message).join('\n')).toBe('');
    expect(report.numTotalTests).toBe(listProfiles().length + 3);
    expect(report.numPassedTests).toBe(report.numTotalTests);
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
  }, 120_000);
});

// One consumer, type-checked as each kind of project compiles it.
const CONSUMER = `import { compile, hasErrors, loadProfile, ProfileError, type Diagnostic, type Profile } from 'bobina';
import { openPrinter, PrinterError, type PrintOutcome } from 'bobina/delivery';

const profile: Profile = loadProfile('MAKER5T20');
const { bytes, diagnostics } = compile('<textAlignCenter>Olá\\n<paperCutPartial>', { printer: profile });
const first: Diagnostic | undefined = diagnostics[0];
export const summary = { length: bytes.length, failed: hasErrors(diagnostics), first };
export const isBobinaError = (error: unknown): boolean => error instanceof ProfileError || error instanceof PrinterError;
export async function print(): Promise<PrintOutcome> {
  const session = openPrinter('tcp://127.0.0.1:9100', profile);
  try {
    return await session.print(bytes);
  } finally {
    await session.close();
  }
}
`;

// Each moduleResolution, with its consumers (node16 and nodenext: a CommonJS file and an ES module
// file in one project) and the declaration files they must get: .d.cts for CommonJS under node16
// and nodenext, .d.ts elsewhere.
const TYPESCRIPT = [
  { moduleResolution: 'node10', module: 'commonjs', files: ['consumer.ts'], types: ['index.d.ts', 'delivery.d.ts'] },
  { moduleResolution: 'node16', module: 'node16', files: ['consumer.cts', 'consumer.mts'], types: ['index.d.cts', 'delivery.d.cts', 'index.d.ts', 'delivery.d.ts'] },
  { moduleResolution: 'nodenext', module: 'nodenext', files: ['consumer.cts', 'consumer.mts'], types: ['index.d.cts', 'delivery.d.cts', 'index.d.ts', 'delivery.d.ts'] },
  { moduleResolution: 'bundler', module: 'esnext', files: ['consumer.ts'], types: ['index.d.ts', 'delivery.d.ts'] },
];

/** `node args…` in the installed project, without blocking (the type checks run side by side). */
function nodeAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: app, timeout: 540_000, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

// With skipLibCheck false TypeScript checks every declaration file the consumer reaches: bobina's
// own only (its types name no package's: scripts/schema-types.ts spells TypeBox's out). The four
// projects run at once.
describe('TypeScript, strict, skipLibCheck false', () => {
  it('type-checks the consumers in every moduleResolution: node10, node16 and nodenext (CommonJS and ES module consumers), bundler', async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const runs = TYPESCRIPT.map(({ moduleResolution, module, files }) => {
      const dir = join(app, 'ts', moduleResolution);
      mkdirSync(dir, { recursive: true });
      for (const file of files) writeFileSync(join(dir, file), CONSUMER);
      const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', lib: ['es2022'], types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')], module, moduleResolution };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
      return nodeAsync([tsc, '-p', join(dir, 'tsconfig.json'), '--listFiles']);
    });
    const results = await Promise.all(runs);
    TYPESCRIPT.forEach(({ moduleResolution, types }, i) => {
      const { status, stdout, stderr } = results[i]!;
      const lines = stdout.split('\n').filter(Boolean);
      const errors = lines.filter((l) => !l.startsWith('/'));
      expect(errors.join('\n') + stderr, moduleResolution).toBe('');
      expect(status, moduleResolution).toBe(0);
      const dist = join(app, 'node_modules', 'bobina', 'dist');
      const declarations = lines.filter((f) => f.startsWith(`${dist}/`) && !/\/index-\w+\.d\.c?ts$/.test(f)).map((f) => f.slice(dist.length + 1));
      expect(declarations.sort(), moduleResolution).toEqual([...types].sort());
      // Nothing of TypeBox's (about 350 declaration files, 14 s of checking when bobina's types named them).
      expect(lines.filter((f) => f.includes('/node_modules/typebox/')), moduleResolution).toEqual([]);
    });
  }, 600_000);
});

/** Runs `script` (CommonJS) in the installed project; returns what it printed as JSON. */
function inApp(script: string, flags: string[] = []): unknown {
  const r = node([...flags, '-e', script]);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

// Which of bobina's files a require() loaded, and whether import() gets the same bobina.
const LOADED = `const loaded = () => Object.keys(require.cache).filter((f) => f.includes('/node_modules/bobina/')).map((f) => f.split('/node_modules/bobina/')[1]).sort();`;
const SHARED = `${LOADED}
const b = require('bobina'), d = require('bobina/delivery');
const profile = b.loadProfile({ extends: 'MAKER5T20', columns: { normal: 42, condensed: 56 } });
let refused; try { b.loadProfile('no such printer') } catch (e) { refused = e }
import('bobina').then((esm) => console.log(JSON.stringify({
  loaded: loaded(),
  sameAsImport: esm.compile === b.compile && esm.ProfileError === b.ProfileError && esm.loadProfile(5) === b.loadProfile(5),
  errorClass: refused instanceof esm.ProfileError,
  // delivery takes the main entry's profile as one of its own (one profile module behind both)
  deliveryTakesProfile: d.openPrinter('tcp://127.0.0.1:9', profile) instanceof d.PrinterSession,
  bytes: Buffer.from(b.compile(require('node:fs').readFileSync(${JSON.stringify(join(ROOT, 'fixtures', 'nfce.txt'))}, 'utf8'), { printer: profile }).bytes).toString('hex'),
})));`;

describe("Node's require()", () => {
  const user = { extends: 'MAKER5T20', columns: { normal: 42, condensed: 56 } };

  it('gives require() the ES module build where require(esm) works (module-sync), so require and import share one bobina', () => {
    const r = inApp(SHARED) as Record<string, unknown>;
    expect(r).toEqual({ loaded: ['dist/delivery.js', 'dist/index.js'], sameAsImport: true, errorClass: true, deliveryTakesProfile: true, bytes: hex(compile(nfce, { printer: user }).bytes) });
  });

  it('gives require() the CommonJS build where require(esm) does not work, with one chunk behind both entries', () => {
    const r = inApp(SHARED, ['--no-experimental-require-module']) as Record<string, unknown>;
    expect(r.loaded).toEqual([expect.stringMatching(/^dist\/cjs\/chunk-[\w-]+\.cjs$/), 'dist/cjs/delivery.cjs', 'dist/cjs/index.cjs']);
    expect(r.deliveryTakesProfile).toBe(true);
    expect(r.bytes).toBe(hex(compile(nfce, { printer: user }).bytes));
  });
});

describe('a bundler', () => {
  it('bundles one copy of bobina for a program that both imports and requires it (esbuild, platform node)', async () => {
    writeFileSync(join(app, 'imports.mjs'), "import { compile } from 'bobina'; import './requires.cjs'; export default compile;\n");
    writeFileSync(join(app, 'requires.cjs'), "module.exports = require('bobina').compile;\n");
    const out = await esbuild.build({ entryPoints: [join(app, 'imports.mjs')], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
    const text = out.outputFiles[0]!.text;
    expect(text.split('has no partial cut: a full cut is sent instead')).toHaveLength(2);
  });
});
