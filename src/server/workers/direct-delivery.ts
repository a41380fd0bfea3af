// Direct delivery: the service itself is the client of every enabled terminal registered with a
// device address (`bobina terminals add … --device tcp://host:port`), for the embedded setup where
// the service runs in the shop. Each such terminal gets the agent's own loop (delivery/loop.ts)
// and its own journal, talking to the job use cases in process instead of over HTTP. Terminals
// added, changed or disabled while the service runs are picked up within a few seconds.
import { join } from 'node:path';
import { Journal, JournalLockedError } from '../../delivery/journal.js';
import { DeliveryLoop, type TerminalLink } from '../../delivery/loop.js';
import { offerOf, terminalStateOf } from '../../delivery/protocol.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Store } from '../store/repositories.js';
import type { Principal, Terminal } from '../store/types.js';
import type { BackgroundWorker, WorkerLog } from './worker.js';

const RESCAN_MS = 3000;

/** The job use cases as a TerminalLink, acting as `principal`. */
export function inProcessLink(jobs: Jobs, principal: Principal): TerminalLink {
  return {
    async next(waitMs, signal) {
      // The app is closing: wait for this loop to be stopped instead of asking again at once.
      if (jobs.notifier.isClosed) await new Promise((resolve) => (signal.aborted ? resolve(undefined) : signal.addEventListener('abort', resolve, { once: true })));
      const offer = await jobs.next(principal, waitMs, signal);
      if (!offer && signal.aborted) return {};
      const view = await jobs.terminalView(principal);
      const terminal = view ? { terminal: terminalStateOf(view) } : {};
      return offer ? { offer: offerOf(offer.job, offer.token, jobs.settings.leaseMs), ...terminal } : terminal;
    },
    report: async (r) => ({ aceito: (await jobs.report(principal, r)).aceito }),
    renew: async (id, token) => ({ aceito: (await jobs.renew(principal, { id, token })).aceito }),
    resume: () => jobs.resume(principal),
  };
}

interface Running {
  device: string;
  loop: DeliveryLoop;
  journal: Journal;
  done: Promise<void>;
}

export function directDelivery(store: Store, jobs: Jobs, stateDir: string, options: { retryMs?: number; waitMs?: number } = {}): BackgroundWorker {
  const running = new Map<string, Running>();
  /** Terminals whose journal another live process holds, and that holder (to say it once). */
  const waitingOn = new Map<string, number | undefined>();
  let timer: NodeJS.Timeout | undefined;
  let log: WorkerLog;
  let stopped = false;
  let scanning: Promise<void> | undefined;

  const keyOf = (t: Terminal) => `${t.accountId}\u0000${t.terminalId}`;

  async function stopOne(key: string) {
    const r = running.get(key);
    if (!r) return;
    running.delete(key);
    await r.loop.stop();
    r.journal.close();
  }

  async function scan() {
    const wanted = new Map((await store.terminals.withDevice()).map((t) => [keyOf(t), t]));
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
      const loop = new DeliveryLoop(inProcessLink(jobs, { kind: 'terminal', accountId: t.accountId, terminalId: t.terminalId }), {
        device: t.device!, journal, log: say, ...(options.retryMs ? { retryMs: options.retryMs } : {}), ...(options.waitMs ? { waitMs: options.waitMs } : {}),
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
