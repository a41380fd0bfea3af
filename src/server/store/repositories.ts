// The store interface: one repository per aggregate, every method async, and transaction(fn)
// handing fn the same repositories bound to one transaction, so a state change, its history row and
// its outbox row commit together. The repositories are written once (sql/), for SQLite and
// PostgreSQL alike; each backend adds only its dialect (sqlite/dialect.ts, postgres/dialect.ts).
//
// Rules every backend and every caller keep:
// - Repositories take and return domain values (types.ts); they never build HTTP answers.
// - Every read of partner data is scoped to an account id; nothing is found by id alone.
// - Inside transaction(fn), use only the repositories fn receives, and await nothing but their
//   calls (no scrypt, no fetch, no timers): on SQLite the transaction holds the one connection,
//   and every other request waits until it ends. Using the store's own repositories inside fn
//   is refused (it would wait for the transaction that is waiting for it).
// - A change that depends on current state is one statement guarded by that state
//   (`UPDATE … WHERE id = ? AND state = ? RETURNING …`), never a read then a write in code. So a
//   claim — lease one job to one client — is a single statement: on SQLite
//   `UPDATE jobs SET state = 'acquired', … WHERE id = (SELECT id FROM jobs WHERE … AND state =
//   'queued' ORDER BY id LIMIT 1) RETURNING *`; on PostgreSQL the same with `FOR UPDATE SKIP
//   LOCKED` in the subquery. LoginAttemptRepository.hit is written that way today.
import type { TagSet } from '../../index.js';
import type { BackgroundWorker } from '../workers/worker.js';
import type {
  Account, ApiKey, AttemptCounter, ContactChange, FleetCounts, StuckJob, TerminalContact, TerminalHealth, HealthFilter, WentOffline, AttemptOutcome, ClaimedWebhookMessage, ClaimRoute, HistoryEntry, IdempotentAnswer, InsertAnswer, Intention, IntentionSummary, JobFilter, JobPatch, JobRef, LeaseGuard,
  JobState, NewAccount, NewApiKey, NewIdempotentAnswer, NewIntention, NewWebhookEndpoint, NewWebhookMessage, Principal, RefreshTaken, SessionLimits, Terminal, TerminalKey, TokenPair, WebhookAttempt,
  WebhookEndpoint, WebhookMessage,
} from './types.js';
import type { EndpointRefusal } from './webhook-rows.js';

export interface AccountRepository {
  /** Adds an account; throws DuplicateError when the e-mail (compared case-insensitively) is taken. */
  create(account: NewAccount): Promise<Account>;
  findByEmail(email: string): Promise<Account | undefined>;
  findById(id: string): Promise<Account | undefined>;
  /** Every account, oldest first. */
  list(): Promise<Account[]>;
  /** Replaces the password hash; false when there is no such account. */
  setPasswordHash(id: string, passwordHash: string): Promise<boolean>;
  /** Sets which tags are commands in the account's Inserts; false when there is no such account. */
  setTags(id: string, tags: TagSet): Promise<boolean>;
  /** Sets how long a job may wait before it is announced stuck (null: the service's default); false when there is no such account. */
  setStuckAfter(id: string, ms: number | null): Promise<boolean>;
}

export interface TerminalRepository {
  /** Adds or replaces the terminal `terminalId` of an account. */
  put(terminal: Terminal): Promise<void>;
  find(accountId: string, terminalId: string): Promise<Terminal | undefined>;
  list(accountId: string): Promise<Terminal[]>;
  /** Every enabled terminal with a device address, of every account (the service delivers to them). */
  withDevice(): Promise<Terminal[]>;
  /** Whether the account has an enabled terminal taking template jobs for this template (or any). */
  hasTemplateRoute(accountId: string, printerId: number): Promise<boolean>;
  /** The fleet view of an account's terminals (or one of them; of every account without `accountId`), by account and terminal id, a page at a time with `limit`. */
  health(filter?: HealthFilter): Promise<TerminalHealth[]>;
  /**
   * One guarded statement: records a contact that changes nothing announced (the terminal is online
   * already, its printer's reasons are the same as stored); false when it does (then recordContact).
   */
  touchContact(contact: TerminalContact): Promise<boolean>;
  /** touchContact for several terminals' contacts (one each), applied together: those it did not record (then recordContact). */
  touchContacts(contacts: readonly TerminalContact[]): Promise<TerminalContact[]>;
  /**
   * Records a contact from a terminal's client (last seen, version, the printer's state), and says
   * what changed that is announced: it came online, its printer's reasons changed. Atomic under the
   * terminal's row lock, so each change is seen by one contact.
   */
  recordContact(contact: TerminalContact): Promise<ContactChange>;
  /** One guarded statement: terminals announced online whose last contact is at or before `cutoff` are now offline (at most `limit`); those. */
  markOffline(cutoff: Date, limit: number): Promise<WentOffline[]>;
  /** Enabled terminals online and offline at `now` (silent for `offlineAfterMs`, default 35 s: offline), and the online ones' printers by reason. */
  fleetCounts(now: Date, offlineAfterMs?: number): Promise<FleetCounts>;
}

