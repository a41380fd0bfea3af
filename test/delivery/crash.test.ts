// A delivering process killed with SIGKILL in the middle of a job, then started again: the job is
// printed once, and the restarted process says "outcome unknown" instead of printing it again.
// Only an explicit reprint prints it a second time.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { child, DELIVERY_DIST, fixture, tempDir, virtualPrinter, waitFor as until } from './helpers.js';

const DELIVER = join(import.meta.dirname, 'children', 'deliver-once.mjs');

describe('a delivering process killed mid-job', () => {
  it('never prints the job twice: restarted, it reports outcome-unknown; a reprint prints it again', async () => {
    const dir = tempDir();
    const bytes = compile(fixture('nfce.txt'), { printer: 'MAKER5T20' }).bytes;
    const file = join(dir, 'job.bin');
    writeFileSync(file, bytes);
    // A printer slow enough (4 KB/s) that the process is still waiting for the confirmation when killed.
    const vp = await virtualPrinter({ printer: 'MAKER5T20', state: { slow: 4000 } });
    const state = join(dir, 'state');
    const run = (token: string, ...extra: string[]) => child([DELIVER, DELIVERY_DIST, state, vp.address, 'MAKER5T20', 'job-1', token, file, ...extra]);

    const first = run('token-1');
    const journal = join(state, 'journal.jsonl');
    await until(() => existsSync(journal) && readFileSync(journal, 'utf8').includes('"writing"'), 10_000, 'the journal to say "writing"');
    await until(() => vp.received > 1000, 10_000, 'the printer to be reading the job');
    process.kill(first.process.pid!, 'SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = run('token-2');
    const answer = JSON.parse(await second.line(/^\{/));
    expect(answer).toMatchObject({ outcome: 'outcome-unknown', motivos: ['outcome-unknown'], fromJournal: true });

    await vp.setState({ slow: 0 });
    const [job] = await vp.waitForJobs(1, 10_000);
    expect(Buffer.from(job!.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(vp.jobs).toHaveLength(1);

    const third = run('token-3', 'reprint');
    expect(JSON.parse(await third.line(/^\{/))).toMatchObject({ outcome: 'completed', confirmacao: 'printer', fromJournal: false });
    expect(vp.jobs).toHaveLength(2);

    const fourth = run('token-4');
    expect(JSON.parse(await fourth.line(/^\{/))).toMatchObject({ outcome: 'completed', fromJournal: true });
    expect(vp.jobs).toHaveLength(2);
  }, 30000);
});
