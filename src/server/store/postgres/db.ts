// The one seam between the PostgreSQL repositories and pg: a Db runs a statement on the pool (its
// own atomic statement) or on a transaction's client, maps connection failures to
// StoreUnavailableError, and refuses the store's own repositories inside transaction(fn), as the
// SQLite gate does (repositories.ts: calling them there is a caller's mistake on every backend).
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import { StoreUnavailableError } from '../types.js';

export interface Rows<R> {
  rows: R[];
  rowCount: number;
}

export interface Db {
  query<R = Record<string, unknown>>(sql: string, values?: readonly unknown[]): Promise<Rows<R>>;
  /**
   * Runs fn's statements as one: BEGIN … COMMIT on one pooled client, or inside the transaction
   * this Db already belongs to. For the few methods that are two statements (a lock, then the work).
   */
  atomic<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * A statement whose answer nobody waits for. Inside a transaction it is sent at once and not
   * waited for (pipelined with the statements after it); if it fails, the next statement or the
   * commit fails with its error. Outside one it is an ordinary statement.
   */
  write(sql: string, values?: readonly unknown[]): Promise<void>;
  /** True inside transaction(fn): findIdempotent's advisory lock then lasts until it ends. */
  readonly inTransaction: boolean;
}

/** Node socket errors that mean the server is unreachable or the connection went away. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs meaning "not now": admin shutdown, crash shutdown, cannot connect now, too many connections. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** pg's own messages for a connection that ended or never came (they carry no code). */
const GONE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable/i;

/**
 * The driver's error as the store reports it: a StoreUnavailableError when the database is
 * unreachable, went away, refuses connections or ran past the statement timeout (57014: the
 * service answers 503 and the caller retries; a bobina statement that slow means an overloaded or
 * locked database, not a bad request); anything else unchanged.
 */
export function storeError(err: unknown): unknown {
  if (!(err instanceof Error) || err instanceof StoreUnavailableError) return err;
  const code = (err as { code?: unknown }).code;
  if (code === '57014') return new StoreUnavailableError('database statement timeout: the database did not answer in time', { cause: err });
  const unavailable = typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^08/.test(code));
  if (unavailable || GONE.test(err.message)) {
    // pg's messages name the host and port at most, never the password.
    return new StoreUnavailableError(`database unavailable: ${err.message || code}`, { cause: err });
  }
  return err;
}

/**
 * Values as pg sends them. PostgreSQL text cannot hold U+0000: a string carrying one (a lookup of
 * a terminal id or e-mail a client sent with it) goes as U+FFFD instead, so it finds nothing
 * rather than failing the request; text that must come back exactly as sent is BYTEA.
 */
const sendable = (values: readonly unknown[]): unknown[] =>
  values.map((v) => (typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v));

/** Names given to statement texts: a named statement is parsed and planned once per connection, then only bound and run. */
const names = new Map<string, string>();
/** Texts differ only by list lengths and patch fields: a few dozen. Past this, texts go unnamed (a runaway would only cost memory). */
const MAX_NAMED = 1000;

/**
 * A statement as pg sends it: with values, as a prepared statement named after its text (PostgreSQL
 * re-plans it itself after DDL or a search_path change); without, as simple text (migrations, several
 * statements in one).
 */
function statement(sql: string, values: readonly unknown[] | undefined): pg.QueryConfig {
  if (values === undefined || values.length === 0) return { text: sql };
  let name = names.get(sql);
  if (name === undefined && names.size < MAX_NAMED) names.set(sql, (name = `bobina_${names.size}`));
  return { text: sql, values: sendable(values), ...(name === undefined ? {} : { name }) };
}

const rethrow = (err: unknown): never => {
  throw storeError(err);
};

/** A connection-level failure: the client is not put back into the pool. */
const isGone = (err: unknown) => storeError(err) instanceof StoreUnavailableError;

const noop = () => {};

/** Runs fn on one checked-out client (every client has an 'error' listener from its connect on: postgres.ts). */
async function withClient<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect().catch(rethrow);
  let failure: unknown;
  try {
    return await fn(client);
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    // A client whose connection failed is destroyed, never handed out again.
    client.release(isGone(failure) ? (failure as Error) : undefined);
  }
}

const REFUSED = "store: inside transaction(fn) use the repositories fn receives, not the store's own (they would wait for this transaction)";

export class Connections {
  /** The transaction whose fn is running here, if any (see refuseFromInside). */
  private readonly context = new AsyncLocalStorage<{ open: boolean }>();

  constructor(readonly pool: Pool) {}

  private refuseFromInside(): void {
    if (this.context.getStore()?.open) throw new Error(REFUSED);
  }

  /** The pool as a Db: every query its own statement. */
  readonly db: Db = {
    inTransaction: false,
    query: async <R>(sql: string, values: readonly unknown[] = []) => {
      this.refuseFromInside();
      const r = await this.pool.query(statement(sql, values)).catch(rethrow);
      return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
    },
    atomic: async (fn) => {
      this.refuseFromInside();
      return this.begin(async (db) => fn(db));
    },
    write: async (sql, values) => {
      await this.db.query(sql, values);
    },
  };

  /** BEGIN … fn … COMMIT on one client (ROLLBACK and rethrow when fn throws); fn's Db stops working when it ends. */
  async transaction<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    this.refuseFromInside();
    const token = { open: true };
    return this.begin((db) => this.context.run(token, () => fn(db)), token);
  }

  /**
   * BEGIN goes out with the transaction's first statement, in one write (the pool's clients
   * pipeline: pg sends a query without waiting for the answer to the one before), and writes nobody
   * waits for go out with whatever follows them: fewer round trips per transaction. A transaction
   * that ran no statement sends nothing at all.
   */
  private begin<T>(fn: (db: Db) => Promise<T>, token = { open: true }): Promise<T> {
    return withClient(this.pool, async (client) => {
      let begun = false;
      /** Sent, not yet waited for: waited for (their errors reported) with the next statement or the commit. */
      const unanswered: Promise<unknown>[] = [];
      const send = (sql: string, values?: readonly unknown[]): Promise<unknown>[] => {
        if (!token.open) throw new Error('store: this transaction has already ended');
        const begin = begun ? [] : [client.query('BEGIN')];
        begun = true;
        return [...unanswered.splice(0), ...begin, client.query(statement(sql, values))];
      };
      const db: Db = {
        inTransaction: true,
        query: async <R>(sql: string, values: readonly unknown[] = []) => {
          const answers = await Promise.all(send(sql, values)).catch(rethrow);
          const r = answers.at(-1) as pg.QueryResult;
          return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
        },
        write: async (sql, values = []) => {
          const sent = send(sql, values);
          // Handled here so it is never an unhandled rejection; the promise itself is waited for later.
          for (const p of sent) p.catch(noop);
          unanswered.push(...sent);
        },
        atomic: (inner) => inner(db),
      };
      try {
        const result = await fn(db);
        if (begun) await Promise.all(send('COMMIT')).catch(rethrow);
        return result;
      } catch (err) {
        // A dead connection cannot roll back (the server already did); its error is the one to report.
        if (begun && !isGone(err)) await client.query('ROLLBACK').catch(noop);
        throw err;
      } finally {
        token.open = false;
      }
    });
  }
}
