// terminals: an account's points of sale, each linked to a printer template (or none, spec §1.6),
// optionally with a device the service delivers to itself, or taking the account's template jobs.
import type { TerminalRepository } from '../repositories.js';
import type { Terminal } from '../types.js';
import type { Db } from './db.js';

interface Row { user_id: string; terminal_id: string; printer_id: number | null; enabled: boolean; device: string | null; template_jobs: boolean }

// Ordered byte-wise (COLLATE "C"), as SQLite orders text, whatever the database's collation.
const toTerminal = (r: Row): Terminal => ({
  accountId: r.user_id, terminalId: r.terminal_id, printerId: r.printer_id, enabled: r.enabled, device: r.device, templateJobs: r.template_jobs,
});

export function postgresTerminals(db: Db): TerminalRepository {
  return {
    async put(t) {
      // Adds or replaces the whole row, as SQLite's INSERT OR REPLACE does.
      await db.query(`INSERT INTO terminals (user_id, terminal_id, printer_id, enabled, device, template_jobs) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (user_id, terminal_id) DO UPDATE SET printer_id = EXCLUDED.printer_id, enabled = EXCLUDED.enabled,
          device = EXCLUDED.device, template_jobs = EXCLUDED.template_jobs`,
      [t.accountId, t.terminalId, t.printerId, t.enabled, t.device ?? null, t.templateJobs ?? false]);
    },
    async find(accountId, terminalId) {
      const { rows } = await db.query<Row>('SELECT * FROM terminals WHERE user_id = $1 AND terminal_id = $2', [accountId, terminalId]);
      return rows[0] && toTerminal(rows[0]);
    },
    async list(accountId) {
      const { rows } = await db.query<Row>('SELECT * FROM terminals WHERE user_id = $1 ORDER BY terminal_id COLLATE "C"', [accountId]);
      return rows.map(toTerminal);
    },
    async withDevice() {
      const { rows } = await db.query<Row>('SELECT * FROM terminals WHERE device IS NOT NULL AND enabled ORDER BY user_id COLLATE "C", terminal_id COLLATE "C"');
      return rows.map(toTerminal);
    },
    async hasTemplateRoute(accountId, printerId) {
      const { rowCount } = await db.query(
        'SELECT 1 FROM terminals WHERE user_id = $1 AND enabled AND template_jobs AND (printer_id IS NULL OR printer_id = $2) LIMIT 1', [accountId, printerId]);
      return rowCount > 0;
    },
  };
}
