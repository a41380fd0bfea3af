// Every repository, written once, on one backend's Exec (sqlite/dialect.ts, postgres/dialect.ts).
import type { Repositories } from '../repositories.js';
import { accounts } from './accounts.js';
import { credentials } from './credentials.js';
import type { Exec } from './exec.js';
import { intentions } from './intentions.js';
import { loginAttempts } from './login-attempts.js';
import { sql } from './statement.js';
import { terminals } from './terminals.js';
import { webhooks } from './webhooks.js';

export const repositories = (x: Exec): Repositories => ({
  accounts: accounts(x),
  terminals: terminals(x),
  credentials: credentials(x),
  intentions: intentions(x),
  loginAttempts: loginAttempts(x),
  webhooks: webhooks(x),
});

/** One cheap statement that needs the database and bobina's schema in it (Store.ping). */
export async function ping(x: Exec): Promise<void> {
  await x.all(sql`SELECT 1 AS up FROM schema_migrations LIMIT 1`);
}
