// login_attempts: failed-login counters in fixed windows, one row per (hashed) key, each counted
// by a single upsert so concurrent attempts, in this process or another, never lose a count.
import type Database from 'better-sqlite3';
import type { LoginAttemptRepository } from '../repositories.js';
import type { AttemptCounter } from '../types.js';
import type { Sync } from './bind.js';

export function sqliteLoginAttempts(db: Database.Database): Sync<LoginAttemptRepository> {
  const q = {
    // A window that has ended starts again at now with one failure; otherwise one more in it.
    hit: db.prepare<{ key: string; now: number; since: number }, { failures: number; window_start: number }>(`
      INSERT INTO login_attempts (key, failures, window_start) VALUES (@key, 1, @now)
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN window_start <= @since THEN 1 ELSE failures + 1 END,
        window_start = CASE WHEN window_start <= @since THEN @now ELSE window_start END
      RETURNING failures, window_start`),
    unhit: db.prepare('UPDATE login_attempts SET failures = max(failures - 1, 0) WHERE key = ? AND window_start = ?'),
    clear: db.prepare('DELETE FROM login_attempts WHERE key = ?'),
    purge: db.prepare('DELETE FROM login_attempts WHERE window_start < ?'),
  };
  return {
    hit(keys, now, windowMs) {
      return keys.map((key): AttemptCounter => {
        const r = q.hit.get({ key, now: now.getTime(), since: now.getTime() - windowMs })!;
        return { key, failures: r.failures, windowStart: new Date(r.window_start) };
      });
    },
    unhit(counters) {
      for (const c of counters) q.unhit.run(c.key, c.windowStart.getTime());
    },
    clear(keys) {
      for (const key of keys) q.clear.run(key);
    },
    purge: (before) => q.purge.run(before.getTime()).changes,
  };
}
