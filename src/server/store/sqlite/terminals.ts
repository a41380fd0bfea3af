// terminals: an account's points of sale, each linked to a printer template.
import type Database from 'better-sqlite3';
import type { TerminalRepository } from '../repositories.js';
import type { Terminal } from '../types.js';
import type { Sync } from './bind.js';

interface Row { user_id: string; terminal_id: string; printer_id: number; enabled: number }

const toTerminal = (r: Row): Terminal => ({ accountId: r.user_id, terminalId: r.terminal_id, printerId: r.printer_id, enabled: r.enabled === 1 });

export function sqliteTerminals(db: Database.Database): Sync<TerminalRepository> {
  const q = {
    put: db.prepare('INSERT OR REPLACE INTO terminals (user_id, terminal_id, printer_id, enabled) VALUES (?, ?, ?, ?)'),
    one: db.prepare<[string, string], Row>('SELECT * FROM terminals WHERE user_id = ? AND terminal_id = ?'),
    all: db.prepare<[string], Row>('SELECT * FROM terminals WHERE user_id = ? ORDER BY terminal_id'),
  };
  return {
    put(t) {
      q.put.run(t.accountId, t.terminalId, t.printerId, t.enabled ? 1 : 0);
    },
    find(accountId, terminalId) {
      const r = q.one.get(accountId, terminalId);
      return r && toTerminal(r);
    },
    list: (accountId) => q.all.all(accountId).map(toTerminal),
  };
}
