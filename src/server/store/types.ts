// The domain values the repositories take and return (see repositories.ts for the interface).
// Plain data: no backend types, no HTTP shapes; the routes turn them into responses.
import type { Diagnostic, TagSet } from '../../index.js';

export interface MetadataEntry {
  key: string;
  value: string;
}

/** A partner account (a row of `bobina users`): the owner of terminals, credentials and jobs. */
export interface Account {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  metadata: MetadataEntry[];
  roles: string[];
  /** Which tags are commands when the service compiles this account's Inserts (compile's `tags`). */
  tags: TagSet;
  /** A job queued (or leased without progress) longer than this is announced stuck (`job.stuck`); null: the service's default, 5 min. */
  stuckAfterMs?: number | null;
  createdAt: Date;
}

/** A new account: `tags` defaults to 'all'. */
export type NewAccount = Omit<Account, 'id' | 'createdAt' | 'tags'> & { tags?: TagSet };

/**
 * Who a request acts for, as authentication found it. Every read and write is scoped to
 * `accountId`; a terminal principal (the terminal's own credential, issued by the delivery
 * work) is further limited to that terminal's jobs.
 */
export type Principal =
  /** `tags`: the account's tag set, read with the key (an Insert compiles with it; no second look-up). */
  | { kind: 'account'; accountId: string; tags: TagSet }
  | { kind: 'terminal'; accountId: string; terminalId: string };

export interface Terminal {
  accountId: string;
  terminalId: string;
  /** The linked printer template; null: none linked (each Insert then names one with codigoImpressora, spec §1.6). */
  printerId: number | null;
  enabled: boolean;
  /** A device address (`tcp://host:port`, `file:PATH`): the service delivers this terminal's jobs itself. */
  device?: string | null;
  /** This terminal's client also takes the account's jobs that name no terminal (only a template). */
  templateJobs?: boolean;
}

/** A terminal's own credential, as an operator sees it (never the key). */
export interface TerminalKey {
  accountId: string;
  terminalId: string;
  prefix: string;
  createdAt: Date;
}

/** What a terminal's client says of its printer, on every poll and heartbeat. */
export interface PrinterReport {
  ready: boolean;
  reasons: string[];
}

/** One contact from a terminal's client (a poll or a heartbeat), as the fleet's health records it. */
export interface TerminalContact {
  accountId: string;
  terminalId: string;
  at: Date;
  /** The client's version (the agent's, or the service's for direct delivery), when it said. */
  agentVersion?: string | null;
  /** The printer's state, when the client said. */
  printer?: PrinterReport;
}

/** What a contact changed that the fleet's events announce (each decided once, under the row's lock). */
export interface ContactChange {
  /** The terminal was offline (or never seen) and is online now. */
  cameOnline: boolean;
  /** The printer's set of reasons changed: the reasons before (null: never reported). */
  printerChanged?: { before: string[] | null };
}

/** A terminal as the fleet view shows it: its last contact, its printer's last word, its queue. */
export interface TerminalHealth {
  accountId: string;
  terminalId: string;
  enabled: boolean;
  /** As the offline sweep last announced it (the view computes `online` from lastSeenAt itself). */
  announcedOnline: boolean;
  lastSeenAt: Date | null;
  agentVersion: string | null;
  printer: { ready: boolean | null; reasons: string[] | null; checkedAt: Date | null };
  /** Its own queued jobs (not the account's template jobs): how many, and the oldest one's insert time. */
  queue: { depth: number; oldestAt: Date | null };
}

/**
 * Which terminals the fleet view reads: of one account (or every account), one terminal of it, a
 * page of them in terminal-id order (bytewise), and only those needing attention.
 */
export interface HealthFilter {
  accountId?: string;
  terminalId?: string;
  /** Only terminals whose id comes after this one (the previous page's last). */
  after?: string;
  /** At most this many (none: all of them, for the operator's CLI). */
  limit?: number;
  /**
   * Only terminals that are offline (no contact since `onlineSince`), whose printer reported a
   * problem (not ready, or any reason), or either. `onlineSince` is required with `offline` and `problem`.
   */
  only?: 'offline' | 'printer' | 'problem';
  /** A contact after this instant is online (now − the offline rule). */
  onlineSince?: Date;
}

