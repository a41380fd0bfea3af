// The webhook sender, a BackgroundWorker: leases due messages from the outbox (a few per receiving
// origin at a time, so a slow receiver holds only its own), posts each signed (a few per address
// at a time, address-gate.ts; its host resolved in its account's turn, dns-gate.ts), and records the attempt and its outcome (answers.ts says which) in
// one transaction. Everything it needs to resume lives in the store: a restart (or a crash, once
// the lease runs out) picks up where it stopped. Secrets never reach the logs.
import type { Store } from '../store/repositories.js';
import type { ClaimedWebhookMessage, WebhookSecret } from '../store/types.js';
import type { BackgroundWorker, WorkerLog } from '../workers/worker.js';
import { AddressGate } from './address-gate.js';
import { judge } from './answers.js';
import type { AddressPolicy } from './address-policy.js';
import { sharedLookups, type LookupGate } from './dns-gate.js';
import { postWebhook, type PostResult } from './post.js';
import { DEFAULT_SCHEDULE, type RetrySchedule } from './retry.js';
import { signatureHeader } from './sign.js';

export interface SenderOptions {
  policy: AddressPolicy;
  /** Per attempt, DNS included (default 10 s). */
  timeoutMs?: number;
  retry?: Partial<RetrySchedule>;
  /** How often the outbox is looked at when nothing woke the sender (default 500 ms). */
  pollMs?: number;
  /** Messages in flight at once, in all (default 64). */
  maxInFlight?: number;
  /**
   * Messages in flight at once to one origin (scheme, host and port), however many endpoints or
   * accounts point there (default 4): a slow receiver holds at most these, and many endpoints on
   * one receiver add nothing.
   */
  perTarget?: number;
  /** Messages in flight at once from this process to one IP address, whatever the names that lead there (default 4). */
  perAddress?: number;
  /**
   * Where hosts are resolved: one lookup per account at a time, each within a deadline (default the
   * process's sharedLookups, which the API routes use too: they share libuv's two lookup threads).
   */
  lookups?: LookupGate;
  /**
   * Messages of one account in flight at once, on every instance (default 16, a quarter of
   * maxInFlight): one account's slow or hanging receivers (any number of them) hold at most these,
   * and the others' messages go on.
   */
  perAccount?: number;
  /** The clock (tests). */
  now?: () => Date;
  /** Told of every attempt once recorded (the metrics): its message's state after it, or `lease-lost` when it could not be recorded. */
  onAttempt?: (outcome: AttemptCount) => void;
}

/** What an attempt came to, as counted: the message's state after it, or its lease lost before it was recorded. */
export type AttemptCount = 'delivered' | 'pending' | 'dead' | 'lease-lost';

export interface WebhookSender extends BackgroundWorker {
  /** Looks at the outbox now (the outbox calls it after writing). */
  wake(): void;
}

