// The agent's journal: durable before it returns, so a process killed with SIGKILL at any moment
// restarts knowing, for each job, whether it was written, started, or never started; compacted so
// it stays small; and held by one process at a time.
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, JournalLockedError } from '../../src/delivery/index.js';
import { child, DELIVERY_DIST, procState, tempDir, unreapedChild, waitFor } from './helpers.js';

const WRITER = join(import.meta.dirname, 'children', 'journal-writer.mjs');
const writer = (dir: string, ...steps: string[]) => child([WRITER, DELIVERY_DIST, dir, ...steps]);

describe('the delivery journal', () => {
  it('answers for a job: never started, started, written, aborted', () => {
    const dir = tempDir();
    const j = Journal.open(dir);
    expect(j.get('1')).toBeUndefined();
    j.begin('1', 'a');
    expect(j.get('1')).toMatchObject({ state: 'writing', token: 'a' });
    j.done('1', 'a', 'printer');
    j.begin('2', 'b');
    j.abort('2', 'b');
    j.begin('3', 'c');
    j.unknown('3', 'c', ['outcome-unknown', 'media-empty']);
    j.begin('4', 'd');
    j.done('4', 'd', 'sent', ['media-low']);
    j.close();
    const again = Journal.open(dir);
    expect(again.get('1')).toMatchObject({ state: 'written', confirmacao: 'printer', token: 'a' });
    expect(again.get('1')!.motivos).toBeUndefined();
    expect(again.get('2')).toMatchObject({ state: 'aborted' });
    // What the printer said when an attempt ended is kept, for the report of a re-offer.
    expect(again.get('3')).toMatchObject({ state: 'writing', motivos: ['outcome-unknown', 'media-empty'] });
    expect(again.get('4')).toMatchObject({ state: 'written', confirmacao: 'sent', motivos: ['media-low'] });
    again.close();
  });

  it('survives a SIGKILL between "about to write" and "written": the job is known to have started', async () => {
    const dir = tempDir();
    const w = writer(dir, 'begin:42', 'hold');
    await w.line(/^begin:42 ok$/);
    process.kill(w.process.pid!, 'SIGKILL');
    expect((await w.exited).signal).toBe('SIGKILL');
    const j = Journal.open(dir); // takes over the dead process's lock
    expect(j.get('42')).toMatchObject({ state: 'writing', token: 'tok-1' });
    j.close();
  }, 15000);

  it('survives a SIGKILL after "written": the job is known to be printed', async () => {
    const dir = tempDir();
    const w = writer(dir, 'begin:42', 'done:42', 'hold');
    await w.line(/^done:42 ok$/);
    process.kill(w.process.pid!, 'SIGKILL');
    await w.exited;
    const j = Journal.open(dir);
    expect(j.get('42')).toMatchObject({ state: 'written', confirmacao: 'printer' });
    j.close();
  }, 15000);

  it('keeps every acknowledged record through a SIGKILL at a random moment, compactions included', async () => {
    const dir = tempDir();
    const w = writer(dir, 'loop:100000');
    await w.line(/^done job-150$/);
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));
    process.kill(w.process.pid!, 'SIGKILL');
    await w.exited;
    const acknowledged = w.stdout().split('\n').filter((l) => /^(began|done) /.test(l));
    const j = Journal.open(dir, { slack: 20 });
    for (const line of acknowledged) {
      const [what, id] = line.split(' ') as [string, string];
      const entry = j.get(id);
      expect(entry, `${line} was acknowledged but is lost`).toBeDefined();
      if (what === 'done') expect(entry!.state).toBe('written');
    }
    // Compacted as it went: far fewer lines than records written.
    expect(j.stats.lines).toBeLessThanOrEqual(j.stats.jobs + 21);
    j.close();
  }, 15000);

  it('drops a last line cut short by a crash, and the next record starts on a line of its own', () => {
    const dir = tempDir();
    const j = Journal.open(dir);
    j.done('1', 'a', 'sent');
    j.close();
    appendFileSync(join(dir, 'journal.jsonl'), '{"jobId":"2","token":"b","sta');
    const k = Journal.open(dir);
    expect(k.get('2')).toBeUndefined();
    k.begin('3', 'c');
    k.close();
    const lines = readFileSync(join(dir, 'journal.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).jobId)).toEqual(['1', '3']);
  });

  // Job 1's token has invalid UTF-8 (decoded, each bad byte is U+FFFD: three bytes where the file
  // has one), job 2 is a good record, and a crash cut the last append short. Measured in the decoded
  // text, the cut fell 2 bytes into the torn line (one 0xC3) or 3 bytes past the file's end (ten 0xFF).
  it.each([
    ['a lone 0xC3', Buffer.from([0xc3]), 't\ufffd'],
    ['ten 0xFF', Buffer.alloc(10, 0xff), 't' + '\ufffd'.repeat(10)],
  ])('cuts off a torn last line by its bytes when an earlier record holds invalid UTF-8 (%s)', (_, bad, token) => {
    const dir = tempDir();
    const file = join(dir, 'journal.jsonl');
    const kept = Buffer.concat([
      Buffer.from('{"jobId":"1","token":"t'),
      bad,
      Buffer.from('","state":"written","confirmacao":"printer","at":1}\n{"jobId":"2","token":"b","state":"written","confirmacao":"sent","at":2}\n'),
    ]);
    writeFileSync(file, Buffer.concat([kept, Buffer.from('{"jobId":"9","tok')]));
    const k = Journal.open(dir);
    // A record with invalid bytes in a string is read as before, each such byte as U+FFFD.
    expect(k.get('1')).toMatchObject({ state: 'written', token });
    expect(k.get('2')).toMatchObject({ state: 'written', confirmacao: 'sent' });
    expect(k.get('9')).toBeUndefined();
    expect(readFileSync(file)).toEqual(kept);
    k.begin('3', 'c');
    const written = JSON.stringify(k.get('3')) + '\n';
    k.close();
    expect(readFileSync(file)).toEqual(Buffer.concat([kept, Buffer.from(written)]));
    const again = Journal.open(dir);
    expect(again.get('3')).toMatchObject({ state: 'writing', token: 'c' });
    expect(again.get('1')).toMatchObject({ state: 'written', token });
    expect(again.stats).toEqual({ jobs: 3, lines: 3 });
    again.close();
  });

  it('stays small: keeps the latest record per job, and drops old finished jobs past the cap or the retention', () => {
    const dir = tempDir();
    const j = Journal.open(dir, { slack: 10, maxEntries: 50 });
    for (let i = 0; i < 120; i++) {
      j.begin(String(i), 't');
      j.done(String(i), 't', 'sent');
    }
    j.begin('unknown', 't');
    j.compact();
    expect(j.stats.jobs).toBe(50);
    expect(j.get('unknown')?.state).toBe('writing');
    expect(j.get('0')).toBeUndefined();
    expect(j.get('119')?.state).toBe('written');
    expect(statSync(join(dir, 'journal.jsonl')).size).toBeLessThan(50 * 120);
    j.close();
    const old = Journal.open(dir, { retainMs: -1 });
    old.compact();
    expect(old.stats.jobs).toBe(0);
    old.close();
  });

  it('refuses a second process while the first one lives', async () => {
    const dir = tempDir();
    const w = writer(dir, 'hold');
    await w.line(/^open \d+$/);
    expect(() => Journal.open(dir)).toThrow(JournalLockedError);
    process.kill(w.process.pid!, 'SIGKILL');
    await w.exited;
    Journal.open(dir).close();
  }, 15000);

  it('takes over a lock held by a zombie: a writer killed whose parent never reaps it', async () => {
    const dir = tempDir();
    const { pid, parent } = await unreapedChild([WRITER, DELIVERY_DIST, dir, 'begin:7', 'hold']);
    await parent.line(/^begin:7 ok$/);
    process.kill(pid, 'SIGKILL');
    await waitFor(() => procState(pid) === 'Z', 5000, 'the writer to be a zombie');
    // To kill(pid, 0), a zombie is as alive as any process.
    expect(() => process.kill(pid, 0)).not.toThrow();
    const j = Journal.open(dir);
    expect(j.get('7')).toMatchObject({ state: 'writing' });
    j.close();
  }, 15000);

  it('takes over a lock naming a pid now used by a process that started later, or in another boot; refuses one naming a running holder', async () => {
    const dir = tempDir();
    const lock = join(dir, 'journal.lock');
    const other = child(['-e', 'setInterval(() => {}, 1000); console.log("up")']);
    await other.line(/^up$/);
    const pid = other.process.pid!;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    writeFileSync(lock, JSON.stringify({ pid, start, boot }));
    expect(() => Journal.open(dir)).toThrow(expect.objectContaining({ name: 'JournalLockedError', holder: pid }));
    writeFileSync(lock, JSON.stringify({ pid, start: String(Number(start) - 1), boot }));
    Journal.open(dir).close();
    writeFileSync(lock, JSON.stringify({ pid, start, boot: '00000000-0000-0000-0000-000000000000' }));
    Journal.open(dir).close();
    // A lock of an older bobina names only a pid: a running one is respected.
    writeFileSync(lock, String(pid));
    expect(() => Journal.open(dir)).toThrow(JournalLockedError);
  }, 15000);

  it('waits for a live holder, saying so once, and opens the journal once it has gone; a wait can be given up', async () => {
    const dir = tempDir();
    const w = writer(dir, 'hold');
    await w.line(/^open \d+$/);
    const told: (number | undefined)[] = [];
    const opening = Journal.openWhenFree(dir, { pollMs: 50, onWait: (e) => told.push(e.holder) });
    await new Promise((r) => setTimeout(r, 300));
    expect(told).toEqual([w.process.pid]);
    process.kill(w.process.pid!, 'SIGTERM');
    const j = await opening;
    expect(j).toBeInstanceOf(Journal);
    j!.close();
    const again = writer(dir, 'hold');
    await again.line(/^open \d+$/);
    const stop = new AbortController();
    const waiting = Journal.openWhenFree(dir, { pollMs: 50, signal: stop.signal });
    stop.abort();
    expect(await waiting).toBeUndefined();
  }, 15000);
});
