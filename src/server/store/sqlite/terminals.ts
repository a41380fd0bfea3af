// terminals: an account's points of sale, each linked to a printer template (or none, spec §1.6),
// optionally with a device the service delivers to itself, or taking the account's template jobs.
import type Database from 'better-sqlite3';
import type { TerminalRepository } from '../repositories.js';
import type { Terminal } from '../types.js';
import type { Sync } from './bind.js';

interface Row { user_id: string; terminal_id: string; printer_id: number | null; enabled: number; device: string | null; template_jobs: number }

const toTerminal = (r: Row): Terminal => ({
  accountId: r.user_id, terminalId: r.terminal_id, printerId: r.printer_id, enabled: r.enabled === 1, device: r.device, templateJobs: r.template_jobs === 1,
});

export function sqliteTerminals(db: Database.Database): Sync<TerminalRepository> {
  const q = {
    put: db.prepare('INSERT OR REPLACE INTO terminals (user_id, terminal_id, printer_id, enabled, device, template_jobs) VALUES (?, ?, ?, ?, ?, ?)'),
    one: db.prepare<[string, string], Row>('SELECT * FROM terminals WHERE user_id = ? AND terminal_id = ?'),
    all: db.prepare<[string], Row>('SELECT * FROM terminals WHERE user_id = ? ORDER BY terminal_id'),
    withDevice: db.prepare<[], Row>('SELECT * FROM terminals WHERE device IS NOT NULL AND enabled = 1 ORDER BY user_id, terminal_id'),
    templateRoute: db.prepare<[string, number], number>(
      'SELECT 1 FROM terminals WHERE user_id = ? AND enabled = 1 AND template_jobs = 1 AND (printer_id IS NULL OR printer_id = ?) LIMIT 1',
    ).pluck(),
  };
  return {
    put(t) {
      q.put.run(t.accountId, t.terminalId, t.printerId, t.enabled ? 1 : 0, t.device ?? null, t.templateJobs ? 1 : 0);
    },
    find(accountId, terminalId) {
      const r = q.one.get(accountId, terminalId);
      return r && toTerminal(r);
    },
    list: (accountId) => q.all.all(accountId).map(toTerminal),
    withDevice: () => q.withDevice.all().map(toTerminal),
    hasTemplateRoute: (accountId, printerId) => q.templateRoute.get(accountId, printerId) !== undefined,
  };
}
