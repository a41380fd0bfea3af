// login_attempts: failed-login counters in fixed windows, one row per (hashed) key, each counted
// by a single upsert, so concurrent attempts (in this process, another, or another instance on the
// same database) never lose a count.
import type { LoginAttemptRepository } from '../repositories.js';
import type { AttemptCounter } from '../types.js';
import { one, type Exec } from './exec.js';
import { list, sql } from './statement.js';

export function loginAttempts(x: Exec): LoginAttemptRepository {
  return {
    async hit(keys, now, windowMs) {
      const since = now.getTime() - windowMs;
      const counters: AttemptCounter[] = [];
      for (const key of keys) {
        // A window that has ended starts again at now with one failure; otherwise one more in it.
        const r = await one<{ failures: number; window_start: number }>(x, sql`INSERT INTO login_attempts AS l (key, failures, window_start)
          VALUES (${key}, 1, ${now}) ON CONFLICT (key) DO UPDATE SET
            failures = CASE WHEN l.window_start <= ${since} THEN 1 ELSE l.failures + 1 END,
            window_start = CASE WHEN l.window_start <= ${since} THEN ${now} ELSE l.window_start END
          RETURNING failures, window_start`);
        counters.push({ key, failures: r!.failures, windowStart: new Date(r!.window_start) });
      }
      return counters;
    },
    async unhit(counters) {
      for (const c of counters) {
        await x.run(sql`UPDATE login_attempts SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END
          WHERE key = ${c.key} AND window_start = ${c.windowStart}`);
      }
    },
    async clear(keys) {
      if (keys.length > 0) await x.run(sql`DELETE FROM login_attempts WHERE key IN ${list(keys)}`);
    },
    purge: (before) => x.run(sql`DELETE FROM login_attempts WHERE window_start < ${before}`),
  };
}
