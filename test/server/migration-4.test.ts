// Migration 4 on a database made before delivery: intentions keep their status and get the matching
// state, a first history row and an expiry a day after they were made; terminals keep their printer.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_MIGRATIONS } from '../../src/server/store/sqlite-migrations.js';
import { migrate } from '../../src/server/store/sqlite/migrate.js';
import { openSqliteStore } from '../../src/server/store/sqlite.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('migration 4', () => {
  it('gives intentions made before delivery a state, a history row and an expiry, and keeps terminals', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bobina-m4-'));
    const file = join(dir, 'db.sqlite');
    const old = new Database(file);
    migrate(old, SQLITE_MIGRATIONS.filter((m) => m.version < 4));
    old.prepare("INSERT INTO users VALUES ('u1', 'a@x.com', 'A', 'h', '[]', '[]', 0)").run();
    old.prepare("INSERT INTO terminals VALUES ('u1', 'PDV', 5, 1)").run();
    const add = old.prepare(`INSERT INTO intentions (user_id, referencia, conteudo, terminal_id, impressora_id, codigo_impressora, aguardar, status, bytes, diagnostics, created_at)
      VALUES ('u1', NULL, 'x', 'PDV', ?, ?, 0, ?, x'1b40', '[]', 1000)`);
    add.run(0, 'GENERICA', 'Impresso');
    add.run(5, 'MAKER5T20', 'ImpressaoEnviada');
    old.close();

    const store = openSqliteStore(file);
    try {
      const printed = (await store.intentions.get('u1', 1))!;
      const waiting = (await store.intentions.get('u1', 2))!;
      expect(printed).toMatchObject({ status: 'Impresso', estado: 'completed', confirmacao: 'none', tentativas: 0, motivos: [] });
      expect(waiting).toMatchObject({ status: 'ImpressaoEnviada', estado: 'queued', expiresAt: new Date(1000 + 86_400_000) });
      expect(await store.intentions.history('u1', 2)).toEqual([
        { seq: 1, estado: 'queued', evento: 'insert', motivos: [], origem: 'server', detalhe: null, at: new Date(1000) },
      ]);
      expect(await store.terminals.find('u1', 'PDV')).toEqual({ accountId: 'u1', terminalId: 'PDV', printerId: 5, enabled: true, device: null, templateJobs: false });
    } finally {
      await store.close();
    }
  });
});
