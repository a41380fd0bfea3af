// Records a compiled print intention in one transaction with its Idempotency-Key answer (and,
// with delivery, its first history row): either all of it is committed or none.
import { ignoreJobEvents, type JobEventSink } from '../jobs/events.js';
import type { Store } from '../store/repositories.js';
import type { IdempotentAnswer, Intention, NewIntention } from '../store/types.js';

export interface IdempotencyRequest {
  key: string;
  requestHash: string;
  statusCode: number;
}

/** A new intention (with the answer stored for its key, if one was given), or the answer already stored for the key. */
export type Recorded = { intention: Intention; answer?: IdempotentAnswer } | { replay: IdempotentAnswer };

/**
 * `serialise` is the route's: it builds the response body once the intention has its id. With an
 * Idempotency-Key that body is stored in the same transaction, and the route sends those exact
 * bytes, so the first answer and every replay are identical.
 */
export function recordIntention(
  store: Store,
  draft: NewIntention,
  idempotency: IdempotencyRequest | undefined,
  serialise: (intention: Intention) => string,
  events: JobEventSink = ignoreJobEvents,
): Promise<Recorded> {
  return store.transaction(async (tx) => {
    if (idempotency) {
      // Checked again inside the transaction: two concurrent requests with one key insert once.
      const prior = await tx.intentions.findIdempotent(draft.accountId, idempotency.key);
      if (prior) return { replay: prior };
    }
    const intention = await tx.intentions.insert(draft);
    // The one final state reached at insert today (a generic printer without waiting for the
    // client: printed on the spot); its notice commits with the intention (webhooks/outbox.ts).
    if (intention.status === 'Impresso') {
      await events(tx, {
        accountId: intention.accountId, intencaoImpressaoId: intention.id, referencia: intention.referencia, status: intention.status,
        estado: 'completed', motivos: [], confirmacao: 'none', sequence: 1, at: intention.createdAt, urlCallback: intention.urlCallback ?? null,
      });
    }
    if (!idempotency) return { intention };
    const answer = { requestHash: idempotency.requestHash, statusCode: idempotency.statusCode, body: serialise(intention) };
    await tx.intentions.saveIdempotent(draft.accountId, idempotency.key, answer);
    return { intention, answer };
  });
}
