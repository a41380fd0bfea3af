// The host lookups of webhook addresses (registration, urlCallback, every send): at most one in
// flight per account in this process, each answered within a deadline. Why: dns.lookup is glibc's
// getaddrinfo on libuv's threadpool, where at most two lookups run at once (half the pool of 4) and
// none can be cancelled, so a host whose nameserver never answers keeps a thread until glibc gives
// up (5 s per try, two tries per nameserver by default); a few of one account's took both and kept
// every other account's lookups waiting (a Webhook/Insert 59.6 s instead of 27 ms). The routes and
// the sender share one gate (sharedLookups) because they share the one pool. Per process on
// purpose: the threadpool is the process's, so this is not state another instance must see.
// c-ares (dns.Resolver) would not use the pool, but it ignores /etc/hosts and nsswitch. A host's
// answer is used again for DNS_REMEMBER_MS, and a host that did not answer in time is answered so
// at once for as long, neither taking the account's turn.
import { lookup } from 'node:dns/promises';

export interface HostAddress {
  address: string;
  family: number;
}

/** Every address of a host, as getaddrinfo orders them; rejects when it does not resolve. */
export type HostLookup = (host: string, signal?: AbortSignal) => Promise<HostAddress[]>;

/** The system's resolver: /etc/hosts and nsswitch, as every other program on the machine resolves. */
export const systemLookup: HostLookup = (host) => lookup(host, { all: true, verbatim: true });

/** The lookup did not answer within the deadline (or could not start, the account's one before it still running). */
export class DnsTimeout extends Error {
  override name = 'DnsTimeout';
}

/**
 * How long a lookup may take, waiting for the account's turn included: past glibc's first retry (it
 * asks again after 5 s), so one lost packet is not a failure.
 */
export const DEFAULT_DNS_DEADLINE_MS = 8_000;

/**
 * How long a host's answer is used again without a lookup, and a host that did not answer in time is
 * answered so at once. Without it, an account with one endpoint whose nameserver is dead held its
 * turn with every retry to it, and its other lookups (a urlCallback on Insert, its healthy
 * endpoints) ran out of time behind them. A connection goes to the address checked (post.ts), so an
 * answer used again is checked as a fresh one is.
 */
export const DNS_REMEMBER_MS = 30_000;
/** Hosts remembered at most (the oldest forgotten first): bounds the memory one account's many hosts take. */
const REMEMBERED_HOSTS = 10_000;

/** A bounded map of hosts to what is known of them until a time. */
class Remembered<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  get(host: string, now: number): T | undefined {
    const e = this.entries.get(host);
    if (e && e.until > now) return e.value;
    if (e) this.entries.delete(host);
    return undefined;
  }
  set(host: string, value: T, until: number): void {
    this.entries.delete(host);
    if (this.entries.size >= REMEMBERED_HOSTS) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(host, { value, until });
  }
  delete(host: string): void {
    this.entries.delete(host);
  }
}

export class LookupGate {
  /** Accounts with a lookup running, until that lookup itself settles (not the caller's deadline: its thread is busy until then). */
  private readonly busy = new Set<string>();
  private readonly waiting = new Map<string, Array<() => void>>();
  /** Hosts that answered, with their addresses, and hosts whose lookup ran past the deadline: for DNS_REMEMBER_MS. */
  private readonly answered = new Remembered<HostAddress[]>();
  private readonly unanswered = new Remembered<true>();

  constructor(readonly deadlineMs = DEFAULT_DNS_DEADLINE_MS, private readonly resolve: HostLookup = systemLookup, readonly rememberMs = DNS_REMEMBER_MS) {}

  /**
   * Resolves `host` for `accountId` once the account has no other lookup running. Rejects with
   * DnsTimeout past the deadline (counted from this call), or with `signal`'s reason when aborted.
   * A lookup given up on keeps the account's turn until it answers, so the account's next lookup
   * waits for it rather than taking a second thread.
   */
  lookup(accountId: string, host: string, signal?: AbortSignal): Promise<HostAddress[]> {
    const now = Date.now();
    const known = this.answered.get(host, now);
    if (known) return Promise.resolve(known);
    if (this.unanswered.get(host, now)) {
      return Promise.reject(new DnsTimeout(`DNS timeout: host ${host} did not resolve within ${this.deadlineMs} ms (on a try less than ${this.rememberMs} ms ago)`));
    }
    return new Promise((resolve, reject) => {
      let settled = false;
      let started = false;
      const queue = this.waiting.get(accountId) ?? [];
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = queue.indexOf(start);
        if (i >= 0) queue.splice(i, 1);
        if (queue.length === 0 && this.waiting.get(accountId) === queue) this.waiting.delete(accountId);
        settle();
      };
      const start = () => {
        started = true;
        this.busy.add(accountId);
        Promise.resolve()
          .then(() => this.resolve(host))
          .then((addresses) => {
            this.unanswered.delete(host);
            this.answered.set(host, addresses, Date.now() + this.rememberMs);
            finish(() => resolve(addresses));
          }, (err: unknown) => finish(() => reject(err)))
          .finally(() => this.next(accountId));
      };
      const timer = setTimeout(() => finish(() => {
        // Its lookup still running: the host is answered so at once until it answers (or for rememberMs).
        if (started) this.unanswered.set(host, true, Date.now() + this.rememberMs);
        reject(new DnsTimeout(started
          ? `DNS timeout: host ${host} did not resolve within ${this.deadlineMs} ms`
          : `DNS timeout: host ${host} was not looked up within ${this.deadlineMs} ms (this account's lookup before it has not answered)`));
      }), this.deadlineMs);
      const onAbort = () => finish(() => reject(signal!.reason));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (!this.busy.has(accountId)) return start();
      this.waiting.set(accountId, queue);
      queue.push(start);
    });
  }

  /** This account's lookups, as resolveAllowed takes them. */
  for(accountId: string): HostLookup {
    return (host, signal) => this.lookup(accountId, host, signal);
  }

  /** Lookups of `accountId` running (0 or 1) and waiting. */
  pending(accountId: string): { running: number; waiting: number } {
    return { running: this.busy.has(accountId) ? 1 : 0, waiting: this.waiting.get(accountId)?.length ?? 0 };
  }

  /** The account's lookup has answered: the first waiter still waiting starts, or the account is free. */
  private next(accountId: string): void {
    const queue = this.waiting.get(accountId);
    const first = queue?.shift();
    if (queue && queue.length === 0) this.waiting.delete(accountId);
    if (first) return first();
    this.busy.delete(accountId);
  }
}

/** The process's one gate: the API routes, the CLI and the webhook sender all resolve through it. */
export const sharedLookups = new LookupGate();
