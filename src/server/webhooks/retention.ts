// How long the webhook log is kept: delivered and dead messages, with their attempts, are deleted
// once their last try is older than `keepMs` (30 days by default), in bounded batches, oldest
// first. Without it every event and every retry stayed for ever (one event can be 20 messages ×
// 30 attempts). Pending and held messages are never deleted: they are not done.
import type { Store } from '../store/repositories.js';
import { inBatches, periodic, type BackgroundWorker } from '../workers/worker.js';

export const DEFAULT_KEEP_MS = 30 * 24 * 3600_000;
const BATCH = 1000;
/** Batches per sweep: a large backlog goes over several sweeps, never in one long pause. */
const BATCHES = 20;
const EVERY_MS = 10 * 60_000;

/** Deletes what is past keeping, at most BATCHES × BATCH messages; how many. */
export function purgeWebhookLog(store: Store, now: Date, keepMs = DEFAULT_KEEP_MS): Promise<number> {
  const before = new Date(now.getTime() - keepMs);
  return inBatches((limit) => store.webhooks.purgeMessages(before, limit), BATCH, BATCHES);
}

export function webhookRetention(store: Store, keepMs = DEFAULT_KEEP_MS): BackgroundWorker {
  return periodic('webhook-retention', EVERY_MS, () => purgeWebhookLog(store, new Date(), keepMs));
}
