// `bobina users add | set | list | passwd`: partner accounts in the service database (scrypt-hashed
// passwords, taken from a prompt or stdin rather than the command line; `--tags partner` makes only
// the partner's eight tags commands in the account's Inserts, as compile's `tags: 'partner'`).
import type { TagSet } from '../../parse/tags.js';
import { parse } from '../args.js';
import { EXIT, UsageError, type Command, type Io } from '../io.js';
import { dispatch, type Subcommand } from '../subcommands.js';
import { PASSWORD_OPTIONS, readPassword } from '../password.js';
import { json, quoted } from '../printable.js';
import { columns } from '../table.js';
import { STORE_OPTIONS, withAccount, withStore } from '../with-store.js';

/** `--tags`: 'all' (every tag bobina knows) or 'partner' (only the partner's eight). */
function tagsOption(value: string | undefined): TagSet | undefined {
  if (value === undefined || value === 'all' || value === 'partner') return value;
  throw new UsageError(`--tags must be all or partner, not "${value}"`);
}

const hash = async (password: string) => (await import('../../server/auth/secrets.js')).hashPassword(password);

async function add(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    email: { type: 'string' }, name: { type: 'string' }, ...PASSWORD_OPTIONS,
    meta: { type: 'string', multiple: true }, role: { type: 'string', multiple: true }, tags: { type: 'string' }, ...STORE_OPTIONS,
  }, 0);
  if (!values.email || !values.name) throw new UsageError('--email and --name are required');
  const { emailRefusal } = await import('../../server/auth/email.js');
  const refused = emailRefusal(values.email);
  if (refused) throw new UsageError(`--email ${quoted(values.email)} ${refused}`);
  const tags = tagsOption(values.tags) ?? 'all';
  const metadata = (values.meta ?? []).map((m) => {
    const at = m.indexOf('=');
    if (at < 1) throw new UsageError(`--meta "${m}" is not key=value`);
    return { key: m.slice(0, at), value: m.slice(at + 1) };
  });
  const passwordHash = await hash(await readPassword(values, io, true));
  const { DuplicateError } = await import('../../server/store/types.js');
  return withStore(values, async (store) => {
    try {
      const user = await store.accounts.create({ email: values.email!, name: values.name!, passwordHash, metadata, roles: values.role ?? [], tags });
      io.stdout.write(`added user ${user.email} (id ${user.id})${tags === 'partner' ? '; tags: partner' : ''}\n`);
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
  const shown = accounts.map((a) => ({ id: a.id, email: a.email, name: a.name, roles: a.roles, tags: a.tags, created: a.createdAt.toISOString() }));
  if (values.json) io.stdout.write(`${json(shown)}\n`);
  else io.stdout.write(columns(['ID', 'EMAIL', 'NAME', 'CREATED', 'ROLES', 'TAGS'], shown.map((a) => [a.id, a.email, a.name, a.created, a.roles.join(','), a.tags])));
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

/** `--stuck-after`: seconds a job may wait before it is announced stuck (job.stuck); `default`: the service's 5 min. */
function stuckAfterOption(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default') return null;
  const seconds = Number(value);
  const ms = Math.round(seconds * 1000);
  // Checked as stored (whole milliseconds): 0.0001 s would be 0 ms.
  if (!(ms >= 1 && seconds <= 30 * 86_400)) throw new UsageError(`--stuck-after must be seconds (at least 0.001, at most 30 days) or default, not "${value}"`);
  return ms;
}

/** Changes an account's settings: `--tags all|partner` (its next Inserts), `--stuck-after <seconds>` (job.stuck). */
async function set(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, tags: { type: 'string' }, 'stuck-after': { type: 'string' }, ...STORE_OPTIONS }, 0);
  if (!values.email) throw new UsageError('--email is required');
  const tags = tagsOption(values.tags);
  const stuckAfter = stuckAfterOption(values['stuck-after']);
  if (!tags && stuckAfter === undefined) throw new UsageError('nothing to set: give --tags all|partner or --stuck-after <seconds>|default');
  return withAccount(values, values.email!, io, 'users', async (store, account) => {
    if (tags) {
      await store.accounts.setTags(account.id, tags);
      io.stdout.write(`tags for ${account.email}: ${tags}\n`);
    }
    if (stuckAfter !== undefined) {
      await store.accounts.setStuckAfter(account.id, stuckAfter);
      io.stdout.write(`jobs of ${account.email} are stuck after ${stuckAfter === null ? 'the default (300 s)' : `${stuckAfter / 1000} s`}\n`);
    }
    return EXIT.ok;
  });
}

const SUBCOMMANDS: Record<string, Subcommand> = { add, set, list, passwd };

export const usersCommand: Command = {
  name: 'users',
  usage: 'bobina users add --email E --name N [--password-stdin | --password P] [--meta key=value ...] [--role R ...] [--tags all|partner] | set --email E [--tags all|partner] [--stuck-after SECONDS|default] | list [--json] | passwd --email E [--password-stdin | --password P]  [--db F | --database-url URL]',
  summary: "partner accounts: add one, set which tags its Inserts may use (--tags partner: only the partner's eight) or when its jobs are stuck (--stuck-after), list them, change a password (asked on the terminal unless given)",
  run: dispatch(SUBCOMMANDS),
};
