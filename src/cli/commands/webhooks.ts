// `bobina webhooks add | list | remove | rotate-secret | enable | log | replay`: an account's
// webhook endpoints (issue 12). A secret is printed once, by add and rotate-secret; listings never
// show one. Addresses and the number of endpoints are checked as the service checks them
// (BOBINA_WEBHOOKS_ALLOW_PRIVATE, BOBINA_WEBHOOKS_HTTP_HOSTS, BOBINA_WEBHOOKS_MAX_ENDPOINTS).
import { JOB_ID_PATTERN } from '../../delivery/job-id.js';
import { variablesOf, webhookPolicy } from '../../server/environment.js';
import { parse } from '../args.js';
import { EXIT, UsageError, type Command, type Io } from '../io.js';
import { dispatch, type Subcommand } from '../subcommands.js';
import { json } from '../printable.js';
import { columns } from '../table.js';
import { STORE_OPTIONS, withAccount } from '../with-store.js';

const DB = STORE_OPTIONS;
const server = () => import('../../server/webhooks/endpoints.js');

async function add(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, url: { type: 'string' }, event: { type: 'string', multiple: true }, ...DB }, 0);
  if (!values.email || !values.url) throw new UsageError('--email and --url are required');
  const { addEndpoint, chooseEvents, EndpointRefused, UnknownEvent } = await server();
  const { AddressRefused } = await import('../../server/webhooks/address-policy.js');
  const { DnsTimeout } = await import('../../server/webhooks/dns-gate.js');
  try {
    chooseEvents(values.event);
  } catch (err) {
    if (err instanceof UnknownEvent) throw new UsageError(err.message);
    throw err;
  }
  return withAccount(values, values.email!, io, 'webhooks', async (store, account) => {
    try {
      const { endpoint, secret } = await addEndpoint(store, account.id, values.url!, values.event, webhookPolicy());
      io.stdout.write(`${secret}\n`);
      io.stderr.write(`webhook ${endpoint.id} added for ${account.email} (${endpoint.events.join(', ')}); its secret is shown only this once.\n`);
      return EXIT.ok;
    } catch (err) {
      if (!(err instanceof AddressRefused) && !(err instanceof EndpointRefused) && !(err instanceof DnsTimeout)) throw err;
      io.stderr.write(err instanceof DnsTimeout ? `bobina webhooks: ${values.url} not added: ${err.message}; try again later\n` : `bobina webhooks: ${values.url} refused: ${err.message}\n`);
      return EXIT.failed;
    }
  });
}

async function list(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, json: { type: 'boolean' }, ...DB }, 0);
  if (!values.email) throw new UsageError('--email is required');
  const { endpointView } = await server();
  return withAccount(values, values.email!, io, 'webhooks', async (store, account) => {
    const shown = (await store.webhooks.listEndpoints(account.id)).map(endpointView);
    if (values.json) io.stdout.write(`${json(shown)}\n`);
    else {
      const state = (e: (typeof shown)[number]) => (e.enabled ? (e.failingSince ? `failing since ${e.failingSince}` : 'enabled') : `disabled (${e.disabledReason ?? 'operator'})`);
      io.stdout.write(columns(['ID', 'STATE', 'EVENTS', 'URL'], shown.map((e) => [e.id, state(e), e.events.join(','), e.url])));
    }
    return EXIT.ok;
  });
}

/** The account and the endpoint `--id` names, or an exit code after saying what is missing. */
async function endpointCommand(args: string[], io: Io, extra: Parameters<typeof parse>[1], fn: (store: import('../../server/store/repositories.js').Store, accountId: string, id: string, values: Record<string, unknown>) => Promise<number>) {
  const { values } = parse(args, { email: { type: 'string' }, id: { type: 'string' }, ...extra, ...DB }, 0);
  if (typeof values.email !== 'string' || typeof values.id !== 'string') throw new UsageError('--email and --id are required');
  const email = values.email;
  const id = values.id;
  return withAccount(values, email, io, 'webhooks', async (store, account) => {
    return fn(store, account.id, id, values);
  });
}

const noEndpoint = (io: Io, id: string) => {
  io.stderr.write(`bobina webhooks: no webhook ${id} in this account\n`);
  return EXIT.failed;
};

const remove = (args: string[], io: Io) => endpointCommand(args, io, {}, async (store, accountId, id) => {
  if (!(await store.webhooks.removeEndpoint(accountId, id))) return noEndpoint(io, id);
  io.stdout.write(`removed webhook ${id}\n`);
  return EXIT.ok;
});