/** API keys, access and refresh tokens (terminal keys join them with the delivery work); only hashes are stored. */
export interface CredentialRepository {
  /** Who presents the secret with this sha256 hash (an unexpired access token or an API key), if anyone. */
  authenticate(secretHash: string, now: Date): Promise<Principal | undefined>;
  createApiKey(key: NewApiKey): Promise<ApiKey>;
  /** An account's API keys, oldest first. */
  listApiKeys(accountId: string): Promise<ApiKey[]>;
  /** Deletes one of the account's API keys; false when it has no key with that id. */
  revokeApiKey(accountId: string, id: string): Promise<boolean>;
  /**
   * Stores a new access/refresh pair (a password login's starts a family; a rotation's is in its
   * family) and, in the same write, keeps the account within `limits`: every other family past the
   * `limits.sessions - 1` used most recently (by their last login or refresh) is revoked, its access
   * and refresh tokens deleted, and of the pair's family only the newest `limits.tokensPerSession`
   * access tokens and used refresh tokens are kept. A rotation within the limits revokes nothing.
   */
  storeTokens(accountId: string, tokens: TokenPair, limits: SessionLimits): Promise<void>;
  /**
   * Uses up an unexpired refresh token (it never works again, and is kept until it expires): its
   * account and family. A token already used is a reuse: every access and refresh token of its
   * family is revoked, and the answer is `reused`. Undefined for a token never issued (or expired
   * before use). `newFamily` names the family of a token issued before families were kept.
   */
  takeRefreshToken(refreshHash: string, now: Date, newFamily: string): Promise<RefreshTaken | undefined>;
  /** Revokes every access and refresh token of an account (its API keys stay); how many. */
  revokeTokens(accountId: string): Promise<number>;
  /** Deletes access and refresh tokens expired at `now`; how many. */
  purgeExpired(now: Date): Promise<number>;
  /** Replaces a terminal's key (every earlier one stops working). */
  setTerminalKey(accountId: string, terminalId: string, keyHash: string, prefix: string): Promise<TerminalKey>;
}

/**
 * Print intentions are the jobs: their state changes only through jobs/lifecycle.ts, which calls
 * `update`/`claim` with the states its table allows and appends the history row in the same transaction.
 */