/** Only scheme, host and path: a query may carry a partner's token. */
const shown = (address: string) => {
  try {
    const u = new URL(address);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
};

export function webhookSender(store: Store, o: SenderOptions): WebhookSender {
  const timeoutMs = o.timeoutMs ?? 10_000;
  // Longer than a whole attempt can take, so a live sender never loses its lease; after a crash
  // the message is taken again once it runs out.
  const leaseMs = 2 * timeoutMs + 1_000;
  const schedule: RetrySchedule = { ...DEFAULT_SCHEDULE, ...o.retry };
  const pollMs = o.pollMs ?? 500;
  const maxInFlight = o.maxInFlight ?? 64;
  const perTarget = o.perTarget ?? 4;
  const perAccount = o.perAccount ?? 16;
  const gate = new AddressGate(o.perAddress ?? 4);
  const lookups = o.lookups ?? sharedLookups;
  const now = o.now ?? (() => new Date());
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  let log: WorkerLog;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const idle = () => new Promise<void>((resolve) => {
    if (woken) return resolve();
    const timer = setTimeout(resolve, pollMs);
    timer.unref();
    wakeUp = () => {
      clearTimeout(timer);
      resolve();
    };
  });

  async function secretsFor(m: ClaimedWebhookMessage): Promise<WebhookSecret[] | 'gone'> {
    if (m.endpointId) {
      const endpoint = await store.webhooks.getEndpoint(m.accountId, m.endpointId);
      return endpoint ? endpoint.secrets : 'gone';
    }
    // A urlCallback is signed with the account's first endpoint's secrets (README: Webhooks).
    const [first] = await store.webhooks.listEndpoints(m.accountId);
    return first?.secrets ?? [];
  }

  async function deliver(m: ClaimedWebhookMessage): Promise<void> {
    const secrets = await secretsFor(m);
    const at = now();
    let result: PostResult;
    if (secrets === 'gone') {
      result = { statusCode: null, error: 'endpoint removed', latencyMs: 0 };
    } else {
      const timestamp = Math.floor(at.getTime() / 1000);
      const signature = signatureHeader(secrets, m.id, timestamp, m.body, at);
      const headers: Record<string, string> = {
        'content-type': 'application/json', 'user-agent': 'bobina-webhooks/1', 'webhook-id': m.id, 'webhook-timestamp': String(timestamp),
        ...(signature ? { 'webhook-signature': signature } : {}),
      };
      result = await postWebhook(m.url, headers, m.body, o.policy, lookups.for(m.accountId), timeoutMs, stopping.signal, gate);
    }
    const code = result.statusCode;
    // The next try is timed from this one's end: after a 10 s timeout, "5 s later" is 5 s after it.
    const { outcome, disable } = judge(m, { ...result, endpointGone: secrets === 'gone' }, now(), schedule);

    const kept = await store.transaction(async (tx) => {
      const kept = await tx.webhooks.recordAttempt(m, { at, statusCode: code, latencyMs: result.latencyMs, error: result.error }, outcome);
      if (!kept || !m.endpointId) return kept;
      if (disable) await tx.webhooks.setEnabled(m.accountId, m.endpointId, false, 'gone');
      else if (outcome.state === 'dead') await tx.webhooks.setFailing(m.accountId, m.endpointId, at);
      else if (outcome.state === 'delivered') await tx.webhooks.setFailing(m.accountId, m.endpointId, null);
      return kept;
    });
    o.onAttempt?.(kept ? outcome.state : 'lease-lost');
    const fields = { messageId: m.id, endpointId: m.endpointId, url: shown(m.url), statusCode: code, latencyMs: result.latencyMs, error: result.error };
    if (disable) log.warn(fields, 'webhook endpoint answered 410 Gone: disabled');
    else if (outcome.state === 'dead') log.warn(fields, 'webhook message dead: retries exhausted');
    else if (outcome.state === 'pending') log.info({ ...fields, nextAttemptAt: outcome.nextAttemptAt.toISOString() }, 'webhook attempt failed; will retry');
    else log.debug(fields, 'webhook delivered');
  }

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      woken = false;
      let claimed: ClaimedWebhookMessage[] = [];
      const room = maxInFlight - running.size;
      if (room > 0) {
        try {
          const t = now();
          claimed = await store.webhooks.claimDue(t, new Date(t.getTime() + leaseMs), room, perTarget, perAccount);
        } catch (err) {
          log.warn({ err }, 'webhook outbox could not be read');
        }
      }
      for (const m of claimed) {
        const p: Promise<void> = deliver(m)
          .catch((err: unknown) => log.warn({ err, messageId: m.id }, 'webhook attempt could not be recorded'))
          .finally(() => {
            running.delete(p);
            wake();
          });
        running.add(p);
      }
      // Nothing claimable (or no room) until a delivery ends or a message arrives. A claim that took
      // some is followed by another at once: one that stopped at an account's limit left the
      // others' messages for the next (store/sql/webhooks.ts).
      if (claimed.length === 0 || running.size >= maxInFlight) await idle();
    }
  }

  return {
    name: 'webhook-sender',
    wake,
    start(l) {
      log = l;
      loop = run();
    },
    async stop() {
      stopping.abort();
      wake();
      await loop;
      await Promise.all(running);
    },
  };
}
