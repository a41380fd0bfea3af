// `bobina users add`: registers a partner account (scrypt-hashed password) in the service database.
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';

export const usersCommand: Command = {
  name: 'users',
  usage: 'bobina users add --email E --password P --name N [--meta key=value ...] [--role R ...] [--db F]',
  summary: 'add a partner account to the service database',
  async run(args, io) {
    if (args[0] !== 'add') throw new UsageError(args[0] ? `unknown subcommand "${args[0]}"` : 'missing subcommand "add"');
    const { values } = parse(args.slice(1), {
      email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' },
      meta: { type: 'string', multiple: true }, role: { type: 'string', multiple: true }, db: { type: 'string' },
    }, 0);
    if (!values.email || !values.password || !values.name) throw new UsageError('--email, --password and --name are required');
    const metadata = (values.meta ?? []).map((m) => {
      const at = m.indexOf('=');
      if (at < 1) throw new UsageError(`--meta "${m}" is not key=value`);
      return { key: m.slice(0, at), value: m.slice(at + 1) };
    });
    const [{ openStore }, { hashPassword }, { DuplicateError }] = await Promise.all([
      import('../../server/store/open.js'), import('../../server/auth/secrets.js'), import('../../server/store/types.js'),
    ]);
    const store = await openStore(values.db ? { db: values.db } : {});
    try {
      const user = await store.createUser({
        email: values.email, name: values.name, passwordHash: await hashPassword(values.password), metadata, roles: values.role ?? [],
      });
      io.stdout.write(`added user ${user.email} (id ${user.id})\n`);
      return EXIT.ok;
    } catch (err) {
      if (err instanceof DuplicateError) {
        io.stderr.write(`bobina users: ${err.message}\n`);
        return EXIT.failed;
      }
      throw err;
    } finally {
      await store.close();
    }
  },
};
