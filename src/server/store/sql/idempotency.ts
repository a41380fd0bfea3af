// idempotency: the answer each Idempotency-Key of an account was given. This version keeps what the
// answer is made from (an InsertAnswer, as JSON text); keys stored by earlier versions keep the body
// they answered with ('' for none: the column is NOT NULL since version 1).
import type { IntentionRepository } from '../repositories.js';
import { DuplicateError, type IdempotentAnswer, type InsertAnswer } from '../types.js';
import { asTime, Table } from './columns.js';
import { lock, type Exec } from './exec.js';
import { sql } from './statement.js';

/** An answer as JSON text, its times as `{"$date": ms}` so that they come back as times. */
const encode = (answer: InsertAnswer) => JSON.stringify(answer, function (this: Record<string, unknown>, name, value: unknown) {
  const field = this[name];
  return field instanceof Date ? { $date: field.getTime() } : value;
});

const isTime = (v: unknown): v is { $date: number } =>
  typeof v === 'object' && v !== null && typeof (v as { $date?: unknown }).$date === 'number' && Object.keys(v).length === 1;

const decode = (text: string): InsertAnswer => JSON.parse(text, (_name, v: unknown) => (isTime(v) ? new Date(v.$date) : v));

const ANSWER = new Table<IdempotentAnswer>({
  requestHash: 'request_hash', statusCode: 'status_code', intentionId: 'intention_id',
  answer: ['answer', { write: (v) => (v === null ? null : encode(v as InsertAnswer)), read: (v) => (v === null ? null : decode(v as string)) }],
  body: ['body', { write: (v) => v ?? '', read: (v) => (v === '' ? null : v) }],
});
/** …as stored: under its account and key, since when (what the sweep deletes by). */
const KEPT = new Table<IdempotentAnswer & { accountId: string; key: string; createdAt: Date }>({
  ...ANSWER.columns, accountId: 'user_id', key: 'key', createdAt: ['created_at', asTime],
});

export type IdempotencyRepository = Pick<IntentionRepository, 'findIdempotent' | 'saveIdempotent' | 'settleIdempotent' | 'purgeIdempotent'>;

export function idempotency(x: Exec): IdempotencyRepository {
  const where = (accountId: string, key: string) => sql`WHERE user_id = ${accountId} AND key = ${key}`;
  const find = (accountId: string, key: string) => ANSWER.one(x, sql`SELECT ${ANSWER.select()} FROM idempotency ${where(accountId, key)}`);
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
      const n = await x.run(sql`INSERT INTO idempotency ${KEPT.insert({ ...a, body: null, accountId, key, createdAt: new Date() })} ON CONFLICT DO NOTHING`);
      if (n === 0) throw new DuplicateError(`Idempotency-Key ${key} already has an answer`);
    },
    async settleIdempotent(accountId, key, answer) {
      // The first to settle it wins; the others read what it kept (or the body an instance of the
      // earlier version fixed meanwhile, during an upgrade).
      await x.run(sql`UPDATE idempotency SET ${ANSWER.set({ answer })} ${where(accountId, key)} AND answer IS NULL AND body = ''`);
      return (await find(accountId, key))!;
    },
    // A bounded batch (idempotency_created finds it): the oldest first, so each call makes progress.
    purgeIdempotent: (before, limit) => x.run(sql`DELETE FROM idempotency WHERE (user_id, key) IN
      (SELECT user_id, key FROM idempotency WHERE created_at < ${before} ORDER BY created_at LIMIT ${limit})`),
  };
}
