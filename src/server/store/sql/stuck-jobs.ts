// Stuck jobs: a job waiting in the queue, or leased without progress, for longer than its account
// allows (users.stuck_after_ms, else the service's default), found by the stuck-job sweep and
// announced once per state it is stuck in: stuck_jobs keeps the history row last announced, and
// one guarded upsert claims each announcement, so several instances send one event.
import type { IntentionRepository } from '../repositories.js';
import type { JobState, StuckJob } from '../types.js';
import type { Exec } from './exec.js';
import { list, sql } from './statement.js';

interface Row { user_id: string; id: number; terminal_id: string | null; referencia: unknown; estado: JobState; seq: number; at: number; threshold: number }

export type StuckJobRepository = Pick<IntentionRepository, 'stuck' | 'markStuck'>;

export function stuckJobs(x: Exec): StuckJobRepository {
  const d = x.dialect;
  return {
    async stuck(states, now, defaultMs, limit) {
      // The job's last history row (ignored reports are not changes) says since when it is in this state.
      const threshold = sql`COALESCE(u.stuck_after_ms, CAST(${defaultMs} AS BIGINT))`;
      const rows = await x.all<Row>(sql`SELECT i.user_id, i.id, i.terminal_id, i.referencia, i.estado, h.seq, h.at, ${threshold} AS threshold
        FROM intentions i JOIN users u ON u.id = i.user_id
        JOIN job_history h ON h.intention_id = i.id
          AND h.seq = (SELECT MAX(l.seq) FROM job_history l WHERE l.intention_id = i.id AND l.evento <> 'ignored-report')
        LEFT JOIN stuck_jobs s ON s.intention_id = i.id
        WHERE i.estado IN ${list(states)} AND h.at <= CAST(${now} AS BIGINT) - ${threshold} AND (s.seq IS NULL OR s.seq <> h.seq)
        ORDER BY i.id LIMIT ${limit}`);
      return rows.map((r): StuckJob => ({
        accountId: r.user_id, id: Number(r.id), terminalId: r.terminal_id, referencia: d.text(r.referencia), estado: r.estado,
        seq: r.seq, since: new Date(Number(r.at)), thresholdMs: Number(r.threshold),
      }));
    },
    async markStuck(id, seq) {
      return (await x.run(sql`INSERT INTO stuck_jobs (intention_id, seq) VALUES (${id}, ${seq})
        ON CONFLICT (intention_id) DO UPDATE SET seq = excluded.seq WHERE stuck_jobs.seq <> excluded.seq`)) === 1;
    },
  };
}
