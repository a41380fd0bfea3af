// ServiceMetrics with prom-client, in a registry of its own (never prom-client's global one), in the
// Prometheus text format. Counters and histograms count what this process did; the gauges read at
// scrape time (jobs by state, the fleet) ask the store, so they are the same on every instance of
// one database. Every labelled series that can exist is there from the start (at 0), so a scrape
// after a million jobs has exactly the series of the first one. docs/operations.md lists them.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { REASONS } from '../../delivery/reasons.js';
import { isFinal, STORED_TRANSITIONS } from '../jobs/lifecycle.js';
import type { JobState } from '../jobs/events.js';
import type { AttemptCount } from '../webhooks/sender.js';
import type { FleetCounts, FleetCountsProvider, MetricSources, ServiceMetrics } from './metrics.js';

/** The states a job passes through: counted at every scrape (the final ones only grow; transitions count them). */
export const ACTIVE_STATES: readonly JobState[] = [...new Set(STORED_TRANSITIONS.map((t) => t.to))].filter((s) => !isFinal(s));

const ATTEMPT_OUTCOMES: readonly AttemptCount[] = ['delivered', 'pending', 'dead', 'lease-lost'];
const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
const PRINTER_REASONS = Object.keys(REASONS);

/** bobina_jobs counts up to this many jobs per state (a bigger backlog reads as this): each scrape reads at most that much. */
export const JOBS_COUNTED_AT_MOST = 10_000;

/** A scrape-time read of the store gives up after this long: those gauges are then left out of the scrape. */
export const STORE_READ_TIMEOUT_MS = 2_000;

/** Seconds, for a request answered in a few milliseconds up to a compile at its budget. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds from Insert to printed: a job waits for its terminal for seconds, or for paper for hours. */
const PRINT_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600];

const statusClass = (code: number) => STATUS_CLASSES[Math.min(3, Math.max(0, Math.floor(code / 100) - 2))]!;

function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export interface PrometheusOptions {
  /** prom-client's process and Node.js metrics (CPU, memory, event loop delay, GC): default true. */
  processMetrics?: boolean;
  /** Told when a scrape-time read of the store failed (its gauges are left out of that scrape). */
  onReadError?: (what: string, err: unknown) => void;
}

