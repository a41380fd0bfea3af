// The agent's durable journal: for each job, "about to write" before the first byte goes out and
// "written" (and how it was confirmed) after the last, each line fsynced before delivery goes on.
// After a crash or a re-offered job it answers: already printed, started but not known to have
// finished, or never started. One JSON line per record in <dir>/journal.jsonl; compacted (to the
// latest record of each recent job, written to a new file and renamed over) so it stays small.
// One process at a time: <dir>/journal.lock names the holder (lock-file.ts).
import { fs, path } from './builtins.js';
import { acquireLock, JournalLockedError, releaseLock } from './lock-file.js';
import type { Reason } from './reasons.js';

export { JournalLockedError } from './lock-file.js';

/** writing: the first byte may have gone out. written: every byte went out (confirmed as said). aborted: nothing went out after all. */
export type JournalState = 'writing' | 'written' | 'aborted';

export interface JournalEntry {
  jobId: string;
  /** The delivery token of the attempt that wrote this record. */
  token: string;
  state: JournalState;
  confirmacao?: 'sent' | 'printer';
  /** What the printer said when the attempt ended (paper out mid-job…), so a re-offer reports it again. */
  motivos?: Reason[];
  /** Milliseconds since the epoch. */
  at: number;
}

export interface JournalOptions {
  /** Records older than this are dropped at compaction (default 7 days; jobs expire long before). */
  retainMs?: number;
  /** At most this many jobs are kept, the oldest finished ones dropped first (default 10000). */
  maxEntries?: number;
  /** Compact when the file holds this many more lines than jobs (default 1000). */
  slack?: number;
}

export interface WaitOptions {
  /** Stop waiting (the call then resolves undefined). */
  signal?: AbortSignal;
  /** How often the lock is tried again (default 1000 ms). */
  pollMs?: number;
  /** Told once per holder that the journal is in use and the call waits for it. */
  onWait?: (err: JournalLockedError) => void;
}

const FILE = 'journal.jsonl';
const LOCK = 'journal.lock';
const DAY = 24 * 60 * 60 * 1000;

