// Opens the service database for one account command and always closes it. The store module is
// imported here, at run time, so commands that do not touch the database never load it.
import { storeChoice, type StoreChoice } from '../server/environment.js';
import type { Store } from '../server/store/repositories.js';
import type { Account } from '../server/store/types.js';
import { EXIT, UsageError, type Io } from './io.js';

/** The flags every command that opens the database takes. */
export const STORE_OPTIONS = { db: { type: 'string' }, 'database-url': { type: 'string' } } as const;

export interface StoreFlags {
  db?: string;
  databaseUrl?: string;
}

/** `--db FILE` (SQLite) or `--database-url URL` (PostgreSQL), never both; neither: DATABASE_URL, else BOBINA_DB. */
export function storeFlags(values: { db?: string | undefined; 'database-url'?: string | undefined }): StoreFlags {
  // An empty value (an unset shell variable: --db "$DB") is refused, not read as "no flag" (which would open ./bobina.sqlite).
  if (values.db === '') throw new UsageError('--db needs a file name (it was empty)');
  if (values['database-url'] === '') throw new UsageError('--database-url needs a URL (it was empty)');
  if (values.db && values['database-url']) throw new UsageError('--db and --database-url name two different stores: give one');
  return { ...(values.db ? { db: values.db } : {}), ...(values['database-url'] ? { databaseUrl: values['database-url'] } : {}) };
}

/**
 * The store the flags, else the environment, name (environment.ts storeChoice). What it refuses (an
 * empty BOBINA_DB) is the user's mistake, told as a usage error before anything is opened.
 */
export function chosenStore(flags: StoreFlags, env?: Parameters<typeof storeChoice>[1]): StoreChoice {
  try {
    return storeChoice(flags, env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export async function withStore<T>(values: { db?: string | undefined; 'database-url'?: string | undefined }, fn: (store: Store) => Promise<T>): Promise<T> {
  const flags = storeFlags(values);
  const choice = chosenStore(flags);
  const { openStore } = await import('../server/store/open.js');
  const store = await openStore(flags, choice);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The account with this e-mail, or undefined after saying so on stderr (the command then exits 1). */
export async function accountByEmail(store: Store, email: string, io: Io, command: string): Promise<Account | undefined> {
  const account = await store.accounts.findByEmail(email);
  if (!account) io.stderr.write(`bobina ${command}: no user with e-mail ${email}\n`);
  return account;
}

/** withStore with the account of this e-mail; without one, says so on stderr and exits 1. */
export function withAccount(
  values: { db?: string | undefined; 'database-url'?: string | undefined }, email: string, io: Io, command: string,
  fn: (store: Store, account: Account) => Promise<number>,
): Promise<number> {
  return withStore(values, async (store) => {
    const account = await accountByEmail(store, email, io, command);
    return account ? fn(store, account) : EXIT.failed;
  });
}
