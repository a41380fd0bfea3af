// intentions: compiled print jobs (bytes + diagnostics) and the Idempotency-Key answers given for them.
import type Database from 'better-sqlite3';
import type { IntentionRepository } from '../repositories.js';
import { DuplicateError, type Intention } from '../types.js';
import type { Sync } from './bind.js';

interface Row {
  id: number; user_id: string; referencia: string | null; conteudo: string; terminal_id: string | null;
  impressora_id: number; codigo_impressora: string; aguardar: number; status: string; bytes: Buffer;
  diagnostics: string; created_at: number; url_callback: string | null;
}
interface IdemRow { request_hash: string; status_code: number; body: string }

const toIntention = (r: Row): Intention => ({
  id: r.id, accountId: r.user_id, referencia: r.referencia, conteudo: r.conteudo, terminalId: r.terminal_id,
  impressoraId: r.impressora_id, codigoImpressora: r.codigo_impressora, aguardarClienteIniciarImpressao: r.aguardar === 1,
  status: r.status, bytes: new Uint8Array(r.bytes), diagnostics: JSON.parse(r.diagnostics), createdAt: new Date(r.created_at), urlCallback: r.url_callback,
});

export function sqliteIntentions(db: Database.Database): Sync<IntentionRepository> {
  const q = {
    insert: db.prepare(`INSERT INTO intentions (user_id, referencia, conteudo, terminal_id, impressora_id, codigo_impressora,
      aguardar, status, bytes, diagnostics, created_at, url_callback) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    one: db.prepare<[number, string], Row>('SELECT * FROM intentions WHERE id = ? AND user_id = ?'),
    idem: db.prepare<[string, string], IdemRow>('SELECT request_hash, status_code, body FROM idempotency WHERE user_id = ? AND key = ?'),
    saveIdem: db.prepare('INSERT INTO idempotency (user_id, key, request_hash, status_code, body, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
  };
  return {
    insert(i) {
      const { lastInsertRowid } = q.insert.run(
        i.accountId, i.referencia, i.conteudo, i.terminalId, i.impressoraId, i.codigoImpressora,
        i.aguardarClienteIniciarImpressao ? 1 : 0, i.status, Buffer.from(i.bytes), JSON.stringify(i.diagnostics), i.createdAt.getTime(), i.urlCallback ?? null,
      );
      return { ...i, id: Number(lastInsertRowid) };
    },
    get(accountId, id) {
      const r = q.one.get(id, accountId);
      return r && toIntention(r);
    },
    findIdempotent(accountId, key) {
      const r = q.idem.get(accountId, key);
      return r && { requestHash: r.request_hash, statusCode: r.status_code, body: r.body };
    },
    saveIdempotent(accountId, key, a) {
      try {
        q.saveIdem.run(accountId, key, a.requestHash, a.statusCode, a.body, Date.now());
      } catch (err) {
        if (String((err as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) throw new DuplicateError(`Idempotency-Key ${key} already has an answer`);
        throw err;
      }
    },
  };
}
