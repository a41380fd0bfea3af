// login_attempts: failed-login counters in fixed windows, one row per (hashed) key, each counted
// by a single upsert, so every instance on the same database counts into the same row.
import type { LoginAttemptRepository } from '../repositories.js';
import type { AttemptCounter } from '../types.js';
import type { Db } from './db.js';

// A window that has ended starts again at now with one failure; otherwise one more in it.
const HIT = `
  INSERT INTO login_attempts AS l (key, failures, window_start) VALUES ($1, 1, $2)
  ON CONFLICT (key) DO UPDATE SET
    failures = CASE WHEN l.window_start <= $3 THEN 1 ELSE l.failures + 1 END,
    window_start = CASE WHEN l.window_start <= $3 THEN $2 ELSE l.window_start END
  RETURNING failures, window_start`;

export function postgresLoginAttempts(db: Db): LoginAttemptRepository {
  return {
    async hit(keys, now, windowMs) {
      const counters: AttemptCounter[] = [];
      for (const key of keys) {
        const { rows } = await db.query<{ failures: number; window_start: number }>(HIT, [key, now.getTime(), now.getTime() - windowMs]);
        counters.push({ key, failures: rows[0]!.failures, windowStart: new Date(rows[0]!.window_start) });
      }
      return counters;
    },
    async unhit(counters) {
      for (const c of counters) await db.query('UPDATE login_attempts SET failures = GREATEST(failures - 1, 0) WHERE key = $1 AND window_start = $2', [c.key, c.windowStart.getTime()]);
    },
    async clear(keys) {
      if (keys.length > 0) await db.query('DELETE FROM login_attempts WHERE key = ANY($1::text[])', [[...keys]]);
    },
    async purge(before) {
      return (await db.query('DELETE FROM login_attempts WHERE window_start < $1', [before.getTime()])).rowCount;
    },
  };
}