export interface IntentionRepository {
  insert(intention: NewIntention): Promise<Intention>;
  get(accountId: string, id: number): Promise<Intention | undefined>;
  /** The job's history rows, oldest first. */
  history(accountId: string, id: number): Promise<HistoryEntry[]>;
  /** Appends a history row numbered one past the job's last; returns it. */
  appendHistory(id: number, entry: Omit<HistoryEntry, 'seq'>): Promise<HistoryEntry>;
  /** The same, also saying the state of the job's row before this one (null for its first): what the job changed from. */
  appendTransition(id: number, entry: Omit<HistoryEntry, 'seq'>): Promise<{ entry: HistoryEntry; before: JobState | null }>;
  /**
   * One guarded statement: applies `patch` if the job is in one of `from` (and, when `guard` is
   * given, still holds that delivery token, and its lease ran out before `guard.expiredBy`). The job
   * after the change, or undefined if it did not apply.
   */
  update(ref: JobRef, from: readonly JobState[], patch: JobPatch, guard?: string | LeaseGuard): Promise<Intention | undefined>;
  /**
   * One guarded statement: the lease of a job in one of `from`, held by terminal `leasedTo` with
   * delivery token `token`, now runs until `until` (nothing else changes). False if it is not held so.
   */
  renewLease(ref: JobRef, from: readonly JobState[], lease: { token: string; leasedTo: string }, until: Date): Promise<boolean>;
  /**
   * One guarded statement: leases the oldest job in one of `from` that `route` may take, unless the
   * terminal has a job stopped for its printer (those go first when it clears, keeping insert order).
   */
  claim(route: ClaimRoute, from: readonly JobState[], patch: JobPatch): Promise<Intention | undefined>;
  /**
   * The route's own terminal's jobs in one of `states` compiled for another template than
   * `route.printerId` (none when the terminal has no printer), oldest first, at most `limit`.
   */
  mismatched(route: ClaimRoute, states: readonly JobState[], limit: number): Promise<(JobRef & { codigoImpressora: string })[]>;
  /** Every queue holding a job in one of `states`: a terminal's own (`terminalId`), or its account's jobs without a terminal (null). */
  queuedQueues(states: readonly JobState[]): Promise<{ accountId: string; terminalId: string | null }[]>;
  /** Whether `route` may take (or holds) any job in one of `states`: one indexed read, no lock (a poll's look before it claims). */
  anyFor(route: ClaimRoute, states: readonly JobState[]): Promise<boolean>;
  /**
   * How many of the jobs `route` may take in one of `states` are leased to its terminal and wait for
   * its printer, not for a person (jobs/lifecycle.ts's WAITS_FOR_PERSON): the stopped jobs Retomar would queue again.
   */
  countHolding(route: ClaimRoute, states: readonly JobState[]): Promise<number>;
  /** The jobs `route` may take (or holds) in one of `states`, oldest first. */
  listForRoute(route: ClaimRoute, states: readonly JobState[]): Promise<Intention[]>;
  /** The same, without content, bytes or diagnostics: at most `limit`, with ids above `afterId`, oldest first. */
  listSummaries(route: ClaimRoute, states: readonly JobState[], afterId: number, limit: number): Promise<IntentionSummary[]>;
  /**
   * At most `limit` jobs matching `filter`, without content, bytes or diagnostics, newest first:
   * ordered by (createdAt, id) descending, so a page that starts after the previous page's last row
   * (`filter.after`) neither repeats nor skips a job, however many are inserted meanwhile.
   */
  page(filter: JobFilter, limit: number): Promise<IntentionSummary[]>;
  /** Counts one more explicit reprint on the job (one statement); false when the account has no such job. */
  countReprint(ref: JobRef): Promise<boolean>;
  /**
   * The account a job belongs to. For the operator's command line only (`bobina jobs show ID`),
   * which holds the database itself; the API never finds a job by its id alone.
   */
  ownerOf(id: number): Promise<string | undefined>;
  /**
   * How many jobs, of every account, are in each of `states` now (0 for a state with none), counted
   * up to `atMost` each (a bigger count reads `atMost`): one statement that reads at most
   * `atMost` index entries per state, for the metrics' jobs-by-state gauge.
   */
  countByState(states: readonly JobState[], atMost: number): Promise<Record<JobState, number>>;
  /** Counts one more ignored report on the job (one statement); the count now, or undefined when there is no such job. */
  countIgnoredReport(ref: JobRef): Promise<number | undefined>;
  /** Jobs in one of `states` whose lease ran out before `now`. */
  dueLeases(states: readonly JobState[], now: Date, limit: number): Promise<JobRef[]>;
  /** Jobs in one of `states` whose expiry time is before `now`. */
  dueExpiry(states: readonly JobState[], now: Date, limit: number): Promise<JobRef[]>;
  /**
   * Jobs in one of `states` since a history row older than their account's stuck threshold
   * (`defaultMs` when it has none) at `now`, not yet announced for that row; oldest first, at most `limit`.
   */
  stuck(states: readonly JobState[], now: Date, defaultMs: number, limit: number): Promise<StuckJob[]>;
  /** One guarded upsert: claims the announcement of job `id` stuck since history row `seq`; false when it was claimed already. */
  markStuck(id: number, seq: number): Promise<boolean>;
  /**
   * The answer stored for an Idempotency-Key. Inside a transaction it also holds the key until
   * the transaction ends, so a concurrent insert with the same key waits, then finds this answer
   * (SQLite: the transaction already holds the write lock; PostgreSQL: an advisory transaction lock).
   */
  findIdempotent(accountId: string, key: string): Promise<IdempotentAnswer | undefined>;
  /** Stores the first answer for a key; throws DuplicateError when the key already has one. */
  saveIdempotent(accountId: string, key: string, answer: NewIdempotentAnswer): Promise<void>;
  /**
   * For a key stored by an earlier version with neither answer nor body: keeps `answer` as its
   * answer from now on, unless one was kept first. The key's answer as stored after.
   */
  settleIdempotent(accountId: string, key: string, answer: InsertAnswer): Promise<IdempotentAnswer>;
  /** Deletes at most `limit` Idempotency-Key answers stored before `before`; how many it deleted. */
  purgeIdempotent(before: Date, limit: number): Promise<number>;
  /**
   * Deletes at most `limit` jobs in one of `states` (the final ones) made before `before` and not
   * changed since, with their history: the oldest first; how many it deleted.
   */
  purgeEnded(states: readonly JobState[], before: Date, limit: number): Promise<number>;
}

