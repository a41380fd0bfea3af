// Direct delivery: the service itself is the client of every enabled terminal registered with a
// device address (`bobina terminals add … --device tcp://host:port`), for the embedded setup where
// the service runs in the shop. Each such terminal gets the agent's own loop (delivery/loop.ts)
// and its own journal, talking to the job use cases in process (jobs/in-process-link.ts) instead of
// over HTTP; app.ts hands it that link and the terminals, so nothing here reaches into jobs/ or
// store/. Terminals added, changed or disabled while the service runs are picked up within seconds.
import { join } from 'node:path';
import { Journal, JournalLockedError } from '../../delivery/journal.js';
import { DeliveryLoop, type TerminalLink } from '../../delivery/loop.js';
import type { BackgroundWorker, WorkerLog } from './worker.js';

const RESCAN_MS = 3000;

/** A terminal the service delivers to itself. */
export interface DeviceTerminal {
  accountId: string;
  terminalId: string;
  device?: string | null;
}

/** What direct delivery needs of the service: its terminals with a device, and a link acting as one of them. */
export interface DirectDeliveryPorts {
  terminalsWithDevice(): Promise<DeviceTerminal[]>;
  linkFor(terminal: { accountId: string; terminalId: string }): TerminalLink;
}

interface Running {
  device: string;
  loop: DeliveryLoop;
  journal: Journal;
  done: Promise<void>;
}

export function directDelivery(ports: DirectDeliveryPorts, stateDir: string, options: { retryMs?: number; waitMs?: number; heartbeatMs?: number } = {}): BackgroundWorker {
  const running = new Map<string, Running>();
  /** Terminals whose journal another live process holds, and that holder (to say it once). */
  const waitingOn = new Map<string, number | undefined>();
  let timer: NodeJS.Timeout | undefined;
  let log: WorkerLog;
  let stopped = false;
  let scanning: Promise<void> | undefined;

  const keyOf = (t: DeviceTerminal) => `${t.accountId}\u0000${t.terminalId}`;

  async function stopOne(key: string) {
    const r = running.get(key);
    if (!r) return;
    running.delete(key);
    await r.loop.stop();
    r.journal.close();
  }

  async function scan() {
    const wanted = new Map((await ports.terminalsWithDevice()).map((t) => [keyOf(t), t]));
    for (const [key, r] of running) if (wanted.get(key)?.device !== r.device) await stopOne(key);
    for (const [key, t] of wanted) {
      if (running.has(key) || stopped) continue;
      const dir = join(stateDir, encodeURIComponent(t.accountId), encodeURIComponent(t.terminalId));
      let journal: Journal;
      try {
        journal = Journal.open(dir);
        waitingOn.delete(key);
      } catch (err) {
        // Another live process delivers to this terminal with this journal: said once, tried again
        // at every scan (a dead or zombie holder's lock is taken over at once).
        if (err instanceof JournalLockedError) {
          if (waitingOn.get(key) !== err.holder) log.warn({ terminalId: t.terminalId, holder: err.holder }, `direct delivery: ${err.message}; waiting for it`);
          waitingOn.set(key, err.holder);
        } else {
          log.error({ err, terminalId: t.terminalId }, 'direct delivery: cannot open the journal');
        }
        continue;
      }
      const say = (line: string) => log.info({ terminalId: t.terminalId, device: t.device }, line);
      const loop = new DeliveryLoop(ports.linkFor(t), {
        device: t.device!, journal, log: say, ...(options.retryMs ? { retryMs: options.retryMs } : {}), ...(options.waitMs ? { waitMs: options.waitMs } : {}),
        ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      });
      const done = loop.start().catch((err) => log.error({ err, terminalId: t.terminalId }, 'direct delivery stopped'));
      running.set(key, { device: t.device!, loop, journal, done });
      say(`direct delivery to ${t.device}`);
    }
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      scanning = scan().catch((err) => log.warn({ err }, 'direct delivery: scan failed')).finally(() => {
        scanning = undefined;
        schedule();
      });
    }, RESCAN_MS);
    timer.unref();
  };

  return {
    name: 'direct-delivery',
    async start(l) {
      log = l;
      await scan();
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await scanning;
      await Promise.all([...running.keys()].map(stopOne));
    },
  };
}
