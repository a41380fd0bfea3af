// Wake-ups between service instances that share one PostgreSQL: LISTEN/NOTIFY on one channel per
// schema. publish() sends a topic (a queue key of jobs/notifier.ts) to every other instance;
// each instance keeps one dedicated connection LISTENing and hands what arrives to its
// subscribers. Notices sent while that connection was down are lost, so every (re)connection is
// reported as a gap: subscribers then re-check everything (a spurious wake costs one query; a
// missed one would leave a terminal waiting for a job that is already there).
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { StoreSignals } from '../repositories.js';
import { quoteIdent } from './url.js';

export interface SignalsOptions {
  /** A new, unconnected client with the store's connection settings. */
  client: () => pg.Client;
  /** Runs one statement on the store's pool. */
  query: (sql: string, params: unknown[]) => Promise<unknown>;
  /** The channel: one per schema, so two deployments in one database never wake each other. */
  channel: string;
  /** Reconnection delays: first, then doubled up to max. */
  retryMs?: { first: number; max: number };
}

type Subscriber = { onTopic: (topic: string) => void; onGap: () => void };

export interface PgSignals extends StoreSignals {
  close(): Promise<void>;
}

export function pgSignals(o: SignalsOptions): PgSignals {
  // Notices this instance sent come back to it too; it has already woken its own waiters.
  const self = randomBytes(6).toString('base64url');
  const subscribers = new Set<Subscriber>();
  const retry = o.retryMs ?? { first: 100, max: 5000 };
  let listener: pg.Client | undefined;
  let started = false;
  let closed = false;
  let delay = retry.first;
  let timer: NodeJS.Timeout | undefined;

  const deliver = (msg: pg.Notification) => {
    if (msg.channel !== o.channel || !msg.payload) return;
    const at = msg.payload.indexOf(':');
    if (at < 0 || msg.payload.slice(0, at) === self) return;
    const topic = decodeURIComponent(msg.payload.slice(at + 1));
    for (const s of subscribers) s.onTopic(topic);
  };

  const reconnectLater = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, retry.max);
  };

  async function connect(): Promise<void> {
    const client = o.client();
    listener = client;
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      if (listener === client) listener = undefined;
      client.end().catch(() => undefined);
      reconnectLater();
    };
    // A dead connection (the server restarted, pg_terminate_backend) ends here, never as an uncaught error.
    client.on('error', fail);
    client.on('end', fail);
    client.on('notification', deliver);
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdent(o.channel)}`);
    } catch {
      fail();
      return;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    delay = retry.first;
    for (const s of subscribers) s.onGap();
  }

  return {
    async publish(topic) {
      await o.query('SELECT pg_notify($1, $2)', [o.channel, `${self}:${encodeURIComponent(topic)}`]);
    },
    subscribe(onTopic, onGap) {
      const s = { onTopic, onGap };
      subscribers.add(s);
      if (!started && !closed) {
        started = true;
        void connect();
      }
      return () => void subscribers.delete(s);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      subscribers.clear();
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}

/** The channel for a schema (NOTIFY channels are per database, not per schema): at most 63 bytes. */
export function signalChannel(schema: string | undefined): string {
  const name = schema === undefined ? 'bobina_jobs' : `bobina_jobs_${schema}`;
  return name.length <= 63 ? name : `bobina_jobs_${createHash('sha256').update(schema!).digest('hex').slice(0, 32)}`;
}
