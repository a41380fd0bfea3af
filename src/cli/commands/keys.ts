// `bobina keys create`: a long-lived API key for an account, printed once; only its hash is stored.
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';

export const keysCommand: Command = {
  name: 'keys',
  usage: 'bobina keys create --email E [--name N] [--db F]',
  summary: 'create an API key for an account (printed once, stored hashed)',
  async run(args, io) {
    if (args[0] !== 'create') throw new UsageError(args[0] ? `unknown subcommand "${args[0]}"` : 'missing subcommand "create"');
    const { values } = parse(args.slice(1), { email: { type: 'string' }, name: { type: 'string' }, db: { type: 'string' } }, 0);
    if (!values.email) throw new UsageError('--email is required');
    const [{ openStore }, { newApiKey, sha256 }] = await Promise.all([import('../../server/store/open.js'), import('../../server/auth/secrets.js')]);
    const store = await openStore(values.db ? { db: values.db } : {});
    try {
      const user = await store.findUserByEmail(values.email);
      if (!user) {
        io.stderr.write(`bobina keys: no user with e-mail ${values.email}\n`);
        return EXIT.failed;
      }
      const key = newApiKey();
      await store.createApiKey(user.id, values.name ?? 'default', sha256(key));
      io.stdout.write(`${key}\n`);
      io.stderr.write(`API key created for ${user.email}; it is shown only this once.\n`);
      return EXIT.ok;
    } finally {
      await store.close();
    }
  },
};
