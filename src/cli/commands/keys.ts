// `bobina keys create | list | revoke`: long-lived API keys of an account. A key is printed once,
// when created; only its hash is stored, and listings show its id, name, age and first characters.
import { parse } from '../args.js';
import { EXIT, UsageError, type Command, type Io } from '../io.js';
import { dispatch, type Subcommand } from '../subcommands.js';
import { columns } from '../table.js';
import { STORE_OPTIONS, withAccount } from '../with-store.js';

/** `bob_` and 6 characters: enough to tell keys apart, ~36 of the key's 256 random bits. */
const PREFIX_LENGTH = 10;

async function create(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, name: { type: 'string' }, ...STORE_OPTIONS }, 0);
  if (!values.email) throw new UsageError('--email is required');
  const { newApiKey, sha256 } = await import('../../server/auth/secrets.js');
  return withAccount(values, values.email!, io, 'keys', async (store, account) => {
    const key = newApiKey();
    const created = await store.credentials.createApiKey({ accountId: account.id, name: values.name ?? 'default', keyHash: sha256(key), prefix: key.slice(0, PREFIX_LENGTH) });
    io.stdout.write(`${key}\n`);
    io.stderr.write(`API key ${created.id} created for ${account.email}; it is shown only this once.\n`);
    return EXIT.ok;
  });
}

async function list(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, json: { type: 'boolean' }, ...STORE_OPTIONS }, 0);
  if (!values.email) throw new UsageError('--email is required');
  return withAccount(values, values.email!, io, 'keys', async (store, account) => {
    const keys = (await store.credentials.listApiKeys(account.id)).map((k) => ({ id: k.id, name: k.name, created: k.createdAt.toISOString(), prefix: k.prefix }));
    if (values.json) io.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
    else io.stdout.write(columns(['ID', 'NAME', 'CREATED', 'PREFIX'], keys.map((k) => [k.id, k.name, k.created, k.prefix ? `${k.prefix}…` : '(not kept)'])));
    return EXIT.ok;
  });
}

async function revoke(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, id: { type: 'string' }, ...STORE_OPTIONS }, 0);
  if (!values.email || !values.id) throw new UsageError('--email and --id are required');
  return withAccount(values, values.email!, io, 'keys', async (store, account) => {
    if (!(await store.credentials.revokeApiKey(account.id, values.id!))) {
      io.stderr.write(`bobina keys: ${account.email} has no key ${values.id}\n`);
      return EXIT.failed;
    }
    io.stdout.write(`revoked key ${values.id} of ${account.email}\n`);
    return EXIT.ok;
  });
}

const SUBCOMMANDS: Record<string, Subcommand> = { create, list, revoke };

export const keysCommand: Command = {
  name: 'keys',
  usage: 'bobina keys create --email E [--name N] | list --email E [--json] | revoke --email E --id ID  [--db F | --database-url URL]',
  summary: 'API keys of an account: create one (printed once, stored hashed), list them (never the key), revoke one',
  run: dispatch(SUBCOMMANDS),
};
