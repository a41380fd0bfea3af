// Golden files: every fixture receipt × every template has an expected listing (.hex) and expected
// diagnostics (.diag) under fixtures/expected/<fixture>/. A missing expectation fails; only an
// explicit `UPDATE=1 npx vitest run test/compile/golden.test.ts` writes them, and the diff is reviewed.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listing, listProfiles } from '../../src/index.js';
import { formatDiagnostic } from '../../src/cli/commands/compile.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const EXPECTED = join(FIXTURES, 'expected');
const UPDATE = process.env.UPDATE === '1';

const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.txt'));

function check(path: string, actual: string): void {
  if (UPDATE) {
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path)) throw new Error(`missing expectation ${path}: run UPDATE=1 npx vitest run test/compile/golden.test.ts and review the diff`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

describe.each(fixtures)('fixture %s', (fixture) => {
  const source = readFileSync(join(FIXTURES, fixture), 'utf8');
  const dir = join(EXPECTED, fixture.replace(/\.txt$/, ''));
  if (UPDATE) mkdirSync(dir, { recursive: true });

  // By code, loaded in the test (a mutant in profile building then takes effect there).
  it.each(listProfiles().map((p) => p.code))('compiles for %s exactly as its golden listing and diagnostics say', (code) => {
    const result = listing(source, { printer: code });
    check(join(dir, `${code}.hex`), result.listing);
    check(join(dir, `${code}.diag`), result.diagnostics.map((d) => formatDiagnostic(fixture, d) + '\n').join(''));
  });
});
