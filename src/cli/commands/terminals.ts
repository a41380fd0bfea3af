// `bobina terminals add | list | rotate-key`: an account's terminals. `add` links a terminal to a printer
// template (or to none: each Insert then names one with codigoImpressora), optionally with a device
// the service delivers to itself (--device), or taking the account's jobs that name no terminal
// (--template-jobs); `--print-key` issues the terminal's own key for its client (`bobina agent`),
// printed once, alone on the last line of stdout, stored hashed. `list` shows them (never a key);
// `rotate-key` replaces the key; `status` shows their health (online, printer, queue: GET /Terminal/GetAll's view).
import { loadProfile } from '../../index.js';
import { variablesOf } from '../../server/environment.js';
import { terminalIdRefusal } from '../../server/terminal-id.js';
import { parse } from '../args.js';
import { EXIT, UsageError, type Command, type Io } from '../io.js';
import { dispatch, type Subcommand } from '../subcommands.js';
import { json } from '../printable.js';
import { columns } from '../table.js';
import { accountByEmail, STORE_OPTIONS, withAccount, withStore } from '../with-store.js';

/** `bobt_` and 6 characters: enough to tell keys apart in a listing. */
const PREFIX_LENGTH = 11;

async function add(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    email: { type: 'string' }, terminal: { type: 'string' }, printer: { type: 'string' }, disabled: { type: 'boolean' }, ...STORE_OPTIONS,
    device: { type: 'string' }, 'template-jobs': { type: 'boolean' }, 'print-key': { type: 'boolean' },
  }, 0);
  if (!values.email || !values.terminal) throw new UsageError('--email and --terminal are required');
  const refused = terminalIdRefusal(values.terminal);
  if (refused) throw new UsageError(`--terminal: ${refused}`);
  let profile: ReturnType<typeof loadProfile> | undefined;
  if (values.printer !== undefined) {
    try {
      profile = loadProfile(values.printer);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (values.device !== undefined) {
    const { parseDevice } = await import('../../delivery/address.js');
    try {
      const d = parseDevice(values.device);
      if (d.kind === 'stdout') throw new UsageError('--device - (stdout) is for `bobina agent`; the service delivers to tcp://host:port or file:PATH');
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  return withAccount(values, values.email!, io, 'terminals', async (store, user) => {
    await store.terminals.put({
      accountId: user.id, terminalId: values.terminal!, printerId: profile ? profile.id : null, enabled: !values.disabled,
      device: values.device ?? null, templateJobs: values['template-jobs'] === true,
    });
    const prints = profile ? `prints on ${profile.code} (id ${profile.id})` : 'has no linked printer (each Insert names one with codigoImpressora)';
    const extras = [
      values.disabled ? 'printing disabled' : '',
      values.device ? `delivered by the service to ${values.device}` : '',
      values['template-jobs'] ? 'takes the account\'s template jobs' : '',
    ].filter(Boolean);
    const line = `terminal ${values.terminal} of ${user.email} ${prints}${extras.length ? `, ${extras.join(', ')}` : ''}\n`;
    io.stdout.write(line);
    return values['print-key'] ? issueKey(store, user.id, values.terminal!, io) : EXIT.ok;
  });
}

async function list(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, json: { type: 'boolean' }, ...STORE_OPTIONS }, 0);
  if (!values.email) throw new UsageError('--email is required');
  return withAccount(values, values.email!, io, 'terminals', async (store, user) => {
    const terminals = (await store.terminals.list(user.id)).map((t) => ({
      terminal: t.terminalId,
      printer: t.printerId === null ? null : loadProfile(String(t.printerId)).code,
      enabled: t.enabled,
      device: t.device ?? null,
      templateJobs: t.templateJobs === true,
    }));
    if (values.json) io.stdout.write(`${json(terminals)}\n`);
    else {
      io.stdout.write(columns(['TERMINAL', 'PRINTER', 'ENABLED', 'TEMPLATE JOBS', 'DEVICE'], terminals.map((t) => [
        t.terminal, t.printer ?? '(none)', t.enabled ? 'yes' : 'no', t.templateJobs ? 'yes' : 'no', t.device ?? '-',
      ])));
    }
    return EXIT.ok;
  });
}

async function issueKey(store: import('../../server/store/repositories.js').Store, accountId: string, terminalId: string, io: Io): Promise<number> {
  const { newTerminalKey, sha256 } = await import('../../server/auth/secrets.js');
  const key = newTerminalKey();
  await store.credentials.setTerminalKey(accountId, terminalId, sha256(key), key.slice(0, PREFIX_LENGTH));
  io.stderr.write(`key of terminal ${terminalId} issued (any earlier one no longer works); it is shown only this once.\n`);
  io.stdout.write(`${key}\n`);
  return EXIT.ok;
}

async function rotateKey(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, terminal: { type: 'string' }, ...STORE_OPTIONS }, 0);
  if (!values.email || !values.terminal) throw new UsageError('--email and --terminal are required');
  return withAccount(values, values.email!, io, 'terminals', async (store, user) => {
    if (!(await store.terminals.find(user.id, values.terminal!))) {
      io.stderr.write(`bobina terminals: ${user.email} has no terminal ${values.terminal}\n`);
      return EXIT.failed;
    }
    return issueKey(store, user.id, values.terminal!, io);
  });
}