/** Failed-login counters, one fixed window per key; the policy (which keys, what limits) is auth/login-limits.ts. */
export interface LoginAttemptRepository {
  /**
   * Counts one attempt against each key, each in a single upsert: a key whose window has ended
   * starts a new one at `now`. Returns the counters after counting, in the order of `keys`.
   */
  hit(keys: readonly string[], now: Date, windowMs: number): Promise<AttemptCounter[]>;
  /** Takes back one attempt from each counter, if its window is still the one `hit` returned. */
  unhit(counters: readonly AttemptCounter[]): Promise<void>;
  /** Forgets these keys entirely. */
  clear(keys: readonly string[]): Promise<void>;
  /** Deletes the counters whose window started before `before`; how many. */
  purge(before: Date): Promise<number>;
}

/** Webhook endpoints, the outbox of messages to them, and every delivery attempt (src/server/webhooks/). */
export interface WebhookRepository {
  /**
   * Adds an endpoint, unless the account has `maxPerAccount` already or one posting to the same URL
   * (webhook-rows.ts endpointRefusal): checked and written under one lock on the account's endpoints.
   */
  createEndpoint(endpoint: NewWebhookEndpoint, maxPerAccount: number): Promise<WebhookEndpoint | EndpointRefusal>;
  /** An account's endpoints, oldest first. */
  listEndpoints(accountId: string): Promise<WebhookEndpoint[]>;
  getEndpoint(accountId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Deletes an endpoint; its undelivered messages go dead ("endpoint removed"). False when the account has no such endpoint. */
  removeEndpoint(accountId: string, id: string): Promise<boolean>;
  /**
   * Enables or disables an endpoint (reason kept while disabled). Disabling holds its undelivered
   * messages (state `held`, not sent; one in flight finishes its attempt); enabling makes them due
   * at once, each with a new retry window, and clears its failing flag.
   */
  setEnabled(accountId: string, id: string, enabled: boolean, reason?: string | null): Promise<boolean>;
  /** Makes `secret` the signing secret; the previous ones keep signing until `previousExpireAt`. */
  rotateSecret(accountId: string, id: string, secret: string, previousExpireAt: Date): Promise<WebhookEndpoint | undefined>;
  /** Flags an endpoint as failing since `at` (a message went dead), or clears the flag (null). */
  setFailing(accountId: string, id: string, at: Date | null): Promise<void>;
  /** Adds messages to the outbox, each due now. */
  enqueue(messages: readonly NewWebhookMessage[]): Promise<void>;
  /**
   * Leases due messages until `leaseUntil`, oldest first, so that no target (an endpoint, or a
   * callback address) has more than `perTarget` leased at once and no account more than
   * `perAccount`: one statement, so two senders never take the same message, and one slow target,
   * or one account's, holds only its own messages.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number, perTarget: number, perAccount: number): Promise<ClaimedWebhookMessage[]>;
  /** Keeps an attempt and applies its outcome, if the message is still leased as claimed; false when the lease was lost. */
  recordAttempt(message: ClaimedWebhookMessage, attempt: { at: Date; statusCode: number | null; latencyMs: number; error: string | null }, outcome: AttemptOutcome): Promise<boolean>;
  /**
   * Sends a message again (same webhook-id): pending, due now, with a new retry window (held, if
   * its endpoint is disabled). Undefined when the account has no such message, or its endpoint
   * was removed.
   */
  replay(accountId: string, messageId: string, now: Date): Promise<WebhookMessage | undefined>;
  /**
   * The outbox's backlog: messages pending and held, each counted up to `atMost`, and the planned
   * time of the longest-due message a sender could take now (pending, sendable, not in flight), if any.
   */
  backlog(now: Date, atMost: number): Promise<{ pending: number; held: number; oldestDueAt: Date | null }>;
  /**
   * Deletes delivered and dead messages whose last try was planned before `before`, with their
   * attempts: at most `limit`, the oldest first; how many.
   */
  purgeMessages(before: Date, limit: number): Promise<number>;
  getMessage(accountId: string, messageId: string): Promise<WebhookMessage | undefined>;
  /** An account's messages, newest first, optionally of one endpoint or one intention. */
  listMessages(accountId: string, filter: { endpointId?: string; intencaoImpressaoId?: number; limit: number }): Promise<WebhookMessage[]>;
  /** An account's attempts, newest first, optionally of one endpoint, intention or message. */
  listAttempts(accountId: string, filter: { endpointId?: string; intencaoImpressaoId?: number; messageId?: string; limit: number }): Promise<WebhookAttempt[]>;
}

export interface Repositories {
  readonly accounts: AccountRepository;
  readonly terminals: TerminalRepository;
  readonly credentials: CredentialRepository;
  readonly intentions: IntentionRepository;
  readonly loginAttempts: LoginAttemptRepository;
  readonly webhooks: WebhookRepository;
}

/**
 * Wake-ups between service instances, or processes, that share one database. PostgreSQL carries
 * topics (LISTEN/NOTIFY); SQLite has no messages between processes, so it says only that another
 * process changed the database (sqlite/signals.ts) and the subscriber looks for what it queued.
 */
export interface StoreSignals {
  /** Tells every other instance that `topic` changed (after the change committed); best effort. */
  publish(topic: string): Promise<void>;
  /**
   * Calls `onTopic` with each topic another instance publishes, and `onGap` whenever notices may
   * have been missed (the listening connection was (re)established): re-check everything then;
   * `onChange` (SQLite) when another process committed a change: look for what it queued.
   * Returns the unsubscribe function.
   */
  subscribe(onTopic: (topic: string) => void, onGap: () => void, onChange?: () => void): () => void;
}

/** A store's connections: how many it may open, has open and idle, and how many callers wait for one. */
export interface ConnectionStats {
  max: number;
  open: number;
  idle: number;
  waiting: number;
}

/**
 * A store: the repositories (each call outside a transaction is its own atomic statement), a
 * transaction seam, and the maintenance workers its backend needs.
 *
 * @example
 * const created = await store.transaction(async (tx) => {
 *   const intention = await tx.intentions.insert(draft);
 *   await tx.intentions.saveIdempotent(draft.accountId, key, answerFor(intention));
 *   return intention;
 * }); // committed together, or neither (fn threw: rolled back, and the error rethrown)
 */
export interface Store extends Repositories {
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Wake-ups across instances, when the backend can have several (PostgreSQL). */
  readonly signals?: StoreSignals;
  /** One cheap statement on the database: resolves when it answers, throws when it does not (`GET /health/ready`). */
  ping(): Promise<void>;
  /** The connections to the database now (the metrics' pool gauges): SQLite has one, held by one caller at a time. */
  connections(): ConnectionStats;
  /** Maintenance the backend needs while serving (SQLite: the WAL checkpointer); the app starts and stops them. */
  workers(): BackgroundWorker[];
  close(): Promise<void>;
}
