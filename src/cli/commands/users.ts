// `bobina users add | list | passwd`: partner accounts in the service database (scrypt-hashed
// passwords, taken from a prompt or stdin rather than the command line).
import { parse } from '../args.js';
import { EXIT, UsageError, type Command, type Io } from '../io.js';
import { dispatch, type Subcommand } from '../subcommands.js';
import { PASSWORD_OPTIONS, readPassword } from '../password.js';
import { columns } from '../table.js';
import { STORE_OPTIONS, withAccount, withStore } from '../with-store.js';

const hash = async (password: string) => (await import('../../server/auth/secrets.js')).hashPassword(password);

async function add(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    email: { type: 'string' }, name: { type: 'string' }, ...PASSWORD_OPTIONS,
    meta: { type: 'string', multiple: true }, role: { type: 'string', multiple: true }, ...STORE_OPTIONS,
  }, 0);
  if (!values.email || !values.name) throw new UsageError('--email and --name are required');
  const metadata = (values.meta ?? []).map((m) => {
    const at = m.indexOf('=');
    if (at < 1) throw new UsageError(`--meta "${m}" is not key=value`);
    return { key: m.slice(0, at), value: m.slice(at + 1) };
  });
  const passwordHash = await hash(await readPassword(values, io, true));
  const { DuplicateError } = await import('../../server/store/types.js');
  return withStore(values, async (store) => {
    try {
      const user = await store.accounts.create({ email: values.email!, name: values.name!, passwordHash, metadata, roles: values.role ?? [] });
      io.stdout.write(`added user ${user.email} (id ${user.id})\n`);
      return EXIT.ok;
    } catch (err) {
      if (!(err instanceof DuplicateError)) throw err;
      io.stderr.write(`bobina users: ${err.message}\n`);
      return EXIT.failed;
    }
  });
}

async function list(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { json: { type: 'boolean' }, ...STORE_OPTIONS }, 0);
  const accounts = await withStore(values, (store) => store.accounts.list());
  const shown = accounts.map((a) => ({ id: a.id, email: a.email, name: a.name, roles: a.roles, created: a.createdAt.toISOString() }));
  if (values.json) io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  else io.stdout.write(columns(['ID', 'EMAIL', 'NAME', 'CREATED', 'ROLES'], shown.map((a) => [a.id, a.email, a.name, a.created, a.roles.join(',')])));
  return EXIT.ok;
}

/** A new password also ends every session of the account (access and refresh tokens); API keys stay. */
async function passwd(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, ...PASSWORD_OPTIONS, ...STORE_OPTIONS }, 0);
  if (!values.email) throw new UsageError('--email is required');
  return withAccount(values, values.email!, io, 'users', async (store, account) => {
    const passwordHash = await hash(await readPassword(values, io, true));
    const revoked = await store.transaction(async (tx) => {
      await tx.accounts.setPasswordHash(account.id, passwordHash);
      return tx.credentials.revokeTokens(account.id);
    });
    io.stdout.write(`password changed for ${account.email}; ${revoked} access and refresh tokens revoked (API keys still work)\n`);
    return EXIT.ok;
  });
}

const SUBCOMMANDS: Record<string, Subcommand> = { add, list, passwd };

export const usersCommand: Command = {
  name: 'users',
  usage: 'bobina users add --email E --name N [--password-stdin | --password P] [--meta key=value ...] [--role R ...] | list [--json] | passwd --email E [--password-stdin | --password P]  [--db F | --database-url URL]',
  summary: 'partner accounts: add one, list them, change a password (asked on the terminal unless given)',
  run: dispatch(SUBCOMMANDS),
};
