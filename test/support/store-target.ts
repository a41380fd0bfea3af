// Which store the service tests run on. vitest.config.ts runs the service suite twice: the `sqlite`
// project (the default) and the `postgres` project, which sets BOBINA_TEST_STORE=postgres. A test
// asks for a fresh database here and gets, on SQLite, a new file in its own temp dir, and on
// PostgreSQL, a new schema of database `test` (dropped by `drop()`), so parallel runs never collide.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../src/server/store/repositories.js';

export type StoreKind = 'sqlite' | 'postgres';

export const STORE_KIND: StoreKind = process.env.BOBINA_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  kind: StoreKind;
  /** The SQLite file, or the PostgreSQL URL (with `?schema=`): open it again as a second process would. */
  location: string;
  /** The CLI flags that select it: `--db FILE` or `--database-url URL`. */
  flags: string[];
  /** A temp dir of this database's own (journals, receivers' files); removed by drop(). */
  dir: string;
  open(): Promise<Store>;
  /** Removes the database and the dir. */
  drop(): Promise<void>;
}

async function openAt(kind: StoreKind, location: string): Promise<Store> {
  if (kind === 'postgres') return (await import('../../src/server/store/postgres.js')).openPostgresStore(location);
  return (await import('../../src/server/store/sqlite.js')).openSqliteStore(location);
}

function at(kind: StoreKind, location: string, dir: string, owned: boolean): TestDatabase {
  return {
    kind, location, dir,
    flags: kind === 'postgres' ? ['--database-url', location] : ['--db', location],
    open: () => openAt(kind, location),
    drop: async () => {
      if (!owned) return;
      if (kind === 'postgres') await (await import('./postgres.js')).dropSchema(location);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new, empty database on the store this run tests (migrations run when it is first opened). */
export async function freshDatabase(prefix = 'bobina-test-'): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Loaded only on PostgreSQL runs: it connects once to see whether the server answers.
  const location = STORE_KIND === 'postgres' ? (await import('./postgres.js')).freshSchemaUrl() : join(dir, 'db.sqlite');
  return at(STORE_KIND, location, dir, true);
}

/** The database at `location` again (a second process on it); drop() leaves it to its owner. */
export function sameDatabase(location: string): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'bobina-same-'));
  return { ...at(STORE_KIND, location, dir, false), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The environment for a CLI child process: no DATABASE_URL leaking in from the caller's shell (an
 * empty one is taken as unset), and an empty BOBINA_DB, refused (exit 2), so a child not given a
 * store flag fails rather than opening the caller's database.
 */
export const CHILD_ENV = { DATABASE_URL: '', BOBINA_DB: '', BOBINA_METRICS_TOKEN: '', BOBINA_METRICS_PORT: '' };