/** A terminal the offline sweep just announced offline. */
export interface WentOffline {
  accountId: string;
  terminalId: string;
  lastSeenAt: Date | null;
}

/** The fleet in numbers (no per-terminal label): terminals online and offline, online printers by reason. */
export interface FleetCounts {
  online: number;
  offline: number;
  /** Online terminals whose printer said it is ready. */
  printersReady: number;
  /** Online terminals' printers, per reason they gave (a printer with two reasons counts in both). */
  printersByReason: Record<string, number>;
}

/** A job in a waiting or delivering state for longer than its account allows, not yet announced in this state. */
export interface StuckJob {
  accountId: string;
  id: number;
  terminalId: string | null;
  referencia: string | null;
  estado: JobState;
  /** The history row it has been in this state since (announced once per row). */
  seq: number;
  since: Date;
  thresholdMs: number;
}

/** A long-lived API key as an operator sees it: never the key, only its id and first characters. */
export interface ApiKey {
  id: string;
  accountId: string;
  name: string;
  /** The key's first characters (`bob_` and a few more), or null for keys made before prefixes were kept. */
  prefix: string | null;
  createdAt: Date;
}

export interface NewApiKey {
  accountId: string;
  name: string;
  keyHash: string;
  prefix: string;
}

/**
 * How much of one account's sessions the store keeps: at most `sessions` refresh-token families
 * (the ones used least recently are revoked past it), and of each family at most
 * `tokensPerSession` access tokens and as many used refresh tokens (the newest).
 */
export interface SessionLimits {
  sessions: number;
  tokensPerSession: number;
}

export interface TokenPair {
  accessHash: string;
  refreshHash: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
  /**
   * The refresh-token family: every pair rotated from one password login. A refresh token used a
   * second time revokes the whole family (RFC 9700 §4.14.2).
   */
  family: string;
}

/** What presenting a refresh token did: rotated (its account and family), or found used before (its family is now revoked). */
export type RefreshTaken = { accountId: string; family: string } | 'reused';

export type { JobState, Confirmation } from '../jobs/events.js';
import type { JobState, Confirmation } from '../jobs/events.js';

/** Who caused a transition: the service itself, a terminal's client, or the printer (through the client). */
export type Origin = 'server' | 'client' | 'printer';

/** One row of a job's history: every transition, and every report recorded and ignored. */
export interface HistoryEntry {
  /** 1, 2, …: the row's number for this job (the JobEvent sequence). */
  seq: number;
  estado: JobState;
  /** The lifecycle event (jobs/lifecycle.ts), or `ignored-report` for a report that changed nothing. */
  evento: string;
  motivos: string[];
  origem: Origin;
  detalhe: string | null;
  at: Date;
}

export interface NewIntention {
  accountId: string;
  referencia: string | null;
  conteudo: string;
  terminalId: string | null;
  impressoraId: number;
  codigoImpressora: string;
  aguardarClienteIniciarImpressao: boolean;
  status: string;
  bytes: Uint8Array;
  diagnostics: Diagnostic[];
  createdAt: Date;
  /** The first state (jobs/lifecycle.ts decides it; default queued). */
  estado?: JobState;
  motivos?: string[];
  confirmacao?: Confirmation;
  /** When a job never printed expires. */
  expiresAt?: Date | null;
  /** Where this job's end-of-job webhook also goes, besides the account's endpoints (Insert's `urlCallback`). */
  urlCallback?: string | null;
  /** The job this one is an explicit reprint of (Reimprimir), or null. */
  reprintOf?: number | null;
}

