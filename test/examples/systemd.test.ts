// examples/systemd/bobina-agent@.service: systemd accepts it as written, and its ExecStart gives
// `bobina agent` only flags the agent takes, with every one the agent requires.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { bobina, CLI_TEST_TIMEOUT, ROOT } from '../support/cli.js';

// The first test runs the CLI as a child process (support/cli.ts).
vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT });

const UNIT = join(ROOT, 'examples', 'systemd', 'bobina-agent@.service');
const unit = readFileSync(UNIT, 'utf8');
const haveSystemd = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
// systemd-analyze comes with Debian's systemd (on this machine kind and CI's); elsewhere (a container
// without systemd, macOS) the verify step is skipped with one visible line, the flag check still runs.
if (!haveSystemd) console.warn('skipping systemd-analyze verify of examples/systemd: no systemd-analyze on PATH (Debian: apt-get install -y systemd)');

const flags = (text: string) => [...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);

describe('examples/systemd', () => {
  it("runs `bobina agent` with flags the agent's usage line names, the required ones included", () => {
    const exec = unit.match(/^ExecStart=.*\bbobina agent (.*)$/m);
    expect(exec).not.toBeNull();
    const help = bobina(['agent', '--help']);
    const usage = help.stdout.toString('utf8') + help.stderr;
    const accepted = new Set(flags(usage));
    expect(flags(exec![1]!).filter((f) => !accepted.has(f))).toEqual([]);
    // The key comes from the environment file (BOBINA_TERMINAL_KEY), never the command line.
    expect(flags(exec![1]!).sort()).toEqual(['--device', '--state-dir', '--terminal', '--url']);
    expect(unit).toMatch(/^EnvironmentFile=/m);
    expect(readFileSync(join(ROOT, 'examples', 'systemd', 'README.md'), 'utf8')).toContain('BOBINA_TERMINAL_KEY=');
  });

  it.skipIf(!haveSystemd)('passes systemd-analyze verify with no warning', () => {
    const r = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('bobina-agent'))).toEqual([]);
  });
});
