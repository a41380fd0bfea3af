// Migration 5 (webhooks) stands on its own: it applies without delivery's 4, the runner takes the
// gap in the numbers, and 4 is still applied once afterwards. Also: the webhook routes are in the
// OpenAPI document, and Insert's idempotency hash is unchanged when no urlCallback is given.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/server/store/sqlite/migrate.js';
import { SQLITE_MIGRATIONS } from '../../src/server/store/sqlite-migrations.js';
import { harness } from './helpers.js';

describe('migration 5', () => {
  // Written beside delivery's 4 on separate branches: the runner must take a gap in the numbers
  // and apply a lower number that arrives later, once.
  it('applies with 4 missing, and a 4 that arrives later is applied once', () => {
    const db = new Database(':memory:');
    // Only up to 5: later ones may stand on 4 (10's list indexes are on its estado column).
    migrate(db, SQLITE_MIGRATIONS.filter((m) => m.version !== 4 && m.version <= 5));
    const versions = () => db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions()).not.toContain(4);
    expect(versions()).toContain(5);
    migrate(db);
    migrate(db);
    expect(versions()).toEqual(SQLITE_MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'job_history'").pluck().get()).toBe(1);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE 'webhook_%' AND type = 'table'").pluck().get()).toBe(3);
    db.close();
  });
});

describe('the OpenAPI document', { timeout: 30_000 }, () => {
  it('lists the webhook routes and Insert\'s urlCallback', async () => {
    const h = await harness();
    try {
      const doc = (await h.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown>; };
      for (const path of ['/Webhook/Insert', '/Webhook/GetAll', '/Webhook/Remove', '/Webhook/RotateSecret', '/Webhook/GetLog', '/Webhook/Replay']) {
        expect(Object.keys(doc.paths)).toContain(path);
      }
      expect(JSON.stringify(doc.paths['/IntencaoImpressao/Insert'])).toContain('urlCallback');
    } finally {
      await h.close();
    }
  });
});

describe('Insert\'s Idempotency-Key hash', () => {
  it('is what it was before urlCallback existed when none is given, and differs when one is', async () => {
    const { insertRequestHash } = await import('../../src/server/routes/insert-request.js');
    const { sha256 } = await import('../../src/server/auth/secrets.js');
    const body = { conteudo: 'x', terminalId: 'PDV-1' };
    const before = sha256(JSON.stringify([['referencia', null], ['conteudo', 'x'], ['terminalId', 'PDV-1'], ['impressoraId', null], ['codigoImpressora', null], ['aguardarClienteIniciarImpressao', null]]));
    expect(insertRequestHash(body)).toBe(before);
    expect(insertRequestHash({ ...body, urlCallback: null })).toBe(before);
    expect(insertRequestHash({ ...body, urlCallback: 'https://example.com/cb' })).not.toBe(before);
  });
});
