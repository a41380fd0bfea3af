// `bobina terminals add`: links a terminal of an account to a printer template (adds or replaces).
import { loadProfile } from '../../index.js';
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';
import { accountByEmail, withStore } from '../with-store.js';

export const terminalsCommand: Command = {
  name: 'terminals',
  usage: 'bobina terminals add --email E --terminal ID --printer <id|code> [--disabled] [--db F]',
  summary: "link an account's terminal to a printer template",
  async run(args, io) {
    if (args[0] !== 'add') throw new UsageError(args[0] ? `unknown subcommand "${args[0]}"` : 'missing subcommand "add"');
    const { values } = parse(args.slice(1), {
      email: { type: 'string' }, terminal: { type: 'string' }, printer: { type: 'string' }, disabled: { type: 'boolean' }, db: { type: 'string' },
    }, 0);
    if (!values.email || !values.terminal || values.printer === undefined) throw new UsageError('--email, --terminal and --printer are required');
    let profile;
    try {
      profile = loadProfile(values.printer);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    return withStore(values.db, async (store) => {
      const user = await accountByEmail(store, values.email!, io, 'terminals');
      if (!user) return EXIT.failed;
      await store.terminals.put({ accountId: user.id, terminalId: values.terminal!, printerId: profile.id, enabled: !values.disabled });
      io.stdout.write(`terminal ${values.terminal} of ${user.email} prints on ${profile.code} (id ${profile.id})${values.disabled ? ', printing disabled' : ''}\n`);
      return EXIT.ok;
    });
  },
};