/** A new secret; with --expire-previous the earlier ones stop signing at once (a leaked secret), else they sign 24 hours more. */
const rotateSecret = (args: string[], io: Io) => endpointCommand(args, io, { 'expire-previous': { type: 'boolean' } }, async (store, accountId, id, values) => {
  const now = values['expire-previous'] === true;
  const rotated = await (await server()).rotateEndpointSecret(store, accountId, id, now ? 0 : undefined);
  if (!rotated) return noEndpoint(io, id);
  io.stdout.write(`${rotated.secret}\n`);
  io.stderr.write(`webhook ${id}: new secret, shown only this once; ${now ? 'the previous ones no longer sign' : 'the previous one keeps signing for 24 hours'}.\n`);
  return EXIT.ok;
});

/** Re-enables an endpoint (after a 410 Gone, or --disable to pause one). */
const enable = (args: string[], io: Io) => endpointCommand(args, io, { disable: { type: 'boolean' } }, async (store, accountId, id, values) => {
  const on = values.disable !== true;
  if (!(await store.webhooks.setEnabled(accountId, id, on, on ? null : 'operator'))) return noEndpoint(io, id);
  io.stdout.write(`webhook ${id} ${on ? 'enabled' : 'disabled'}\n`);
  return EXIT.ok;
});

async function log(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    email: { type: 'string' }, id: { type: 'string' }, message: { type: 'string' }, intention: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' }, ...DB,
  }, 0);
  if (!values.email) throw new UsageError('--email is required');
  if (values.intention !== undefined && !new RegExp(JOB_ID_PATTERN).test(values.intention)) throw new UsageError(`--intention "${values.intention}" is not an id`);
  if (values.limit !== undefined && (!/^\d{1,4}$/.test(values.limit) || Number(values.limit) === 0)) throw new UsageError(`--limit "${values.limit}" is not a number from 1 to 9999`);
  const { attemptView } = await server();
  return withAccount(values, values.email!, io, 'webhooks', async (store, account) => {
    const attempts = (await store.webhooks.listAttempts(account.id, {
      limit: Number(values.limit ?? 100),
      ...(values.id ? { endpointId: values.id } : {}), ...(values.message ? { messageId: values.message } : {}),
      ...(values.intention ? { intencaoImpressaoId: Number(values.intention) } : {}),
    })).map(attemptView);
    if (values.json) io.stdout.write(`${json(attempts)}\n`);
    else {
      io.stdout.write(columns(['TIME', 'MESSAGE', 'WEBHOOK', 'INTENTION', 'STATUS', 'LATENCY', 'NOW', 'ERROR'], attempts.map((a) => [
        a.at, a.messageId, a.webhookId ?? '(urlCallback)', String(a.intencaoImpressaoId), a.statusCode === null ? '-' : String(a.statusCode),
        `${a.latencyMs} ms`, a.messageState, a.error ?? '',
      ])));
    }
    return EXIT.ok;
  });
}

async function replay(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, { email: { type: 'string' }, message: { type: 'string' }, ...DB }, 0);
  if (!values.email || !values.message) throw new UsageError('--email and --message are required');
  return withAccount(values, values.email!, io, 'webhooks', async (store, account) => {
    const message = await store.webhooks.replay(account.id, values.message!, new Date());
    if (!message) {
      // Not replayed: no such message, or its endpoint was removed (as POST /Webhook/Replay tells them apart).
      const found = await store.webhooks.getMessage(account.id, values.message!);
      io.stderr.write(found
        ? `bobina webhooks: message ${found.id} cannot be sent again: its webhook ${found.endpointId} was removed\n`
        : `bobina webhooks: no message ${values.message} in this account\n`);
      return EXIT.failed;
    }
    io.stdout.write(`message ${message.id} queued again (same webhook-id); a running service sends it within its poll interval\n`);
    return EXIT.ok;
  });
}

const SUBCOMMANDS: Record<string, Subcommand> = { add, list, remove, 'rotate-secret': rotateSecret, enable, log, replay };

export const webhooksCommand: Command = {
  name: 'webhooks',
  usage: 'bobina webhooks add --email E --url U [--event completed|failed|canceled|expired|stopped|terminal.offline|terminal.online|printer.status|job.stuck ...] | list --email E [--json] | remove --email E --id ID | rotate-secret --email E --id ID [--expire-previous] | enable --email E --id ID [--disable] | log --email E [--id ID] [--message M] [--intention N] [--limit N] [--json] | replay --email E --message M  [--db F | --database-url URL]',
  summary: `end-of-job webhook endpoints of an account: add one (secret printed once), list, remove, rotate its secret, re-enable, see delivery attempts, replay a message (env ${variablesOf('webhooks').join(', ')})`,
  run: dispatch(SUBCOMMANDS),
};
