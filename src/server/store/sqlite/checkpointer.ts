// Keeps the write-ahead log bounded, off the request thread. The serving connection never
// checkpoints itself (wal_autocheckpoint = 0: an inline checkpoint stalls one insert in ~500); a
// worker thread with its own connection does, on a short tick:
// - after writes: PASSIVE, which copies what it can and never waits. Under sustained writes it
//   never catches up, and a WAL never fully copied back is never reset: 948 MB in 15 s. So past
//   `truncateAboveBytes` the thread asks for a gap: the serving side holds its statements back
//   (the store's gate: requests wait asynchronously, the event loop goes on), the thread runs
//   TRUNCATE (copies the rest, cuts the file to zero) and the gate opens again. Waiting for a gap
//   through SQLite's busy handler alone starves against a busy writer. If the thread falls behind
//   (a busy machine starves it of CPU), the serving side forces the gap itself at twice the limit
//   (watch()), so the WAL stays under about twice the limit however busy the machine is;
// - when no write has come for `idleMs`: TRUNCATE, so an idle service leaves no WAL behind.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { BackgroundWorker, WorkerLog } from '../../workers/worker.js';

export interface CheckpointPolicy {
  /** How often the thread looks at the WAL, in ms. */
  everyMs: number;
  /** A WAL file larger than this is truncated at the next tick, in a gap between writes. */
  truncateAboveBytes: number;
  /** After this long without a write, the WAL is truncated to zero. */
  idleMs: number;
  /** How long a TRUNCATE may wait for other processes' writers and readers before trying again later. */
  busyMs: number;
}

export const DEFAULT_CHECKPOINTS: CheckpointPolicy = { everyMs: 200, truncateAboveBytes: 64 * 1024 * 1024, idleMs: 2000, busyMs: 1000 };

// Plain CommonJS evaluated in the thread: no bundling question, and it needs nothing but the driver.
const THREAD = `
const { workerData: w, parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(w.driver);
const db = new Database(w.file);
db.pragma('busy_timeout = ' + w.busyMs);
const walSize = () => { try { return statSync(w.file + '-wal').size; } catch { return 0; } };
let seen = db.pragma('data_version', { simple: true });
let lastWrite = Date.now();
let timer;
const schedule = () => { timer = setTimeout(tick, w.everyMs); };
function truncate(why) {
  const before = walSize();
  const started = Date.now();
  const [r] = db.pragma('wal_checkpoint(TRUNCATE)');
  parentPort.postMessage({ type: 'truncated', why, busy: r.busy === 1, before, after: walSize(), ms: Date.now() - started });
}
function tick() {
  try {
    const version = db.pragma('data_version', { simple: true });
    const now = Date.now();
    if (version !== seen) {
      seen = version;
      lastWrite = now;
      db.pragma('wal_checkpoint(PASSIVE)');
      // Resumed by 'go' once the serving side holds its writes back.
      if (walSize() > w.truncateAboveBytes) return parentPort.postMessage({ type: 'gap' });
    } else if (now - lastWrite >= w.idleMs && walSize() > 0) {
      truncate('idle');
    }
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) });
  }
  schedule();
}
parentPort.on('message', (m) => {
  if (m === 'go') {
    // Asked by the thread's own 'gap', or sent by the serving side when the thread fell behind.
    clearTimeout(timer);
    try { truncate('size'); } catch (err) { parentPort.postMessage({ type: 'truncated', why: 'size', busy: true, error: String(err && err.message || err) }); }
    return schedule();
  }
  clearTimeout(timer);
  db.close();
  process.exit(0);
});
schedule();
parentPort.postMessage({ type: 'ready' });
`;

interface Serving {
  pragma(source: string): unknown;
  readonly open: boolean;
}

type ThreadMessage =
  | { type: 'ready' }
  | { type: 'gap' }
  | { type: 'truncated'; why: string; busy: boolean; before?: number; after?: number; ms?: number; error?: string }
  | { type: 'error'; message: string };

