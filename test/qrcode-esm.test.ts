// The build rewrites qrcode's core as ES modules and leaves out its Kanji mode
// (scripts/qrcode-esm.mjs): the core bundled as dist/ bundles it gives exactly qrcode's own
// symbol (version, mask, every module) for the fixtures' QR payloads and arbitrary text, at every
// error-correction level and in both of the forms bobina calls it with; it refuses, loudly, the
// Kanji mode it left out; and the rewrite refuses a file it does not understand.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreToEsm, qrcodeEsm } from '../scripts/qrcode-esm.mjs';
import { ROOT } from './support/cli.js';

type Create = (data: string | { data: string | Uint8Array; mode: string }[], options?: object) => {
  version: number;
  maskPattern: number;
  modules: { size: number; data: Uint8Array };
};

const original = (createRequire(import.meta.url)('qrcode/lib/core/qrcode.js') as { create: Create }).create;
let rewritten: Create;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bobina-qrcode-esm-'));
  const built = await esbuild.build({
    stdin: { contents: "import core from 'qrcode/lib/core/qrcode.js'; export const create = core.create;", resolveDir: ROOT, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    plugins: [qrcodeEsm()],
  });
  const file = join(dir, 'qrcode-core.mjs');
  writeFileSync(file, built.outputFiles[0]!.text);
  rewritten = ((await import(pathToFileURL(file).href)) as { create: Create }).create;
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ECC = ['L', 'M', 'Q', 'H'] as const;

/** The symbol, or the error's message: both must be the same from either build. */
function symbol(create: Create, data: Parameters<Create>[0], ecc: string): unknown {
  try {
    const { version, maskPattern, modules } = create(data, { errorCorrectionLevel: ecc });
    return { version, maskPattern, size: modules.size, data: Buffer.from(modules.data).toString('base64') };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function same(data: string, ecc: string): void {
  expect(symbol(rewritten, data, ecc)).toEqual(symbol(original, data, ecc));
  expect(symbol(rewritten, [{ data, mode: 'byte' }], ecc)).toEqual(symbol(original, [{ data, mode: 'byte' }], ecc));
}

describe("qrcode's core as the build rewrites it", () => {
  it("gives qrcode's own symbols for every QR payload of the fixtures, at every level", () => {
    const payloads = readdirSync(join(ROOT, 'fixtures'))
      .filter((f) => f.endsWith('.txt'))
      .flatMap((f) => [...readFileSync(join(ROOT, 'fixtures', f), 'utf8').matchAll(/<qrcode[^>]*>([\s\S]*?)<\/qrcode\s*>/g)].map((m) => m[1]!))
      .filter((p) => p.length > 0);
    expect(payloads.length).toBeGreaterThanOrEqual(3);
    for (const payload of payloads) for (const ecc of ECC) same(payload, ecc);
  });

  it("gives qrcode's own symbols for arbitrary text: digits, capitals, Kanji, anything, too long", () => {
    const piece = fc.oneof(
      fc.stringMatching(/^[0-9]{1,30}$/),
      fc.stringMatching(/^[A-Z0-9 $%*+\-./:]{1,20}$/),
      fc.constantFrom('漢字', 'テスト', '〜', '§±×÷', 'Ωπ', '→', 'ÇÃÕ', 'https://www.sefaz.rs.gov.br/NFCE/NFCE-COM.aspx?p=', '\n'),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), fc.constantFrom(...ECC), (parts, ecc) => same(parts.join(''), ecc)),
      { numRuns: 300 },
    );
    same('9'.repeat(8000), 'L'); // more than any symbol holds: the same error
  }, 60_000);

  it('refuses the Kanji mode it left out, instead of encoding without it', () => {
    expect(() => rewritten('漢字', { toSJISFunc: () => 0 })).toThrow(/leaves out qrcode's Kanji mode/);
  });

  it('refuses a file whose shape its rules do not cover', () => {
    const path = join(ROOT, 'node_modules', 'qrcode', 'lib', 'core', 'utils.js');
    expect(() => coreToEsm(path, 'exports.size = function (size) { return size }\n')).toThrow(/"size" is both exported and a name of its own/);
    expect(() => coreToEsm(path, 'exports.a = 1\nexports.a = 2\n')).toThrow(/assigned twice/);
    expect(() => coreToEsm(path, "const x = require('./utils').a.b\n")).toThrow(/require or exports the rewrite does not cover/);
  });
});