/**
 * The fleet view from the database: one account's terminals (--user) or every account's, online by
 * the service's rule (--heartbeat and --offline-grace, else BOBINA_HEARTBEAT and BOBINA_OFFLINE_GRACE, as serve reads them).
 */
async function status(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    user: { type: 'string' }, json: { type: 'boolean' }, heartbeat: { type: 'string' }, 'offline-grace': { type: 'string' }, ...STORE_OPTIONS,
  }, 0);
  const { fleetTiming } = await import('./serve.js');
  const { processEnvironment } = await import('../../server/environment.js');
  const { healthView } = await import('../../server/fleet/view.js');
  const { DEFAULT_FLEET_SETTINGS } = await import('../../server/fleet/settings.js');
  const settings = { ...DEFAULT_FLEET_SETTINGS, ...fleetTiming(values, processEnvironment()) };
  return withStore(values, async (store) => {
    const account = values.user === undefined ? undefined : await accountByEmail(store, values.user, io, 'terminals');
    if (values.user !== undefined && !account) return EXIT.failed;
    const emails = new Map((account ? [account] : await store.accounts.list()).map((a) => [a.id, a.email]));
    const now = new Date();
    const shown = (await store.terminals.health(account ? { accountId: account.id } : {}))
      .map((t) => ({ email: emails.get(t.accountId) ?? t.accountId, ...healthView(t, now, settings, (d) => d.toISOString()) }));
    if (values.json) io.stdout.write(`${json(shown)}\n`);
    else {
      const age = (s: number | null) => (s === null ? '-' : s < 120 ? `${s}s` : s < 7200 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`);
      io.stdout.write(columns(['USER', 'TERMINAL', 'ONLINE', 'LAST CONTACT', 'AGENT', 'PRINTER', 'QUEUE', 'OLDEST'], shown.map((t) => [
        t.email, t.terminalId, t.online ? 'yes' : 'no', t.ultimoContato ?? 'never', t.versaoAgente ?? '-',
        t.impressora.pronta === null ? 'unknown' : `${t.impressora.pronta ? 'ready' : 'not ready'}${t.impressora.motivos.length ? ` (${t.impressora.motivos.join(', ')})` : ''}`,
        String(t.fila.profundidade), age(t.fila.idadeMaisAntigaSegundos),
      ])));
    }
    return EXIT.ok;
  });
}

const SUBCOMMANDS: Record<string, Subcommand> = { add, list, 'rotate-key': rotateKey, status };

export const terminalsCommand: Command = {
  name: 'terminals',
  usage: 'bobina terminals add --email E --terminal ID [--printer <id|code>] [--device tcp://host:port|file:PATH] [--template-jobs] [--print-key] [--disabled] [--db F | --database-url URL] | list --email E [--json] [--db F | --database-url URL] | rotate-key --email E --terminal ID [--db F | --database-url URL] | status [--user E] [--json] [--heartbeat 15s] [--offline-grace 5s] [--db F | --database-url URL]',
  summary: `an account's terminals: link one to a printer template (or none), a device the service prints to, template jobs; list them; issue or replace a key (printed once, last line); their health: online, printer, queue (status; env ${variablesOf('terminals').join(', ')})`,
  run: dispatch(SUBCOMMANDS),
};
