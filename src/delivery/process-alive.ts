// Whether the process that wrote a lock still runs. `kill(pid, 0)` alone is not enough: it succeeds
// for a zombie (a process that died and whose parent has not reaped it yet: about a second under a
// shell, forever under a container's PID 1 that never reaps), and for an unrelated process that got
// the same pid later. So a lock names its holder by pid, start time and boot (Linux's
// /proc/<pid>/stat field 22, and /proc/sys/kernel/random/boot_id); a holder is running when that
// pid exists, is not a zombie, and started when the lock says. Where /proc is missing (macOS, BSD),
// only the pid is known and kill(pid, 0) decides.
import { fs } from './builtins.js';

/** A process, as a lock file names it. */
export interface ProcessIdentity {
  pid: number;
  /** Its start time in clock ticks after boot (Linux); absent where /proc is missing, and in older locks. */
  start?: string;
  /** The boot it started in (Linux's boot_id). */
  boot?: string;
}

function readProc(path: string): string | undefined {
  try {
    return fs().readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A process's state letter and start time from /proc/<pid>/stat, or undefined when it has none. */
function procStat(pid: number): { state: string; start: string } | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // "pid (comm) S ppid …": comm may hold spaces and parentheses, so fields count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}

const hasProc = () => readProc('/proc/self/stat') !== undefined;

/** This process, to write into a lock. */
export function ownIdentity(): ProcessIdentity {
  const stat = procStat(process.pid);
  const boot = readProc('/proc/sys/kernel/random/boot_id')?.trim();
  return { pid: process.pid, ...(stat ? { start: stat.start } : {}), ...(boot ? { boot } : {}) };
}

/**
 * Whether `who` is still running: false for a process that is gone, a zombie (state Z, or X while
 * being reaped), a pid now used by a process that started at another time, or one from another boot.
 */
export function isRunning(who: ProcessIdentity): boolean {
  try {
    process.kill(who.pid, 0);
  } catch (err) {
    // EPERM: it exists, as another user's process.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!hasProc()) return true;
  const stat = procStat(who.pid);
  if (!stat || stat.state === 'Z' || stat.state === 'X') return false;
  if (who.start !== undefined && who.start !== stat.start) return false;
  const boot = readProc('/proc/sys/kernel/random/boot_id')?.trim();
  return who.boot === undefined || boot === undefined || who.boot === boot;
}

/** A lock file's text for `who`: one JSON line. */
export const formatIdentity = (who: ProcessIdentity): string => `${JSON.stringify(who)}\n`;

/**
 * The holder a lock file names: a JSON identity, or a bare pid (locks written before the start time
 * was kept). Undefined for anything else (an empty or torn file names nobody).
 */
export function parseIdentity(text: string): ProcessIdentity | undefined {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t) > 0 ? { pid: Number(t) } : undefined;
  try {
    const v = JSON.parse(t) as Partial<ProcessIdentity>;
    if (!Number.isInteger(v.pid) || v.pid! <= 0) return undefined;
    return { pid: v.pid!, ...(typeof v.start === 'string' ? { start: v.start } : {}), ...(typeof v.boot === 'string' ? { boot: v.boot } : {}) };
  } catch {
    return undefined;
  }
}
