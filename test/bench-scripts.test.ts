// The benchmarks and build scripts (bench/, scripts/) are not run by npm test (bench/ runs for
// minutes and needs peers installed), but each must at least parse: `npm run bench` was broken for
// days by a template literal holding unescaped backquotes in bench/styled.mjs.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

const scripts = ['bench', 'bench/lib', 'scripts'].flatMap((dir) =>
  readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.mjs')).map((f) => `${dir}/${f}`),
);

describe('the scripts of bench/ and scripts/', () => {
  it('are found', () => {
    expect(scripts).toEqual(expect.arrayContaining(['bench/run.mjs', 'bench/styled.mjs', 'bench/lib/report.mjs', 'scripts/cjs-build.mjs']));
  });

  it.each(scripts)('%s parses (node --check)', (script) => {
    const r = spawnSync(process.execPath, ['--check', join(ROOT, script)], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