export interface Intention extends NewIntention {
  id: number;
  estado: JobState;
  motivos: string[];
  tentativas: number;
  confirmacao: Confirmation;
  /** The terminal holding (or last holding) the job's lease. */
  leasedTo: string | null;
  leaseToken: string | null;
  leaseExpiresAt: Date | null;
  /** Started again after an unknown outcome: the client prints it even if its journal saw it start. */
  reprint: boolean;
  /** Reports ignored (a stale token, a final job, a repeat): counted; only the first few are history rows. */
  ignoredReports: number;
  reprintOf: number | null;
  /** Explicit reprints made of this job (Reimprimir): each one a job of its own, linked by `reprintOf`. */
  reprints: number;
}

/** A job without its content, bytes and diagnostics (lists of many jobs): `size` is its bytes' length. */
export type IntentionSummary = Omit<Intention, 'conteudo' | 'bytes' | 'diagnostics'> & { size: number };

/**
 * Which jobs a list shows (GetAll, `bobina jobs list`), newest first: of one account, or of every
 * account (`accountId` null: the operator's CLI only, which holds the database itself).
 */
export interface JobFilter {
  accountId: string | null;
  estado?: JobState;
  terminalId?: string;
  referencia?: string;
  /** Made at or after this time… */
  since?: Date;
  /** …and at or before this one. */
  until?: Date;
  /** Only jobs after this one in the list's order (created earlier, or at the same millisecond with a lower id): the previous page's last. */
  after?: { createdAt: Date; id: number };
}

/** What a transition writes besides the state (absent fields stay as they are). */
export interface JobPatch {
  estado: JobState;
  status: string;
  motivos?: string[];
  tentativasIncrement?: boolean;
  confirmacao?: Confirmation;
  leasedTo?: string | null;
  leaseToken?: string | null;
  leaseExpiresAt?: Date | null;
  reprint?: boolean;
  /** The job compiled again (Recompilar): its bytes, diagnostics and template. */
  compiled?: { bytes: Uint8Array; diagnostics: Diagnostic[]; impressoraId: number; codigoImpressora: string };
}

/** What a guarded update requires of a job besides its state: a delivery token (a string is just that). */
export interface LeaseGuard {
  /** The job still holds this delivery token. */
  token: string;
  /** …and its lease ran out before this time: the lease sweep never ends a lease renewed meanwhile. */
  expiredBy?: Date;
}

/** Which queued jobs a terminal's client may take. */
export interface ClaimRoute {
  accountId: string;
  terminalId: string;
  /** Also the account's jobs without a terminal (the terminal takes template jobs)… */
  templateJobs: boolean;
  /** …those for this template only (null: any template). */
  printerId: number | null;
}

/** A job, by account and id: what the workers find due. */
export interface JobRef {
  accountId: string;
  id: number;
}

/** A job as an answer shows it: everything but its bytes, whose length it keeps (`size`). */
export type AnsweredJob = Omit<Intention, 'bytes'> & { size: number };

/**
 * What an Insert answers with: the job as the Insert made it, its history then, and the instant the
 * answer names. Stored with an Idempotency-Key in the Insert's transaction, so every answer for the
 * key is made from the same values (and serialised the same way, after the transaction).
 */
export interface InsertAnswer {
  job: AnsweredJob;
  history: HistoryEntry[];
  at: Date;
}

/**
 * The answer to an Idempotency-Key, replayed for the same request: what it is made from (`answer`),
 * or for keys stored by versions before answers were kept, the body they answered with (`body`) —
 * or neither, for a key such a version stored with its job and stopped before it fixed the body.
 */
export interface IdempotentAnswer {
  requestHash: string;
  statusCode: number;
  intentionId: number | null;
  answer: InsertAnswer | null;
  body: string | null;
}

/** A new key's answer: this version stores what it is made from, never a body. */
export type NewIdempotentAnswer = Omit<IdempotentAnswer, 'answer' | 'body'> & { answer: InsertAnswer };

/** A failed-login counter in its current window (keys are opaque: the policy in auth/login-limits.ts names them). */
export interface AttemptCounter {
  key: string;
  failures: number;
  windowStart: Date;
}

/** A uniqueness rule refused the write (an e-mail already registered, an Idempotency-Key already used). */
export class DuplicateError extends Error {
  override name = 'DuplicateError';
}

