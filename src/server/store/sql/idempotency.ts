// idempotency: the answer each Idempotency-Key of an account was given. This version keeps what the
// answer is made from (an InsertAnswer, as JSON text); keys stored by earlier versions keep the body
// they answered with ('' for none: the column is NOT NULL since version 1).
import type { IntentionRepository } from '../repositories.js';
import { DuplicateError, type IdempotentAnswer, type InsertAnswer } from '../types.js';
import { lock, one, type Exec } from './exec.js';
import { sql } from './statement.js';

interface Row { request_hash: string; status_code: number; body: string; intention_id: number | null; answer: string | null }

/** An answer as JSON text, its times as `{"$date": ms}` so that they come back as times. */
const encode = (answer: InsertAnswer) => JSON.stringify(answer, function (this: Record<string, unknown>, name, value: unknown) {
  const field = this[name];
  return field instanceof Date ? { $date: field.getTime() } : value;
});

const isTime = (v: unknown): v is { $date: number } =>
  typeof v === 'object' && v !== null && typeof (v as { $date?: unknown }).$date === 'number' && Object.keys(v).length === 1;

const decode = (text: string): InsertAnswer => JSON.parse(text, (_name, v: unknown) => (isTime(v) ? new Date(v.$date) : v));

const toAnswer = (r: Row): IdempotentAnswer => ({
  requestHash: r.request_hash, statusCode: r.status_code, intentionId: r.intention_id,
  answer: r.answer === null ? null : decode(r.answer), body: r.body === '' ? null : r.body,
});

export type IdempotencyRepository = Pick<IntentionRepository, 'findIdempotent' | 'saveIdempotent' | 'settleIdempotent' | 'purgeIdempotent'>;

export function idempotency(x: Exec): IdempotencyRepository {
  const where = (accountId: string, key: string) => sql`WHERE user_id = ${accountId} AND key = ${key}`;
  const find = async (accountId: string, key: string) => {
    const r = await one<Row>(x, sql`SELECT request_hash, status_code, body, intention_id, answer FROM idempotency ${where(accountId, key)}`);
    return r && toAnswer(r);
  };
  return {
    async findIdempotent(accountId, key) {
      // Inside a transaction: hold the key until it ends, so a concurrent insert with the same key
      // waits here, then reads the answer this one stores (outside one a lock would end at once).
      if (x.inTransaction) await lock(x, 'idempotency', accountId, key);
      return find(accountId, key);
    },
    async saveIdempotent(accountId, key, a) {
      // DO NOTHING rather than a unique violation: an error would abort an enclosing PostgreSQL
      // transaction; the caller decides what a DuplicateError means.
      const n = await x.run(sql`INSERT INTO idempotency (user_id, key, request_hash, status_code, body, intention_id, answer, created_at)
        VALUES (${accountId}, ${key}, ${a.requestHash}, ${a.statusCode}, '', ${a.intentionId}, ${encode(a.answer)}, ${Date.now()}) ON CONFLICT DO NOTHING`);
      if (n === 0) throw new DuplicateError(`Idempotency-Key ${key} already has an answer`);
    },
    async settleIdempotent(accountId, key, answer) {
      // The first to settle it wins; the others read what it kept (or the body an instance of the
      // earlier version fixed meanwhile, during an upgrade).
      await x.run(sql`UPDATE idempotency SET answer = ${encode(answer)} ${where(accountId, key)} AND answer IS NULL AND body = ''`);
      return (await find(accountId, key))!;
    },
    // A bounded batch (idempotency_created finds it): the oldest first, so each call makes progress.
    purgeIdempotent: (before, limit) => x.run(sql`DELETE FROM idempotency WHERE (user_id, key) IN
      (SELECT user_id, key FROM idempotency WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit})`),
  };
}
