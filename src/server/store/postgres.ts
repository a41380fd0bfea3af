// The server store: PostgreSQL through a pg Pool, for several instances sharing one database.
// Each repository call outside a transaction is one statement on the pool; transaction(fn) is
// BEGIN … COMMIT on one pooled client. Connection failures become StoreUnavailableError
// (postgres/db.ts), and the pool replaces dead clients by itself when the database comes back.
import pg from 'pg';
import type { Repositories, Store } from './repositories.js';
import { Connections, storeError, type Db } from './postgres/db.js';
import { postgresExec } from './postgres/exec.js';
import { migrate } from './postgres/migrate.js';
import { pgSignals, signalChannel } from './postgres/signals.js';
import { parsePostgresUrl, quoteIdent } from './postgres/url.js';
import { repositories as on, ping } from './sql/repositories.js';

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** A statement running longer is cancelled by the server (default 10000 ms); reported as StoreUnavailableError. */
  statementTimeoutMs?: number;
  /** Waiting longer for a connection (new or from the pool) fails with StoreUnavailableError (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Told when an idle pooled connection fails (the pool drops it and carries on); default: nothing. */
  onIdleError?: (err: Error) => void;
}

const INT8 = 20;

/**
 * BIGINT columns (ids, millisecond times, counts) as numbers: every value bobina keeps is far
 * below 2^53. Set on this pool only, not on pg's global parsers, which an embedding app may own.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;

const repositories = (db: Db): Repositories => on(postgresExec(db));

/**
 * Opens (and migrates) the store at `url`; `?schema=NAME` puts every table in that schema,
 * created if missing.
 *
 * @example
 * const store = await openPostgresStore('postgres://bobina@127.0.0.1:5432/bobina?schema=bobina');
 */
export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<Store> {
  const target = parsePostgresUrl(url);
  const searchPath = target.schema === undefined ? [] : [`-c search_path=${quoteIdent(target.schema)}`];
  const connection: pg.ClientConfig = {
    connectionString: target.connectionString,
    statement_timeout: options.statementTimeoutMs ?? 10_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // Shown in pg_stat_activity; a URL's own application_name wins.
    application_name: 'bobina',
    ...(target.options !== undefined || searchPath.length > 0 ? { options: [target.options, ...searchPath].filter(Boolean).join(' ') } : {}),
    types,
  };
  // Pipelined: a transaction's BEGIN goes out with its first statement (postgres/db.ts).
  const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 10, pipeline: true });
  // An idle client whose connection dies is dropped by the pool; without a listener the 'error'
  // event would end the process.
  pool.on('error', (err) => options.onIdleError?.(storeError(err) as Error));
  // Every client listens for 'error' for its whole life. The pool removes its idle listener before
  // it hands a client to a waiting caller, who could add one only after its await: an error read in
  // between (PostgreSQL ending the connection) had no listener and ended the process. The failure
  // still reaches the caller, as its next statement's error.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const connections = new Connections(pool);
  try {
    await migrate(connections.db, target.schema);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  // Long-polls on every instance wake when any instance queues a job (jobs/jobs.ts).
  const signals = pgSignals({
    // Its own connection, outside the pool: a LISTEN lasts as long as the connection; keepAlive
    // finds a connection that died silently.
    client: () => new pg.Client({ ...connection, keepAlive: true }),
    query: (sql, params) => pool.query(sql, params),
    channel: signalChannel(target.schema),
  });
  let closed: Promise<void> | undefined;
  return {
    ...repositories(connections.db),
    signals,
    transaction: (fn) => connections.transaction((db) => fn(repositories(db))),
    ping: () => ping(postgresExec(connections.db)),
    connections: () => ({ max: pool.options.max ?? 10, open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    // Nothing to maintain: PostgreSQL vacuums and checkpoints by itself.
    workers: () => [],
    close() {
      // Waits for checked-out clients (a transaction in progress) to be released.
      closed ??= signals.close().then(() => pool.end());
      return closed;
    },
  };
}