export interface WalCheckpointer extends BackgroundWorker {
  /**
   * Called after each statement on the serving connection. Every 16th looks at the WAL file; past
   * twice the limit (the thread has fallen behind: a busy machine starves it) the serving side
   * holds its writes back itself until the thread has truncated. So the bound holds however
   * busy the machine is.
   */
  watch(): void;
}

/**
 * One statement can add tens of kB to the WAL: an Insert writes its row's pages, its bytes' overflow
 * pages and a page of each index (~70 kB for a 16 kB job since the job-list indexes, ~48 kB before
 * them). Looking every 16th keeps what passes the bound between two looks near 1 MB; a look is one
 * stat() of the file, microseconds against the statements' milliseconds.
 */
const WATCH_EVERY = 16;

/** The checkpointer of the connection `db` serving `file`; `exclusive` holds that connection's statements back. */
export function walCheckpointer(file: string, db: Serving, exclusive: () => Promise<() => void>, policy: CheckpointPolicy = DEFAULT_CHECKPOINTS): WalCheckpointer {
  let thread: Worker | undefined;
  let alive = false;
  let exited: Promise<unknown> = Promise.resolve();
  let gap: 'asked' | (() => void) | undefined;
  let heldSince = 0;
  let statements = 0;
  /** Lets the held statements go; how long they were held, in ms. */
  const reopen = () => {
    const held = typeof gap === 'function' ? Date.now() - heldSince : 0;
    if (typeof gap === 'function') gap();
    gap = undefined;
    return held;
  };
  /** Holds writes back, then tells the thread to truncate; one gap at a time, whoever asks. */
  const requestGap = () => {
    if (gap !== undefined || !alive) return;
    gap = 'asked';
    void exclusive().then((release) => {
      gap = release;
      heldSince = Date.now();
      if (alive) thread!.postMessage('go');
      else reopen();
    });
  };
  return {
    name: 'sqlite-wal-checkpointer',
    watch() {
      if (!alive || gap !== undefined || ++statements % WATCH_EVERY !== 0) return;
      if (walBytes(file) > 2 * policy.truncateAboveBytes) requestGap();
    },
    async start(log: WorkerLog) {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      db.pragma('wal_autocheckpoint = 0');
      const t = new Worker(THREAD, { eval: true, workerData: { file, driver, ...policy } });
      thread = t;
      t.unref();
      exited = new Promise((resolve) => t.once('exit', resolve)).finally(() => {
        alive = false;
        reopen();
      });
      t.on('message', (m: ThreadMessage) => {
        if (m.type === 'gap') requestGap();
        else if (m.type === 'truncated') {
          const heldMs = m.why === 'size' ? reopen() : 0;
          if (m.busy) log.info({ why: m.why, error: m.error, heldMs }, 'WAL truncation found other readers or writers; retrying later');
          else log.debug({ why: m.why, before: m.before, after: m.after, ms: m.ms, heldMs }, 'WAL truncated');
        } else if (m.type === 'error') log.warn({ error: m.message }, 'WAL checkpoint failed');
      });
      t.on('error', (err) => log.error({ err }, 'WAL checkpointer thread failed'));
      // Running means watching: until the thread has its connection, nothing keeps the WAL bounded.
      await new Promise<void>((resolve, reject) => {
        t.on('message', (m: ThreadMessage) => m.type === 'ready' && resolve());
        t.once('error', reject);
        t.once('exit', () => reject(new Error('the WAL checkpointer thread exited before it started')));
      });
      alive = true;
    },
    async stop() {
      alive = false;
      thread?.postMessage('stop');
      thread = undefined;
      await exited;
      // The connection may stay open without us (tests, CLI): let it checkpoint itself again.
      if (db.open) db.pragma('wal_autocheckpoint = 1000');
    },
  };
}

function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