export function prometheusMetrics(o: PrometheusOptions = {}): ServiceMetrics {
  const registers = [new Registry()];
  const [registry] = registers as [Registry];
  if (o.processMetrics !== false) collectDefaultMetrics({ register: registry });
  let sources: MetricSources | undefined;
  let fleet: FleetCountsProvider | undefined;
  const readErrors = new Counter({
    name: 'bobina_metrics_read_errors_total', help: 'Scrape-time reads of the store that failed or timed out (their gauges were left out of that scrape)',
    labelNames: ['gauge'], registers,
  });
  /** Reads for a gauge at scrape time: on failure the gauge has no samples in this scrape, and the error is counted. */
  async function read<T>(gauge: Gauge<string>, what: string | undefined, fn: () => Promise<T>, set: (v: T) => void): Promise<void> {
    gauge.reset();
    try {
      set(await within(STORE_READ_TIMEOUT_MS, fn()));
    } catch (err) {
      gauge.reset();
      if (what === undefined) return;
      readErrors.inc({ gauge: what });
      o.onReadError?.(what, err);
    }
  }
  for (const gauge of ['jobs', 'fleet', 'webhooks']) readErrors.inc({ gauge }, 0);

  const transitions = new Counter({
    name: 'bobina_job_transitions_total', help: 'Job state changes committed by this instance, by the state before, the lifecycle event and the state after',
    labelNames: ['from', 'event', 'to'], registers,
  });
  for (const t of STORED_TRANSITIONS) transitions.inc({ from: t.from, event: t.event, to: t.to }, 0);
  const inserts = new Histogram({
    name: 'bobina_insert_duration_seconds', help: 'POST /IntencaoImpressao/Insert, from the request to its answer, by status class',
    labelNames: ['code'], buckets: REQUEST_BUCKETS, registers,
  });
  for (const code of STATUS_CLASSES) inserts.zero({ code });
  const compiles = new Histogram({
    name: 'bobina_compile_duration_seconds', help: "Compiles of this instance, waiting for a pool thread included; result ok (compiled, with or without diagnostics) or failed (past the budget, pool closed)",
    labelNames: ['result'], buckets: REQUEST_BUCKETS, registers,
  });
  for (const result of ['ok', 'failed']) compiles.zero({ result });
  const printed = new Histogram({
    name: 'bobina_job_insert_to_completed_seconds', help: 'From Insert to completed, for jobs completed through a terminal (not those completed at Insert by the generic-printer rule)',
    buckets: PRINT_BUCKETS, registers,
  });
  const attempts = new Counter({
    name: 'bobina_webhook_attempts_total', help: "Webhook attempts of this instance's sender, by the message's state after it (pending: it will be retried)",
    labelNames: ['outcome'], registers,
  });
  for (const outcome of ATTEMPT_OUTCOMES) attempts.inc({ outcome }, 0);

  const jobs: Gauge<string> = new Gauge({
    name: 'bobina_jobs', help: `Jobs of every account in each state a job passes through, now, counted up to ${JOBS_COUNTED_AT_MOST} per state (read from the database at scrape time)`,
    labelNames: ['state'], registers,
    async collect() {
      const store = sources?.store;
      if (!store) return;
      await read(jobs, 'jobs', () => store.intentions.countByState(ACTIVE_STATES, JOBS_COUNTED_AT_MOST), (counts) => {
        for (const state of ACTIVE_STATES) jobs.set({ state }, counts[state] ?? 0);
      });
    },
  });
  /** The outbox's backlog in flight: both webhook gauges of one scrape read it. */
  let backlogRead: Promise<{ pending: number; held: number; oldestDueAt: Date | null; now: Date }> | undefined;
  const backlogNow = (store: MetricSources['store']) => {
    if (backlogRead) return backlogRead;
    const now = new Date();
    const read = store.webhooks.backlog(now, JOBS_COUNTED_AT_MOST).then((b) => ({ ...b, now }));
    backlogRead = read;
    const settled = () => {
      if (backlogRead === read) backlogRead = undefined;
    };
    read.then(settled, settled);
    return read;
  };
  const messages: Gauge<string> = new Gauge({
    name: 'bobina_webhook_messages', help: `Webhook messages of every account waiting to be sent (pending) or for their endpoint to be enabled again (held), now, counted up to ${JOBS_COUNTED_AT_MOST} per state (read from the database at scrape time)`,
    labelNames: ['state'], registers,
    async collect() {
      const store = sources?.store;
      if (!store) return;
      await read(messages, 'webhooks', () => backlogNow(store), (b) => {
        messages.set({ state: 'pending' }, b.pending);
        messages.set({ state: 'held' }, b.held);
      });
    },
  });
  const oldestDue: Gauge<string> = new Gauge({
    name: 'bobina_webhook_oldest_due_seconds', help: 'How long the longest-due webhook message a sender could send now has been due (0: none); it grows while senders are stopped or stuck (read from the database at scrape time)',
    registers,
    async collect() {
      const store = sources?.store;
      if (!store) return;
      // Its failure is counted once, under `webhooks`, by the messages gauge.
      await read(oldestDue, undefined, () => backlogNow(store), (b) => {
        oldestDue.set(b.oldestDueAt === null ? 0 : Math.max(0, b.now.getTime() - b.oldestDueAt.getTime()) / 1000);
      });
    },
  });
  /** The fleet provider's answer in flight: both fleet gauges of one scrape read it (a scrape collects them concurrently). */
  let fleetRead: { provider: FleetCountsProvider; counts: Promise<FleetCounts> } | undefined;
  const fleetNow = (provider: FleetCountsProvider) => {
    if (fleetRead?.provider === provider) return fleetRead.counts;
    const counts = provider(new Date());
    fleetRead = { provider, counts };
    const settled = () => {
      if (fleetRead?.counts === counts) fleetRead = undefined;
    };
    counts.then(settled, settled);
    return counts;
  };
  const terminals: Gauge<string> = new Gauge({
    name: 'bobina_terminals', help: 'Terminals of every account online and offline, now (read from the database at scrape time)',
    labelNames: ['state'], registers,
    async collect() {
      const provider = fleet;
      if (!provider) return terminals.reset();
      await read(terminals, 'fleet', () => fleetNow(provider), (f) => {
        terminals.set({ state: 'online' }, f.online);
        terminals.set({ state: 'offline' }, f.offline);
      });
    },
  });
  const printers: Gauge<string> = new Gauge({
    name: 'bobina_printers', help: 'Printers whose status gives each reason, now (a printer with two reasons counts under both; read from the database at scrape time)',
    labelNames: ['reason'], registers,
    async collect() {
      const provider = fleet;
      if (!provider) return printers.reset();
      // Its failure is counted once, under `fleet`, by the terminals gauge.
      await read(printers, undefined, () => fleetNow(provider), (f) => {
        const byReason = Object.fromEntries(PRINTER_REASONS.map((r) => [r, 0]));
        for (const [reason, n] of Object.entries(f.printersByReason)) {
          const known = Object.hasOwn(byReason, reason) ? reason : 'other';
          byReason[known] = byReason[known]! + n;
        }
        for (const [reason, n] of Object.entries(byReason)) printers.set({ reason }, n);
      });
    },
  });
  const connections: Gauge<string> = new Gauge({
    name: 'bobina_db_connections', help: "This instance's connections to the database, busy or idle (SQLite: its one connection)",
    labelNames: ['state'], registers,
    collect() {
      const c = sources?.store.connections();
      if (!c) return;
      connections.set({ state: 'busy' }, c.open - c.idle);
      connections.set({ state: 'idle' }, c.idle);
    },
  });
  const connectionsMax: Gauge<string> = new Gauge({
    name: 'bobina_db_connections_max', help: "The most connections this instance's pool opens", registers,
    collect() {
      if (sources) connectionsMax.set(sources.store.connections().max);
    },
  });
  const waiting: Gauge<string> = new Gauge({
    name: 'bobina_db_waiting', help: 'Callers of this instance waiting for a database connection (SQLite: for its one connection)', registers,
    collect() {
      if (sources) waiting.set(sources.store.connections().waiting);
    },
  });

  return {
    attach(s) {
      sources = s;
      const load = s.compiler.load?.bind(s.compiler);
      if (!load) return;
      // The inline compiler has no pool: these exist only with one.
      const queue: Gauge<string> = new Gauge({
        name: 'bobina_compile_queue_length', help: "Compiles waiting for one of this instance's pool threads", registers,
        collect: () => queue.set(load().waiting),
      });
      const running: Gauge<string> = new Gauge({
        name: 'bobina_compile_running', help: "Compiles running on this instance's pool threads", registers,
        collect: () => running.set(load().running),
      });
      const threads: Gauge<string> = new Gauge({
        name: 'bobina_compile_threads_max', help: "The most threads this instance's compile pool runs", registers,
        collect: () => threads.set(load().threads),
      });
    },
    setFleetCounts(provider) {
      fleet = provider;
    },
    transitioned(t) {
      transitions.inc({ from: t.from, event: t.event, to: t.to });
      if (t.to === 'completed' && t.from !== 'new') printed.observe(Math.max(0, t.at.getTime() - t.createdAt.getTime()) / 1000);
    },
    insertAnswered(seconds, statusCode) {
      inserts.observe({ code: statusClass(statusCode) }, seconds);
    },
    compiled(seconds, ok) {
      compiles.observe({ result: ok ? 'ok' : 'failed' }, seconds);
    },
    webhookAttempt(outcome) {
      attempts.inc({ outcome });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
