// Wake-ups from other processes on one SQLite file (`bobina jobs start` from the CLI, a second
// process serving the same file): SQLite sends no messages between processes, so the serving
// connection asks `PRAGMA data_version` (it moves when another connection commits, and when the
// checkpointer's TRUNCATE resets the WAL) every `everyMs`, and tells subscribers it moved; they look
// for what was queued (jobs/context.ts). This process's own commits never move it: they wake their
// waiters in process.
import type { StoreSignals } from '../repositories.js';

export interface SqliteSignals extends StoreSignals {
  close(): void;
}

/** `version` reads PRAGMA data_version on the serving connection; undefined once the store is closed. */
export function sqliteSignals(version: () => Promise<number | undefined>, everyMs = 250): SqliteSignals {
  const subscribers = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  let seen: number | undefined;
  let closed = false;

  const tick = async () => {
    timer = undefined;
    try {
      const v = await version();
      if (v === undefined) return;
      if (seen !== undefined && v !== seen) for (const s of subscribers) s();
      seen = v;
    } catch {
      // The next tick asks again: a missed one delays a wake-up by a tick, never loses it (the version stays moved).
    }
    schedule();
  };
  const schedule = () => {
    if (closed || subscribers.size === 0 || timer) return;
    timer = setTimeout(() => void tick(), everyMs);
    // Never keeps the process alive on its own.
    timer.unref();
  };

  return {
    // Nothing to send: another process sees the commit itself.
    publish: async () => undefined,
    subscribe(_onTopic, _onGap, onChange) {
      if (!onChange) return () => undefined;
      subscribers.add(onChange);
      // The first look only notes the version: what was queued before is found by the waiters' own first look.
      if (seen === undefined) void version().then((v) => { seen ??= v; }, () => undefined);
      schedule();
      return () => void subscribers.delete(onChange);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      subscribers.clear();
    },
  };
}