/** Makes a new directory entry (a created or renamed file) survive a power cut. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs().openSync(dir, 'r');
    fs().fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the file's own fsync is what matters most.
  } finally {
    if (fd !== undefined) fs().closeSync(fd);
  }
}

function parseLine(line: string): JournalEntry | undefined {
  try {
    const e = JSON.parse(line) as JournalEntry;
    return typeof e.jobId === 'string' && typeof e.state === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
}

export class Journal {
  readonly dir: string;
  readonly path: string;
  readonly lockPath: string;
  private readonly retainMs: number;
  private readonly maxEntries: number;
  private readonly slack: number;
  private readonly entries = new Map<string, JournalEntry>();
  private lines = 0;
  private fd: number | undefined;

  private constructor(dir: string, options: JournalOptions) {
    this.dir = dir;
    this.path = path().join(dir, FILE);
    this.lockPath = path().join(dir, LOCK);
    this.retainMs = options.retainMs ?? 7 * DAY;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.slack = options.slack ?? 1000;
  }

  /**
   * Opens (or creates) the journal in `dir` and takes its lock. A lock left by a process that no
   * longer runs (an agent killed with SIGKILL, a zombie its parent has not reaped, a pid reused
   * since) is taken over; one held by a live process throws JournalLockedError.
   */
  static open(dir: string, options: JournalOptions = {}): Journal {
    fs().mkdirSync(dir, { recursive: true });
    const journal = new Journal(dir, options);
    acquireLock(journal.lockPath, journal.dir);
    try {
      journal.load();
    } catch (err) {
      releaseLock(journal.lockPath);
      throw err;
    }
    return journal;
  }

  /**
   * Opens the journal as open() does, but while another live process holds it, waits (trying again
   * every `pollMs`) instead of throwing: what a restarted agent does while the old one still runs.
   * Resolves undefined if `signal` aborts first.
   */
  static async openWhenFree(dir: string, options: JournalOptions & WaitOptions = {}): Promise<Journal | undefined> {
    let told: number | undefined;
    const { signal, pollMs = 1000, onWait, ...journalOptions } = options;
    while (!signal?.aborted) {
      try {
        return Journal.open(dir, journalOptions);
      } catch (err) {
        if (!(err instanceof JournalLockedError)) throw err;
        if (err.holder !== told) {
          told = err.holder;
          onWait?.(err);
        }
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, pollMs);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    return undefined;
  }

  /** The latest record of a job, if the journal has one. */
  get(jobId: string): JournalEntry | undefined {
    return this.entries.get(jobId);
  }

  /** Records that the first byte of the job is about to go out; durable when this returns. */
  begin(jobId: string, token: string): void {
    this.append({ jobId, token, state: 'writing', at: Date.now() });
  }

  /** Records that every byte went out, and how that is known; durable when this returns. */
  done(jobId: string, token: string, confirmacao: 'sent' | 'printer', motivos: readonly Reason[] = []): void {
    this.append({ jobId, token, state: 'written', confirmacao, ...(motivos.length ? { motivos: [...motivos] } : {}), at: Date.now() });
  }

  /**
   * Records that writing started and ended without knowing whether it printed, and what the printer
   * said then: still `writing` (never printed again without a reprint), now with its reasons.
   */
  unknown(jobId: string, token: string, motivos: readonly Reason[]): void {
    this.append({ jobId, token, state: 'writing', motivos: [...motivos], at: Date.now() });
  }

  /** Records that nothing of the job went out after all (the device refused it): it may be printed again. */
  abort(jobId: string, token: string): void {
    this.append({ jobId, token, state: 'aborted', at: Date.now() });
  }

  /** Jobs in the journal, and lines in its file (for tests and diagnostics). */
  get stats(): { jobs: number; lines: number } {
    return { jobs: this.entries.size, lines: this.lines };
  }

  /** Rewrites the file with only what is still needed: the latest record of each recent job. */
  compact(): void {
    const now = Date.now();
    const keep = [...this.entries.values()].filter((e) => now - e.at <= this.retainMs).sort((a, b) => a.at - b.at);
    // Over the cap, the oldest finished jobs go first; an unknown outcome is kept longest.
    while (keep.length > this.maxEntries) {
      const i = keep.findIndex((e) => e.state !== 'writing');
      keep.splice(i >= 0 ? i : 0, 1);
    }
    const tmp = `${this.path}.tmp`;
    const fd = fs().openSync(tmp, 'w');
    try {
      fs().writeSync(fd, keep.map((e) => JSON.stringify(e) + '\n').join(''));
      fs().fsyncSync(fd);
    } finally {
      fs().closeSync(fd);
    }
    fs().renameSync(tmp, this.path);
    syncDir(this.dir);
    this.entries.clear();
    for (const e of keep) this.entries.set(e.jobId, e);
    this.lines = keep.length;
    this.reopen();
  }

  /** Closes the file and releases the lock. */
  close(): void {
    if (this.fd !== undefined) fs().closeSync(this.fd);
    this.fd = undefined;
    releaseLock(this.lockPath);
  }

  private append(entry: JournalEntry): void {
    if (this.fd === undefined) throw new Error('journal is closed');
    fs().writeSync(this.fd, JSON.stringify(entry) + '\n');
    fs().fsyncSync(this.fd);
    this.entries.set(entry.jobId, entry);
    this.lines++;
    if (this.lines > this.entries.size + this.slack) this.compact();
  }

  private load(): void {
    let bytes = Buffer.alloc(0);
    try {
      bytes = fs().readFileSync(this.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    // A crash in the middle of an append leaves a last line without its newline: it was never
    // acknowledged, so it is dropped (and cut off, so the next record starts on a line of its own).
    // Lines are found in the file's bytes, not in its decoded text: an invalid byte anywhere (a
    // corrupted record) decodes to U+FFFD, three bytes, and an offset measured in the text would
    // miss the torn line's start. Each line is decoded on its own, an invalid byte as U+FFFD as
    // before: a line that is not a record is skipped (and counted), one with such a character in a
    // string is kept.
    const end = bytes.lastIndexOf(0x0a) + 1;
    let start = 0;
    while (start < end) {
      const next = bytes.indexOf(0x0a, start);
      if (next > start) {
        const e = parseLine(bytes.toString('utf8', start, next));
        if (e) this.entries.set(e.jobId, e);
        this.lines++;
      }
      start = next + 1;
    }
    this.reopen();
    if (end < bytes.length) {
      fs().ftruncateSync(this.fd!, end);
      fs().fsyncSync(this.fd!);
    }
    if (this.lines > this.entries.size + this.slack) this.compact();
  }

  private reopen(): void {
    if (this.fd !== undefined) fs().closeSync(this.fd);
    let existed = true;
    try {
      fs().statSync(this.path);
    } catch {
      existed = false;
    }
    this.fd = fs().openSync(this.path, 'a');
    if (!existed) syncDir(this.dir);
  }

}
