// terminals: an account's points of sale, each linked to a printer template (or none, spec §1.6),
// optionally with a device the service delivers to itself, or taking the account's template jobs;
// their health (last contact, printer status) is terminal-health.ts's.
import type { TerminalRepository } from '../repositories.js';
import type { Terminal } from '../types.js';
import type { Dialect } from './dialect.js';
import { one, type Exec } from './exec.js';
import { sql, type Sql } from './statement.js';
import { terminalHealth } from './terminal-health.js';

interface Row { user_id: string; terminal_id: string; printer_id: number | null; enabled: unknown; device: string | null; template_jobs: unknown }

const toTerminal = (d: Dialect, r: Row): Terminal => ({
  accountId: r.user_id, terminalId: r.terminal_id, printerId: r.printer_id, enabled: d.flag(r.enabled), device: r.device, templateJobs: d.flag(r.template_jobs),
});

export function terminals(x: Exec): TerminalRepository {
  const d = x.dialect;
  const all = async (statement: Sql) => (await x.all<Row>(statement)).map((r) => toTerminal(d, r));
  return {
    async put(t) {
      // Adds or replaces the whole row.
      await x.run(sql`INSERT INTO terminals (user_id, terminal_id, printer_id, enabled, device, template_jobs)
        VALUES (${t.accountId}, ${t.terminalId}, ${t.printerId}, ${t.enabled}, ${t.device ?? null}, ${t.templateJobs ?? false})
        ON CONFLICT (user_id, terminal_id) DO UPDATE SET printer_id = excluded.printer_id, enabled = excluded.enabled,
          device = excluded.device, template_jobs = excluded.template_jobs`);
    },
    async find(accountId, terminalId) {
      const r = await one<Row>(x, sql`SELECT * FROM terminals WHERE user_id = ${accountId} AND terminal_id = ${terminalId}`);
      return r && toTerminal(d, r);
    },
    list: (accountId) => all(sql`SELECT * FROM terminals WHERE user_id = ${accountId} ORDER BY terminal_id${d.bytewise}`),
    withDevice: () => all(sql`SELECT * FROM terminals WHERE device IS NOT NULL AND enabled ORDER BY user_id${d.bytewise}, terminal_id${d.bytewise}`),
    async hasTemplateRoute(accountId, printerId) {
      return (await one(x, sql`SELECT 1 AS found FROM terminals WHERE user_id = ${accountId} AND enabled AND template_jobs
        AND (printer_id IS NULL OR printer_id = ${printerId}) LIMIT 1`)) !== undefined;
    },
    ...terminalHealth(x),
  };
}
