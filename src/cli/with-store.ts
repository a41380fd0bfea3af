// Opens the service database for one account command and always closes it. The store module is
// imported here, at run time, so commands that do not touch the database never load it.
import type { Store } from '../server/store/repositories.js';
import type { Account } from '../server/store/types.js';
import type { Io } from './io.js';

export async function withStore<T>(db: string | undefined, fn: (store: Store) => Promise<T>): Promise<T> {
  const { openStore } = await import('../server/store/open.js');
  const store = await openStore(db ? { db } : {});
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