/**
 * The database cannot be reached, went away, or did not answer in time: the request may succeed if
 * retried shortly (the service answers 503 `database-unavailable` with Retry-After). The message
 * never carries a connection password; `cause` is the driver's own error.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** A job state an endpoint can subscribe to: the final ones, and `stopped` (opt-in). */
export type JobWebhookEvent = 'completed' | 'failed' | 'canceled' | 'expired' | 'stopped';

/** The fleet's events (opt-in): a terminal's client gone or back, its printer's reasons changed, a job stuck. */
export type FleetWebhookEvent = 'terminal.offline' | 'terminal.online' | 'printer.status' | 'job.stuck';

/** What an endpoint can subscribe to. */
export type WebhookEvent = JobWebhookEvent | FleetWebhookEvent;

/** One signing secret of an endpoint; an old one keeps signing until `expiresAt` after a rotation. */
export interface WebhookSecret {
  secret: string;
  expiresAt: Date | null;
}

/** A per-account webhook endpoint (`bobina webhooks add`). */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEvent[];
  /** Newest first. */
  secrets: WebhookSecret[];
  enabled: boolean;
  /** Why it was disabled (`gone`: the receiver answered 410), when it was. */
  disabledReason: string | null;
  /** Set when a message to it went dead (retries exhausted); cleared by its next delivery. */
  failingSince: Date | null;
  createdAt: Date;
}

export type NewWebhookEndpoint = Pick<WebhookEndpoint, 'accountId' | 'url' | 'events'> & { secret: string };

/** `held`: its endpoint is disabled; it waits, unsent, until the endpoint is enabled again. */
export type WebhookMessageState = 'pending' | 'held' | 'delivered' | 'dead';

/** One message of the outbox: a job event for one target (an endpoint, or an intention's urlCallback). */
export interface WebhookMessage {
  /** The `webhook-id` header: the same on every attempt and replay, so receivers dedupe by it. */
  id: string;
  accountId: string;
  /** The endpoint it goes to, or null for an intention's urlCallback. */
  endpointId: string | null;
  /** The address it is posted to, `?intencaoImpressaoId=N` included (for a job's events). */
  url: string;
  eventType: string;
  /** The job it is about; null for a terminal's events (terminal.offline, terminal.online, printer.status). */
  intencaoImpressaoId: number | null;
  body: string;
  state: WebhookMessageState;
  /** Tries since the first attempt or the last replay. */
  attempts: number;
  nextAttemptAt: Date;
  /** Retries stop (the message goes dead) once the first attempt since this moment is older than the retry window. */
  windowStart: Date;
  createdAt: Date;
  deliveredAt: Date | null;
  lastError: string | null;
}

export type NewWebhookMessage = Pick<WebhookMessage, 'id' | 'accountId' | 'endpointId' | 'url' | 'eventType' | 'intencaoImpressaoId' | 'body' | 'createdAt'> & {
  /**
   * What the sender limits in-flight messages by (`perTarget`): the origin posted to (`https://host:port`),
   * whatever endpoint or account the message is for, so that many endpoints on one receiver add nothing.
   */
  target: string;
};

/** A message leased to one sender until `leaseUntil`; what it reports back is guarded by that lease. */
export interface ClaimedWebhookMessage extends WebhookMessage {
  leaseUntil: Date;
}

/** One try at delivering a message, as kept for `bobina webhooks log`. */
export interface WebhookAttempt {
  messageId: string;
  endpointId: string | null;
  url: string;
  eventType: string;
  intencaoImpressaoId: number | null;
  at: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The message's state after this attempt's outcome was recorded (now, not then). */
  messageState: WebhookMessageState;
}

/** What an attempt leads to: delivered, tried again at `nextAttemptAt`, or dead. */
export type AttemptOutcome =
  | { state: 'delivered' }
  | { state: 'pending'; nextAttemptAt: Date }
  | { state: 'dead' };

// The interface itself lives in repositories.ts; re-exported so `Store` is found beside its values.
export type { Repositories, Store } from './repositories.js';
