// The journal's lock: a file naming the one process that may deliver with that journal (its pid,
// start time and boot: process-alive.ts). A lock whose holder is gone — dead, a zombie not yet
// reaped, or a pid now used by another process — is taken over; one held by a running process is
// refused with JournalLockedError (the caller waits and tries again). The file is made whole in one
// step and removed in one step, so no reader finds it half written or judges a fresh lock stale.
import { fs } from './builtins.js';
import { formatIdentity, isRunning, ownIdentity, parseIdentity, type ProcessIdentity } from './process-alive.js';

/** Another live process holds the journal: two agents on one state directory would print twice. */
export class JournalLockedError extends Error {
  override name = 'JournalLockedError';
  constructor(message: string, readonly holder?: number) {
    super(message);
  }
}

/** A lock file that names nobody (torn by a crash of a bobina before locks were written whole) is stale after this long. */
const UNREADABLE_LOCK_MS = 2000;

const sameHolder = (a: ProcessIdentity, b: ProcessIdentity) => a.pid === b.pid && a.start === b.start && a.boot === b.boot;

let counter = 0;
/** A name beside `lockPath` that no other process (nor another call of this one) uses. */
const aside = (lockPath: string, what: string) => `${lockPath}.${process.pid}.${++counter}.${what}`;

/** Takes the lock at `lockPath` for this process, or throws JournalLockedError naming its live holder. */
export function acquireLock(lockPath: string, dir: string): void {
  const mine = ownIdentity();
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(lockPath, mine)) return;
    let text: string;
    let age: number;
    try {
      text = fs().readFileSync(lockPath, 'utf8');
      age = Date.now() - fs().statSync(lockPath).mtimeMs;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
      throw err;
    }
    const holder = parseIdentity(text);
    if (holder ? holder.pid !== process.pid && isRunning(holder) : age < UNREADABLE_LOCK_MS) {
      throw new JournalLockedError(`the journal in ${dir} is in use by process ${holder?.pid ?? '(unknown)'}`, holder?.pid);
    }
    takeOver(lockPath, holder);
  }
  throw new JournalLockedError(`cannot take the lock of the journal in ${dir}`);
}

/** Releases the lock, if this process holds it. */
export function releaseLock(lockPath: string): void {
  try {
    if (parseIdentity(fs().readFileSync(lockPath, 'utf8'))?.pid === process.pid) fs().rmSync(lockPath, { force: true });
  } catch {
    // Already gone.
  }
}

/**
 * Makes the lock file, whole, in one step (written aside, then hard-linked in place); false when one
 * exists. Where hard links are refused, an exclusive create.
 */
function create(lockPath: string, who: ProcessIdentity): boolean {
  const tmp = aside(lockPath, 'tmp');
  fs().writeFileSync(tmp, formatIdentity(who), { flush: true });
  try {
    fs().linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    try {
      fs().writeFileSync(lockPath, formatIdentity(who), { flag: 'wx', flush: true });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    fs().rmSync(tmp, { force: true });
  }
}

/**
 * Removes a lock whose holder is gone. It is renamed aside first (one atomic step), then read: if
 * what was moved names a running process other than the one judged gone (it took the lock between
 * the read and the rename), it is put back. (Three processes starting at that very moment could
 * still both win; one agent per state directory is the rule.)
 */
function takeOver(lockPath: string, judged: ProcessIdentity | undefined): void {
  const stale = aside(lockPath, 'stale');
  try {
    fs().renameSync(lockPath, stale);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const moved = parseIdentity(fs().readFileSync(stale, 'utf8'));
    if (moved && (!judged || !sameHolder(moved, judged)) && moved.pid !== process.pid && isRunning(moved)) {
      try {
        fs().linkSync(stale, lockPath);
      } catch {
        // Someone else made a new lock meanwhile: it stands.
      }
    }
  } finally {
    fs().rmSync(stale, { force: true });
  }
}
