// `bobina agent --url URL --key KEY --terminal ID --device <tcp://host:port|file:PATH|-> [--state-dir DIR]`:
// a terminal's client. Long-polls the service for the terminal's next job, asks the printer for its
// status, writes the bytes, reports, and says it is there with its printer's state (--heartbeat); a
// durable journal in the state directory makes a re-offered job
// (lost report, expired lease, a restart of either side) be reported, never printed again. Runs
// until SIGINT/SIGTERM. The key may come from BOBINA_TERMINAL_KEY instead (not seen in `ps`).
import { parse } from '../args.js';
import { EXIT, UsageError, type Command } from '../io.js';
import { terminalKey } from '../../server/environment.js';
import { untilSignal } from '../signals.js';

/** localhost, 127.0.0.0/8 or ::1: plain http never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

export const agentCommand: Command = {
  name: 'agent',
  usage: 'bobina agent --url <service URL> --key <terminal key> --terminal <id> --device <tcp://host:port|file:PATH|-> [--state-dir DIR] [--wait 30] [--retry-ms 1000] [--confirm-timeout 30] [--heartbeat 15]',
  summary: "a terminal's client: takes its jobs from the service (long-poll), prints them exactly once (journal in --state-dir), reports (env BOBINA_TERMINAL_KEY)",
  async run(args, io) {
    const { values } = parse(args, {
      url: { type: 'string' }, key: { type: 'string' }, terminal: { type: 'string' }, device: { type: 'string' }, 'state-dir': { type: 'string' },
      wait: { type: 'string' }, 'retry-ms': { type: 'string' }, 'confirm-timeout': { type: 'string' }, heartbeat: { type: 'string' },
    }, 0);
    const key = values.key ?? terminalKey();
    if (!values.url || !key || !values.terminal || !values.device) throw new UsageError('--url, --key (or BOBINA_TERMINAL_KEY), --terminal and --device are required');
    let url: URL;
    try {
      url = new URL(values.url);
    } catch {
      throw new UsageError(`invalid --url "${values.url}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`invalid --url "${values.url}": the service is reached over http:// or https://`);
    const wait = values.wait === undefined ? 30 : Number(values.wait);
    if (!(wait >= 0 && wait <= 60)) throw new UsageError(`invalid --wait "${values.wait}": seconds, 0 to 60`);
    const retryMs = values['retry-ms'] === undefined ? 1000 : Number(values['retry-ms']);
    if (!(Number.isInteger(retryMs) && retryMs >= 10)) throw new UsageError(`invalid --retry-ms "${values['retry-ms']}": milliseconds, at least 10`);
    const confirmTimeout = values['confirm-timeout'] === undefined ? 30 : Number(values['confirm-timeout']);
    if (!(confirmTimeout > 0 && confirmTimeout <= 600)) throw new UsageError(`invalid --confirm-timeout "${values['confirm-timeout']}": seconds, more than 0 and at most 600`);
    // The heartbeat (Sinal) while idle, with the printer's state: at most this many seconds apart,
    // and as often as the service asks when that is more often (its own --heartbeat, said with every poll).
    const heartbeat = values.heartbeat === undefined ? 15 : Number(values.heartbeat);
    if (!(heartbeat > 0 && heartbeat <= 3600)) throw new UsageError(`invalid --heartbeat "${values.heartbeat}": seconds, more than 0 and at most 3600`);
    const { parseDevice } = await import('../../delivery/address.js');
    try {
      parseDevice(values.device);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const { Journal } = await import('../../delivery/journal.js');
    const { DeliveryLoop } = await import('../../delivery/loop.js');
    const { httpLink } = await import('../../delivery/http-link.js');
    const { join } = await import('node:path');
    const stateDir = values['state-dir'] ?? join('.bobina-agent', encodeURIComponent(values.terminal));
    // With --device -, stdout carries the jobs' bytes: every line of the agent's own goes to stderr,
    // each with the time it was written.
    const say = (line: string) => io.stderr.write(`${new Date().toISOString()} bobina agent: ${line}\n`);
    if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
      say(`warning: ${url.host} is reached over plain http: the terminal key and every job travel unencrypted; use https (or a tunnel) for anything but this machine`);
    }
    // Another agent on this state directory (the old one, still stopping) is waited for, not fought:
    // its lock goes once it has gone (a dead or zombie holder's at once).
    const waiting = new AbortController();
    const opening = Journal.openWhenFree(stateDir, {
      signal: waiting.signal,
      onWait: (err) => say(`${err.message} (another agent on this state directory?); waiting for it to stop`),
    });
    await untilSignal(async () => waiting.abort(), opening);
    const journal = await opening;
    if (!journal) {
      say('stopped');
      return EXIT.ok;
    }
    const loop = new DeliveryLoop(httpLink({ url: values.url, key, terminal: values.terminal }), {
      device: values.device, journal, waitMs: wait * 1000, retryMs, log: say, printer: { confirmTimeoutMs: Math.round(confirmTimeout * 1000) },
      heartbeatMs: Math.round(heartbeat * 1000),
    });
    say(`terminal ${values.terminal}: taking jobs from ${values.url}, printing to ${values.device} (journal in ${stateDir})`);
    let failure: Error | undefined;
    await untilSignal(() => loop.stop(), loop.start().catch((err: Error) => {
      failure = err;
    }));
    journal.close();
    if (failure) {
      say(`the service refused this client: ${failure.message}`);
      return EXIT.failed;
    }
    say('stopped');
    return EXIT.ok;
  },
};
