// terminals: an account's points of sale, each linked to a printer template (or none, spec §1.6),
// optionally with a device the service delivers to itself, or taking the account's template jobs;
// their health (last contact, printer status) is terminal-health.ts's.
import type { TerminalRepository } from '../repositories.js';
import type { Terminal } from '../types.js';
import { asFlag, Table } from './columns.js';
import { one, type Exec } from './exec.js';
import { sql } from './statement.js';
import { terminalHealth } from './terminal-health.js';

const TERMINAL = new Table<Terminal>({
  accountId: 'user_id', terminalId: 'terminal_id', printerId: 'printer_id', enabled: ['enabled', asFlag], device: 'device', templateJobs: ['template_jobs', asFlag],
});

export function terminals(x: Exec): TerminalRepository {
  const d = x.dialect;
  return {
    async put(t) {
      // Adds or replaces the whole row.
      await x.run(sql`INSERT INTO terminals ${TERMINAL.insert({ ...t, device: t.device ?? null, templateJobs: t.templateJobs ?? false })}
        ON CONFLICT (user_id, terminal_id) DO UPDATE SET printer_id = excluded.printer_id, enabled = excluded.enabled,
          device = excluded.device, template_jobs = excluded.template_jobs`);
    },
    find: (accountId, terminalId) => TERMINAL.one(x, sql`SELECT * FROM terminals WHERE user_id = ${accountId} AND terminal_id = ${terminalId}`),
    list: (accountId) => TERMINAL.all(x, sql`SELECT * FROM terminals WHERE user_id = ${accountId} ORDER BY terminal_id${d.bytewise}`),
    withDevice: () => TERMINAL.all(x, sql`SELECT * FROM terminals WHERE device IS NOT NULL AND enabled ORDER BY user_id${d.bytewise}, terminal_id${d.bytewise}`),
    async hasTemplateRoute(accountId, printerId) {
      return (await one(x, sql`SELECT 1 AS found FROM terminals WHERE user_id = ${accountId} AND enabled AND template_jobs
        AND (printer_id IS NULL OR printer_id = ${printerId}) LIMIT 1`)) !== undefined;
    },
    ...terminalHealth(x),
  };
}
