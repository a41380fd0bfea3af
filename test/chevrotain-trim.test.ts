// The build trims chevrotain's lexer (scripts/chevrotain-trim.mjs): bobina's lexer, bundled with
// the trim as dist/ is, splits every fixture and arbitrary text into exactly the tokens the
// untrimmed chevrotain from node_modules gives; and the bundled Lexer refuses, loudly, the options
// whose code the trim left out.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chevrotainTrim } from '../scripts/chevrotain-trim.mjs';
import { CHEVROTAIN, sideEffectFree } from '../scripts/side-effect-free.mjs';
import { lexer as untrimmed } from '../src/parse/tokens.js';
import { ROOT } from './support/cli.js';

type Lexer = typeof untrimmed;
interface Trimmed {
  lexer: Lexer;
  Lexer: new (definition: unknown, config?: object) => Lexer;
  lexerDefinition: unknown;
}

let dir: string;
let trimmed: Trimmed;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bobina-chevrotain-trim-'));
  const built = await esbuild.build({
    stdin: { contents: `export { lexer, lexerDefinition } from './src/parse/tokens.ts'; export { Lexer } from 'chevrotain';`, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
    plugins: [sideEffectFree(CHEVROTAIN), chevrotainTrim()],
  });
  const file = join(dir, 'lexer.mjs');
  writeFileSync(file, built.outputFiles[0]!.text);
  trimmed = (await import(pathToFileURL(file).href)) as Trimmed;
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The tokens as comparable values: type name, image and offsets. */
function tokens(lexer: Lexer, text: string): string[] {
  return lexer.tokenize(text).tokens.map((t) => `${t.tokenType.name} ${t.startOffset}-${t.endOffset} ${JSON.stringify(t.image)}`);
}

describe("chevrotain's lexer as the build trims it", () => {
  it('gives the untrimmed tokens for every fixture', () => {
    const fixtures = readdirSync(join(ROOT, 'fixtures')).filter((f) => f.endsWith('.txt'));
    expect(fixtures.length).toBeGreaterThan(3);
    for (const f of fixtures) {
      const text = readFileSync(join(ROOT, 'fixtures', f), 'utf8');
      expect(tokens(trimmed.lexer, text)).toEqual(tokens(untrimmed, text));
    }
  });

  it('gives the untrimmed tokens for any text made of tag-like pieces', () => {
    const piece = fc.oneof(
      fc.constantFrom('<', '>', '/', '<qrcode>', '</qrcode>', '<qrcode/>', '<qrcode >', '</qrcode\t>', '<b>', '</b>', '<textAlignCenter>', '<x-1/>', '\n', ' '),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        expect(tokens(trimmed.lexer, text)).toEqual(tokens(untrimmed, text));
      }),
      { numRuns: 1500 },
    );
  }, 30_000);

  it("refuses chevrotain's definition checks, which it left out, instead of skipping them", () => {
    expect(() => new trimmed.Lexer(trimmed.lexerDefinition, { positionTracking: 'onlyOffset', safeMode: true })).toThrow(/leaves out chevrotain's lexer-definition checks/);
  });

  it('refuses the position tracking and the init tracer it left out, and still builds the lexer bobina builds', () => {
    const config = { positionTracking: 'onlyOffset', safeMode: true, skipValidations: true };
    // (Line tracking reaches the RegExp analysis, left out before, first: one refusal or the other.)
    for (const positionTracking of ['full', 'onlyStart']) {
      expect(() => new trimmed.Lexer(trimmed.lexerDefinition, { ...config, positionTracking })).toThrow(/bobina's build leaves out chevrotain's (position tracking other than onlyOffset|RegExp analysis)/);
    }
    expect(() => new trimmed.Lexer(trimmed.lexerDefinition, { ...config, traceInitPerf: true })).toThrow(/leaves out chevrotain's init tracer/);
    const again = new trimmed.Lexer(trimmed.lexerDefinition, config);
    expect(tokens(again, '<b>x</b><qrcode>y</qrcode>')).toEqual(tokens(untrimmed, '<b>x</b><qrcode>y</qrcode>'));
  });
});
